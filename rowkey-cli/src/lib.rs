//! The `rowkey` command-line tool's library: a row key read and written
//! from its [`Layout`](rowkey_core::Layout) alone, the layout loaded from
//! the JSON that `Key::layout()` serialises to, keys in HBase's
//! `toStringBinary` form and hex, and the hotspot picture.
//!
//! The binary (`rowkey explain | decode | encode | splits | hotspot`) is a
//! thin layer over these modules.

pub mod decode;
pub mod encode;
pub mod hotspot;
pub mod keytext;
pub mod kind;
pub mod layout_file;
pub mod parse;
pub mod salt;
pub mod text_form;
pub mod value;
