//! The Cloud Bigtable emulator for end-to-end tests: started on a free
//! loopback port, ready once it accepts connections, killed by its pid
//! when the guard drops (also when a test panics).

use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CBTEMULATOR: &str = "/usr/lib/google-cloud-sdk/platform/bigtable-emulator/cbtemulator";

/// A running emulator; `host` is `127.0.0.1:<port>`.
pub struct Emulator {
    child: Child,
    pub host: String,
}

impl Emulator {
    pub fn start() -> Emulator {
        // Another process may take the free port before the emulator binds
        // it; then the emulator exits and we try another port.
        for _ in 0..5 {
            if let Some(emulator) = Self::try_start() {
                return emulator;
            }
        }
        panic!("the Bigtable emulator did not start on any of 5 ports");
    }

    fn try_start() -> Option<Emulator> {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free loopback port")
            .port();
        let child = Command::new(CBTEMULATOR)
            .args(["-host", "127.0.0.1", "-port", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("BIGTABLE EMULATOR MISSING: cannot start {CBTEMULATOR}: {e}")
            });
        let mut emulator = Emulator {
            child,
            host: format!("127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(&emulator.host).is_err() {
            if emulator.child.try_wait().ok().flatten().is_some() {
                return None;
            }
            assert!(
                Instant::now() < deadline,
                "the emulator did not start listening in 30 s"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(emulator)
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
