//! Runtime of [`rowkey`](https://docs.rs/rowkey): the traits a derived row
//! key implements, the field codecs that write its bytes, the stack buffer
//! that holds it and the errors that say precisely what went wrong.
//!
//! Most users depend on the `rowkey` crate and `#[derive(RowKey)]`; this
//! crate is what the generated code calls. Every byte rule lives here and
//! is unit- and property-tested here.
//!
//! Keys sort as HBase and Bigtable sort them: unsigned lexicographic byte
//! order. Codecs that promise order satisfy `a < b` exactly when
//! `bytes(a) < bytes(b)`.

// Where rustdoc links this crate's items from other crates' pages when
// its own docs are not built beside them: `cargo doc --no-deps` documents
// the workspace's crates in no set order, and a link to a crate whose
// docs are not there yet would be left as text. .ci/doc-links.sh checks
// the version.
#![doc(html_root_url = "https://docs.rs/rowkey-core/0.1.0")]
#![warn(missing_docs)]

mod buf;
pub mod codec;
mod display;
mod error;
pub mod hotspot;
mod index;
mod key;
mod key_fields;
pub mod key_text;
pub mod layout;
mod part;
mod reader;
mod render;
pub mod salt;
pub mod scan;
pub mod split;
mod uninit;
mod values;
mod writer;

pub use buf::KeyBuf;
pub use codec::framing::Side;
pub use display::KeyDisplay;
pub use error::{
    DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind, KeyError, KeyLocation,
};
pub use index::{IndexOf, SparseIndexOf};
pub use key::{DecodeKey, DecodeKeyOwned, RowKey};
pub use layout::{FieldCodec, FieldLayout, KeyPrefix, Layout, Order, TimeCrate, ValueKind};
pub use part::{DecodePart, KeyPart};
pub use reader::KeyReader;
pub use render::UnrenderableKey;
pub use writer::KeyWriter;

/// HBase's hard limit on a row key's length (its length is a signed short).
pub const HBASE_MAX_KEY_LEN: usize = 32767;

/// Bigtable's limit on a row key's length: 4 KiB.
pub const BIGTABLE_MAX_KEY_LEN: usize = 4096;

/// What `#[derive(RowKey)]` expands to calls; not a public API.
#[doc(hidden)]
pub mod __private {
    // Every codec type and trait the codec module exports, so that a new
    // codec needs no line here.
    pub use crate::codec::*;
    pub use crate::salt::{
        BucketFormat, BucketGroups, GroupRule, HashPrefixPlan, KeyGroup, PrefixHash, SaltHash,
        SaltPlan,
    };

    /// `Option` tags.
    pub mod option {
        pub use crate::codec::option::{put_tag, take_tag};
    }

    /// `#[desc]` on whole parts.
    pub mod desc {
        pub use crate::codec::desc_part::{fixed_width_for_desc, put_part, take_inverted_part};
    }

    /// The salt module, with the group helpers generated code calls.
    pub mod salt {
        pub use crate::salt::groups::{checked_group, group_in_range};
        pub use crate::salt::*;
    }

    /// The lengths a derived layout computes from its fields.
    pub mod layout {
        pub use crate::layout::lengths::{fixed_len, max_len, with_offsets};
        pub use crate::layout::rules::PartFacts;
        pub use crate::layout::FORMAT_VERSION;
    }
    pub use crate::scan::step::ScanField;
    pub use crate::scan::{ScanBuilder, ScanPlan, ScanQuery, Step};

    /// The scan module, with the stub step a failed derive emits.
    pub mod scan {
        pub use crate::scan::absorb::AbsorbStep;
        pub use crate::scan::field_codec::{codec, OwnedValue, ScanCodec, ScanFieldInfo};
        pub use crate::scan::step::{
            ModeDecides, NoLearn, ScanField, ScanKey, ScanLearn, ScanState, WholeKeyIn,
        };
        pub use crate::scan::*;
    }
    pub use crate::buf::KeyStorage;
    pub use crate::error::InField;
    pub use crate::key::encodes_on_stack;
    pub use crate::key::WriteKey;
    pub use crate::key_fields::{
        concat, encode_ref_parts, is_key_field, key_index, str_eq, KeyField, KeyFields,
    };
    pub use crate::reader::decode_fields;
    pub use crate::{
        DecodeError, DecodeErrorKind, DecodeKey, DecodePart, EncodeError, EncodeErrorKind,
        FieldCodec, FieldLayout, IndexOf, KeyBuf, KeyPart, KeyPrefix, KeyReader, KeyWriter, Layout,
        Order, RowKey, Side, TimeCrate, ValueKind, HBASE_MAX_KEY_LEN,
    };
    pub use core::option::Option::{self, None, Some};
    pub use core::result::Result::{self, Err, Ok};
}
