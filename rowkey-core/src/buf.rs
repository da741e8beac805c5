//! [`KeyBuf`]: an encoded key on the stack.

use crate::display::KeyDisplay;
use crate::uninit;
use crate::{EncodeError, KeyWriter, RowKey};
use core::fmt;
use core::hash::{Hash, Hasher};
use core::mem::MaybeUninit;
use core::ops::Deref;

/// An encoded key in a stack buffer of `N` bytes (the layout's `MAX_LEN`).
///
/// It derefs to `[u8]`, compares and hashes by its bytes, and prints like
/// HBase's `Bytes.toStringBinary`.
///
/// ```
/// use rowkey::KeyBuf;
/// let key = KeyBuf::<8>::from_slice(b"a\x01").unwrap();
/// assert_eq!(&*key, b"a\x01");
/// assert_eq!(key.to_string(), r"a\x01");
/// let owned: Vec<u8> = key.into();
/// assert_eq!(owned, b"a\x01");
/// ```
#[derive(Clone, Copy)]
#[repr(C)]
pub struct KeyBuf<const N: usize> {
    /// `len <= N`, and `bytes[..len]` has been written (see
    /// [`crate::uninit`]); the rest is never read, so it is never zeroed.
    len: usize,
    bytes: [MaybeUninit<u8>; N],
}

impl<const N: usize> KeyBuf<N> {
    /// An empty key.
    pub const fn new() -> Self {
        KeyBuf {
            len: 0,
            // Debug builds poison the buffer (`writer::POISON`): a byte
            // read before it is written shows in tests. Release builds
            // leave it unwritten: zeroing it cost every encode.
            bytes: if cfg!(debug_assertions) {
                [MaybeUninit::new(crate::writer::POISON); N]
            } else {
                [MaybeUninit::uninit(); N]
            },
        }
    }

    /// Every byte of the buffer, written or not: only a debug build's
    /// poisoned buffer has them all written.
    #[cfg(all(test, debug_assertions))]
    pub(crate) fn raw_for_test(&self) -> [u8; N] {
        self.bytes.map(|b| {
            // SAFETY: debug builds write every byte in `new`.
            unsafe { b.assume_init() }
        })
    }

    /// A copy of `bytes`, or `None` when they do not fit in `N`.
    pub fn from_slice(bytes: &[u8]) -> Option<Self> {
        let mut k = Self::new();
        k.extend_from_slice(bytes).then_some(k)
    }

    /// The key's bytes.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        // SAFETY: `bytes[..len]` has been written (the field invariant).
        unsafe { uninit::assume_init(&self.bytes[..self.len]) }
    }

    /// The key's bytes, to change in place.
    #[inline]
    pub(crate) fn as_mut_bytes(&mut self) -> &mut [u8] {
        // SAFETY: as in `as_bytes`.
        unsafe { uninit::assume_init_mut(&mut self.bytes[..self.len]) }
    }

    /// Keeps the first `len` bytes (all of them, when there are fewer).
    #[inline]
    pub(crate) fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Appends what `f` writes (the errors naming key struct `key`); on
    /// an error the key is unchanged.
    #[inline(always)]
    pub(crate) fn append(
        &mut self,
        key: &'static str,
        f: impl FnOnce(&mut KeyWriter<'_>) -> Result<(), EncodeError>,
    ) -> Result<(), EncodeError> {
        let base = self.bytes.as_ptr();
        // SAFETY: `bytes[..len]` has been written (the field invariant);
        // the writer writes every byte before the position it ends at, so
        // the new `len` keeps the invariant (`finish_over`: if `f` left
        // that writer in `w`).
        let mut w = unsafe { KeyWriter::over_uninit(&mut self.bytes, key, self.len) };
        f(&mut w)?;
        self.len = w.finish_over(base)?;
        Ok(())
    }

    /// The key as an owned `Vec<u8>`, for clients that need one.
    pub fn to_vec(&self) -> Vec<u8> {
        self.as_bytes().to_vec()
    }

    /// The capacity: the layout's `MAX_LEN`.
    pub const fn capacity(&self) -> usize {
        N
    }

    /// Appends `bytes`; `false` (and no change) when they do not fit.
    pub(crate) fn extend_from_slice(&mut self, bytes: &[u8]) -> bool {
        match self.bytes.get_mut(self.len..self.len + bytes.len()) {
            Some(dst) => {
                uninit::write_slice(dst, bytes);
                self.len += bytes.len();
                true
            }
            None => false,
        }
    }

    /// Increments the key to the first key that does not start with it:
    /// the last byte that is not `0xFF` goes up by one and what follows
    /// it is dropped. `false` when every byte is `0xFF` (or there are
    /// none): no key follows all keys with this prefix.
    pub(crate) fn advance_past_prefix(&mut self) -> bool {
        while let Some(&last) = self.as_bytes().last() {
            if last == 0xFF {
                self.len -= 1;
            } else {
                self.bytes[self.len - 1].write(last + 1);
                return true;
            }
        }
        false
    }
}

/// The buffer [`RowKey::to_key`] fills: [`KeyBuf`]. Not API: reached only
/// through `__private`, and implemented for `KeyBuf` alone.
#[doc(hidden)]
pub trait KeyStorage: Deref<Target = [u8]> + Sized {
    /// `key`'s bytes, written straight into the storage.
    fn encode<K: RowKey + ?Sized>(key: &K) -> Result<Self, EncodeError>;
    /// What `write` writes, the errors naming key struct `key` (a key
    /// written from a record's fields: `key_fields::encode_ref_parts`).
    fn encode_with(
        key: &'static str,
        write: impl FnOnce(&mut KeyWriter<'_>) -> Result<(), EncodeError>,
    ) -> Result<Self, EncodeError>;
}

impl<const N: usize> KeyStorage for KeyBuf<N> {
    #[inline(always)]
    fn encode<K: RowKey + ?Sized>(key: &K) -> Result<Self, EncodeError> {
        let mut buf = Self::new();
        let base = buf.bytes.as_ptr();
        // `encode_with`'s body, not a call of it with `|w| key.write_key(w)`:
        // through the closure, Spend's `to_key` took 167 instructions, not
        // 76 (`bash bench-tools/callgrind.sh spend/encode`).
        // SAFETY: as in `encode_with`.
        let mut w = unsafe { KeyWriter::over_uninit(&mut buf.bytes, K::layout().name, 0) };
        key.write_key(&mut w)?;
        buf.len = w.finish_over(base)?;
        Ok(buf)
    }

    #[inline(always)]
    fn encode_with(
        key: &'static str,
        write: impl FnOnce(&mut KeyWriter<'_>) -> Result<(), EncodeError>,
    ) -> Result<Self, EncodeError> {
        let mut buf = Self::new();
        let base = buf.bytes.as_ptr();
        // SAFETY: nothing of `bytes` needs to be written at position 0;
        // the writer writes every byte before the position it ends at,
        // so `len` keeps the field invariant (`finish_over`: if `write`
        // left that writer in `w`).
        let mut w = unsafe { KeyWriter::over_uninit(&mut buf.bytes, key, 0) };
        write(&mut w)?;
        buf.len = w.finish_over(base)?;
        Ok(buf)
    }
}

impl<const N: usize> Default for KeyBuf<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Deref for KeyBuf<N> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl<const N: usize> AsRef<[u8]> for KeyBuf<N> {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl<const N: usize> core::borrow::Borrow<[u8]> for KeyBuf<N> {
    fn borrow(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl<const N: usize> From<KeyBuf<N>> for Vec<u8> {
    fn from(k: KeyBuf<N>) -> Vec<u8> {
        k.to_vec()
    }
}

impl<const N: usize> PartialEq for KeyBuf<N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}
impl<const N: usize> Eq for KeyBuf<N> {}

impl<const N: usize> PartialEq<[u8]> for KeyBuf<N> {
    fn eq(&self, other: &[u8]) -> bool {
        self.as_bytes() == other
    }
}

impl<const N: usize> PartialOrd for KeyBuf<N> {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<const N: usize> Ord for KeyBuf<N> {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

impl<const N: usize> Hash for KeyBuf<N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state)
    }
}

impl<const N: usize> fmt::Display for KeyBuf<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&KeyDisplay(self.as_bytes()), f)
    }
}

impl<const N: usize> fmt::Debug for KeyBuf<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&KeyDisplay(self.as_bytes()), f)
    }
}

#[cfg(test)]
mod tests {
    use super::KeyBuf;
    use crate::{EncodeErrorKind, RowKey};
    use proptest::prelude::*;

    #[test]
    fn only_written_bytes_are_seen() {
        let mut k = KeyBuf::<8>::from_slice(b"ab").unwrap();
        assert_eq!(k.as_bytes(), b"ab");
        assert!(k.extend_from_slice(b"cd"));
        assert!(!k.extend_from_slice(b"efghi"), "9 bytes do not fit in 8");
        assert_eq!(&*k, b"abcd");
        assert!(KeyBuf::<2>::from_slice(b"abc").is_none());
        assert_eq!(KeyBuf::<0>::new().as_bytes(), b"");
    }

    #[test]
    fn a_failed_append_leaves_the_key_as_it_was() {
        let mut k = KeyBuf::<4>::from_slice(b"ab").unwrap();
        let err = k.append("K", |w| w.put(b"xyz")).unwrap_err();
        assert_eq!(
            err.kind(),
            EncodeErrorKind::BufferTooSmall {
                needed: 5,
                available: 4
            }
        );
        assert_eq!(&*k, b"ab");
        k.append("K", |w| {
            // A placeholder filled later, as salt buckets are.
            w.reserve(1)?;
            w.written_since(2)[0] = b'!';
            w.put_byte(b'z')
        })
        .unwrap();
        assert_eq!(&*k, b"ab!z");
    }

    #[test]
    fn advancing_past_a_prefix() {
        let mut k = KeyBuf::<4>::from_slice(b"a\xFF\xFF").unwrap();
        assert!(k.advance_past_prefix());
        assert_eq!(&*k, b"b");
        let mut top = KeyBuf::<4>::from_slice(b"\xFF\xFF").unwrap();
        assert!(!top.advance_past_prefix());
        assert_eq!(&*top, b"");
    }

    /// A key struct of one escaped field, in a buffer of 2 * 40 + 2 bytes.
    struct Name(Vec<u8>);

    impl crate::key::WriteKey for Name {
        fn write_key(&self, w: &mut crate::KeyWriter<'_>) -> Result<(), crate::EncodeError> {
            crate::codec::escaped::put(w, &self.0)
        }
    }

    impl RowKey for Name {
        const MAX_LEN: usize = 82;
        const FIXED_LEN: Option<usize> = None;
        type Key = KeyBuf<82>;
        fn encoded_len(&self) -> usize {
            crate::codec::escaped::escaped_len(&self.0)
        }
        fn layout() -> &'static crate::Layout {
            static LAYOUT: crate::Layout = crate::Layout {
                format_version: crate::layout::FORMAT_VERSION,
                name: "Name",
                separator: None,
                max_len: 82,
                fixed_len: None,
                prefix: None,
                fields: &[],
            };
            &LAYOUT
        }
    }

    /// A key whose encoder swaps the writer it is handed for one over a
    /// buffer of its own, 82 bytes in.
    struct Swapper;

    impl crate::key::WriteKey for Swapper {
        fn write_key(&self, w: &mut crate::KeyWriter<'_>) -> Result<(), crate::EncodeError> {
            let other: &'static mut [u8] = Box::leak(Box::new([0u8; 82]));
            let mut mine = crate::KeyWriter::new(other, "Swapper");
            mine.put_repeated(1, 82)?;
            core::mem::swap(w, &mut mine);
            Ok(())
        }
    }

    impl RowKey for Swapper {
        const MAX_LEN: usize = 82;
        const FIXED_LEN: Option<usize> = None;
        type Key = KeyBuf<82>;
        fn encoded_len(&self) -> usize {
            82
        }
        fn layout() -> &'static crate::Layout {
            Name::layout()
        }
    }

    /// The position of a writer swapped in is not taken for the key's
    /// length: none of the buffer's bytes were written (unsafe to read in
    /// a release build).
    #[test]
    fn a_writer_swapped_by_the_encoder_is_an_error() {
        let err = Swapper.to_key().unwrap_err();
        assert!(
            matches!(err.kind(), EncodeErrorKind::Invalid(why) if why.contains("replaced")),
            "{err}"
        );
        let mut k = KeyBuf::<4>::from_slice(b"ab").unwrap();
        let err = k
            .append("K", |w| {
                let other: &'static mut [u8] = Box::leak(Box::new([0u8; 4]));
                let mut mine = crate::KeyWriter::new(other, "K");
                mine.put(b"wxyz")?;
                core::mem::swap(w, &mut mine);
                Ok(())
            })
            .unwrap_err();
        assert!(matches!(err.kind(), EncodeErrorKind::Invalid(_)), "{err}");
        assert_eq!(&*k, b"ab");
        // `encode_into` writes into the caller's initialised slice: a swap
        // there misreports the length, and reads nothing unwritten.
        let mut out = [0u8; 82];
        assert_eq!(Swapper.encode_into(&mut out).unwrap(), 82);
    }

    proptest! {
        /// `to_key` (an unzeroed buffer) and `encode_into` (a buffer of
        /// garbage) write the same bytes, whatever came before.
        #[test]
        fn to_key_writes_what_encode_into_writes(
            values in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 1..8)
        ) {
            let mut garbage = [0xA5u8; 82];
            for v in values {
                let key = Name(v.clone()).to_key().unwrap();
                let n = Name(v.clone()).encode_into(&mut garbage).unwrap();
                prop_assert_eq!(&*key, &garbage[..n]);
                prop_assert_eq!(key.len(), Name(v.clone()).encoded_len());
                prop_assert_eq!(Name(v.clone()).to_vec().unwrap(), key.to_vec());
                // Buffers shorter than MAX_LEN take `encode_into`'s other
                // path: the exact length fits, one byte less is an error
                // that names the whole key's length.
                let mut exact = vec![0xA5u8; key.len()];
                prop_assert_eq!(Name(v.clone()).encode_into(&mut exact).unwrap(), key.len());
                prop_assert_eq!(&exact[..], &*key);
                if !key.is_empty() {
                    let mut short = vec![0xA5u8; key.len() - 1];
                    let err = Name(v).encode_into(&mut short).unwrap_err();
                    prop_assert_eq!(
                        err.kind(),
                        EncodeErrorKind::BufferTooSmall { needed: key.len(), available: key.len() - 1 }
                    );
                }
            }
        }
    }
}
