//! What a field's values are and how they come and go, shared by the
//! codecs and the layout's interpreter: [`ValueKind`] (a field's type, as
//! far as its bytes and its text depend on it), [`Value`] (one value,
//! read or typed) and the helpers and errors of a value that is not of
//! its field's kind (`mismatch`). A leaf: it imports neither the codecs
//! nor the layout, which both import it, so neither imports the other
//! through it.

pub(crate) mod kind;
pub(crate) mod mismatch;
pub(crate) mod value;

pub use kind::{TimeCrate, ValueKind};
pub use value::Value;
