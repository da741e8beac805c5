//! Standard output, where the commands print their reports.
//!
//! `println!` panics when the reader has gone (`rowkey decode .. | head
//! -1`: "failed printing to stdout: Broken pipe", exit 101). Here a closed
//! pipe ends the program at once, quietly and with success, as it ends
//! the Unix tools it is piped with: the reader took what it wanted. Any
//! other failure to write (a full disk) is an error.

use std::fmt;
use std::io::{self, Write};

/// Writes `args` to standard output.
pub fn write(args: fmt::Arguments<'_>) -> Result<(), String> {
    let result = io::stdout().lock().write_fmt(args);
    handle(result)
}

/// Writes what standard output still buffers (a last line without its
/// newline).
pub fn flush() -> Result<(), String> {
    let result = io::stdout().lock().flush();
    handle(result)
}

fn handle(result: io::Result<()>) -> Result<(), String> {
    match result {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(format!("cannot write to standard output: {e}")),
    }
}

/// `print!` to standard output, as [`write`]: `?` its result.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*))
    };
}

/// `println!` to standard output, as [`write`]: `?` its result.
macro_rules! outln {
    () => {
        $crate::out::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {out, outln};
