//! Progress on stderr: indicatif's bar on a terminal; elsewhere (a log, a
//! pipe, CI), where indicatif draws nothing, a plain line now and then
//! (`reading keys: 1.2 MiB of 40.0 MiB, 50000 keys`), so a long run still
//! shows it is moving.

use indicatif::ProgressBar;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Seconds between plain lines; `ROWKEY_PROGRESS_SECS` sets it (`0`: a
/// line at every update).
const DEFAULT_EVERY: Duration = Duration::from_secs(5);

/// How a plain line shows the position.
#[derive(Clone, Copy)]
pub enum Units {
    /// Bytes of input.
    Bytes,
    /// No position: the message alone.
    None,
}

/// A bar on a terminal, plain lines elsewhere.
pub struct Progress {
    bar: Option<ProgressBar>,
    label: &'static str,
    units: Units,
    len: Option<u64>,
    every: Duration,
    plain: Mutex<Plain>,
}

/// What a plain line shows, and when the last one was printed.
struct Plain {
    pos: u64,
    msg: String,
    last: Instant,
}

impl Progress {
    /// `bar` where stderr is a terminal; otherwise plain lines headed
    /// `label`.
    pub fn new(
        label: &'static str,
        units: Units,
        len: Option<u64>,
        bar: impl FnOnce() -> ProgressBar,
    ) -> Self {
        let terminal = std::io::stderr().is_terminal();
        let every = std::env::var("ROWKEY_PROGRESS_SECS")
            .ok()
            .and_then(|s| s.parse::<u64>().ok())
            .map_or(DEFAULT_EVERY, Duration::from_secs);
        Progress {
            bar: terminal.then(bar),
            label,
            units,
            len,
            every,
            plain: Mutex::new(Plain {
                pos: 0,
                msg: String::new(),
                last: Instant::now(),
            }),
        }
    }

    /// Moves the position on by `n`.
    pub fn inc(&self, n: u64) {
        match &self.bar {
            Some(b) => b.inc(n),
            None => self.plain_line(|p| p.pos += n),
        }
    }

    /// Sets the message shown after the position.
    pub fn set_message(&self, msg: String) {
        match &self.bar {
            Some(b) => b.set_message(msg),
            None => self.plain_line(|p| p.msg = msg),
        }
    }

    /// Clears the bar (a plain line stays where it was printed).
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }

    /// Updates the plain line, and prints it when one is due.
    fn plain_line(&self, update: impl FnOnce(&mut Plain)) {
        let mut p = self.plain.lock().unwrap_or_else(|e| e.into_inner());
        update(&mut p);
        if p.last.elapsed() < self.every {
            return;
        }
        p.last = Instant::now();
        let mut line = format!("{}:", self.label);
        if let Units::Bytes = self.units {
            line.push_str(&format!(" {}", mib(p.pos)));
            if let Some(len) = self.len {
                line.push_str(&format!(" of {}", mib(len)));
            }
            if !p.msg.is_empty() {
                line.push(',');
            }
        }
        if !p.msg.is_empty() {
            line.push_str(&format!(" {}", p.msg));
        }
        eprintln!("{line}");
    }
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}
