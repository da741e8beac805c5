//! The `rowkey` command-line tool's library: a thin shell over
//! rowkey-core's layout interpreter ([`rowkey_core::layout::dynamic`]).
//! It reads layout files and keys in the forms people paste (HBase's
//! `toStringBinary`, hex, `cbt read` output), and draws the hotspot
//! picture.
//!
//! The binary (`rowkey explain | decode | encode | splits | hotspot |
//! diff | rekey`)
//! parses its arguments with clap and calls these modules.

pub mod hotspot;
pub mod key_input;
pub mod layout_file;
pub mod progress;
