//! The [`RowKey`] and [`DecodeKey`] traits that `#[derive(RowKey)]`
//! implements.

use crate::buf::KeyStorage;
use crate::error::{DecodeError, EncodeError};
use crate::layout::Layout;
use crate::split::SplitKeys;
use crate::KeyWriter;

/// A struct that encodes to an HBase/Bigtable row key.
///
/// Implement it with `#[derive(RowKey)]` (from the `rowkey` crate); the
/// derive checks the layout at compile time and emits calls into the
/// codecs of this crate. The trait is sealed: its supertrait, the code
/// that writes the bytes, is generated and is not API, so a key's bytes
/// always come from a checked layout.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug, PartialEq)]
/// #[rowkey(separator = "_")]
/// struct CallRecord {
///     #[text(width = 1)] bucket: u8,
///     #[text(width = 11)] tel: u64,
///     #[text(width = 14)] time: u64,
/// }
///
/// let rec = CallRecord { bucket: 2, tel: 13812345678, time: 20211201120000 };
/// let key = rec.to_key().unwrap();
/// assert_eq!(&*key, b"2_13812345678_20211201120000");
/// assert_eq!(CallRecord::FIXED_LEN, Some(28));
/// assert_eq!(CallRecord::decode(&key).unwrap(), rec);
/// ```
pub trait RowKey: WriteKey {
    /// The most bytes any value of the struct encodes to (checked at
    /// compile time against HBase's 32767-byte limit).
    const MAX_LEN: usize;
    /// `Some(n)` when every value encodes to exactly `n` bytes.
    const FIXED_LEN: Option<usize>;
    /// The stack buffer [`RowKey::to_key`] returns: `KeyBuf<MAX_LEN>`.
    type Key: KeyStorage
        + AsRef<[u8]>
        + Clone
        + core::fmt::Debug
        + core::fmt::Display
        + Ord
        + core::hash::Hash
        + Into<Vec<u8>>;

    /// Bytes this value encodes to (what [`RowKey::encode_into`] needs).
    fn encoded_len(&self) -> usize;

    /// Writes the key into `out` and returns its length. Allocates
    /// nothing. A short `out` is [`EncodeErrorKind::BufferTooSmall`]
    /// with the length needed.
    ///
    /// [`EncodeErrorKind::BufferTooSmall`]: crate::EncodeErrorKind::BufferTooSmall
    #[inline]
    fn encode_into(&self, out: &mut [u8]) -> Result<usize, EncodeError> {
        // A buffer that holds any value's key is written through a slice
        // of the constant length `MAX_LEN`, as `to_key` writes its own:
        // the fields' bounds checks fold away (Spend into a slice whose
        // length the compiler does not know: 116 -> 95 instructions,
        // `bench-tools/callgrind.sh spend/encode_into_slice`). A shorter
        // one takes the general path.
        let available = out.len();
        match out.get_mut(..Self::MAX_LEN) {
            Some(head) => match write_into(self, head) {
                // Only a field that writes past `MAX_LEN` (a hand-written
                // `KeyPart` breaking its contract) gets here: the caller's
                // whole buffer decides.
                Err(e) if available > Self::MAX_LEN && is_too_small(&e) => {
                    write_into_short(self, out)
                }
                written => written,
            },
            None => write_into_short(self, out),
        }
    }

    /// The key in a stack buffer of `MAX_LEN` bytes. Allocates nothing,
    /// and writes only the key's bytes (the buffer is not zeroed first).
    #[inline]
    fn to_key(&self) -> Result<Self::Key, EncodeError> {
        Self::Key::encode(self).map_err(|e| too_small(self, e))
    }

    /// The key as an owned `Vec<u8>` (one allocation, of the exact length).
    #[inline]
    fn to_vec(&self) -> Result<Vec<u8>, EncodeError> {
        // Encoded on the stack, then copied into an allocation of its
        // length: no zero fill, no `encoded_len` pass. Keys that may be
        // long are measured first and written in place, so the stack
        // buffer stays small.
        if encodes_on_stack::<Self>() {
            return self.to_key().map(|key| key.as_ref().to_vec());
        }
        let mut out = vec![0; self.encoded_len()];
        let len = self.encode_into(&mut out)?;
        out.truncate(len);
        Ok(out)
    }

    /// The layout: fields in key order with offsets, widths and codecs.
    fn layout() -> &'static Layout;

    /// The keys that pre-split a table into one region per salt bucket
    /// (`N - 1` keys; none for an unsalted key). See
    /// [`Layout::split_keys`].
    ///
    /// ```
    /// use rowkey::RowKey;
    /// #[derive(RowKey)]
    /// #[rowkey(separator = "_")]
    /// struct Call {
    ///     #[salt(buckets = 6)]
    ///     #[text(width = 11)]
    ///     tel: u64,
    /// }
    /// let splits = Call::split_keys();
    /// assert_eq!(splits.to_string(), "0|\n1|\n2|\n3|\n4|\n");
    /// ```
    fn split_keys() -> SplitKeys
    where
        Self: Sized,
    {
        Self::layout().split_keys()
    }
}

/// Writes a key's bytes: what `#[derive(RowKey)]` generates for
/// [`RowKey::encode_into`] and [`RowKey::to_key`] to call. Not API: it is
/// reached only through `__private`, which seals [`RowKey`].
#[doc(hidden)]
pub trait WriteKey {
    /// Writes the key's bytes into `w`.
    fn write_key(&self, w: &mut KeyWriter<'_>) -> Result<(), EncodeError>;
}

/// The longest key [`RowKey::to_vec`] encodes on the stack first.
const STACK_TO_VEC_MAX: usize = 1024;

/// Whether `e` says the output was too short.
fn is_too_small(e: &EncodeError) -> bool {
    matches!(e.kind(), crate::EncodeErrorKind::BufferTooSmall { .. })
}

/// Whether [`RowKey::to_vec`] encodes a key of `K` on the stack first (a
/// key of at most [`STACK_TO_VEC_MAX`] bytes); what a store that copies
/// a [`KeyBuf`](crate::KeyBuf) into a `Vec` asks too.
#[doc(hidden)]
pub const fn encodes_on_stack<K: RowKey + ?Sized>() -> bool {
    K::MAX_LEN <= STACK_TO_VEC_MAX
}

/// [`RowKey::encode_into`]'s write into `out`.
#[inline(always)]
fn write_into<K: RowKey + ?Sized>(key: &K, out: &mut [u8]) -> Result<usize, EncodeError> {
    let mut w = KeyWriter::new(out, K::layout().name);
    match key.write_key(&mut w) {
        Ok(()) => Ok(w.finish()),
        Err(e) => Err(too_small(key, e)),
    }
}

/// [`RowKey::encode_into`] into a buffer shorter than `MAX_LEN`: out of
/// line, so the encoder is inlined once more only where it pays.
#[inline(never)]
fn write_into_short<K: RowKey + ?Sized>(key: &K, out: &mut [u8]) -> Result<usize, EncodeError> {
    write_into(key, out)
}

/// `e` with the whole key's length as the bytes needed, when the output
/// was too small (the writer knew only the field it stopped at).
#[cold]
fn too_small<K: RowKey + ?Sized>(key: &K, e: EncodeError) -> EncodeError {
    e.with_needed(key.encoded_len())
}

/// Decoding of a [`RowKey`]; `'de` is the lifetime of the input bytes, so
/// borrowed fields (`&'de str`, `&'de [u8]`) point into them with no copy.
///
/// The derive also gives every key struct an inherent `decode` that calls
/// this, so `Spend::decode(&bytes)` needs no import.
///
/// ```
/// use rowkey::{DecodeErrorKind, DecodeKey, RowKey};
///
/// #[derive(RowKey, Debug, PartialEq)]
/// struct Op<'a> {
///     #[pad(width = 8)]
///     user: &'a str,
///     #[desc_ts]
///     at: i64,
/// }
///
/// let key = Op { user: "ann", at: 5 }.to_key().unwrap();
/// let op = <Op as DecodeKey>::decode(&key).unwrap();
/// assert_eq!(op.user, "ann"); // points into `key`
///
/// let err = Op::decode(&key[..10]).unwrap_err();
/// assert_eq!((err.field(), err.offset()), ("at", 8));
/// assert_eq!(err.kind(), DecodeErrorKind::UnexpectedEnd { needed: 6 });
/// ```
pub trait DecodeKey<'de>: RowKey + Sized {
    /// Decodes a whole key. Any byte string gives a value or an error that
    /// names the field and the byte offset; trailing bytes are an error;
    /// nothing panics.
    fn decode(bytes: &'de [u8]) -> Result<Self, DecodeError>;
}

/// A key struct that decodes from bytes of any lifetime (no borrowed
/// fields), like serde's `DeserializeOwned`.
///
/// ```
/// use rowkey::{DecodeKeyOwned, RowKey};
///
/// fn first_key<K: DecodeKeyOwned>(rows: &[Vec<u8>]) -> Option<K> {
///     K::decode(rows.first()?).ok()
/// }
///
/// #[derive(RowKey, Debug, PartialEq)]
/// struct Id {
///     id: u64,
/// }
/// let rows = vec![Id { id: 9 }.to_vec().unwrap()];
/// assert_eq!(first_key::<Id>(&rows), Some(Id { id: 9 }));
/// ```
pub trait DecodeKeyOwned: for<'de> DecodeKey<'de> {}
impl<T: for<'de> DecodeKey<'de>> DecodeKeyOwned for T {}
