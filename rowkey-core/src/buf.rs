//! [`KeyBuf`]: an encoded key on the stack.

use crate::display::KeyDisplay;
use core::fmt;
use core::hash::{Hash, Hasher};
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
pub struct KeyBuf<const N: usize> {
    len: usize,
    bytes: [u8; N],
}

impl<const N: usize> KeyBuf<N> {
    /// An empty key.
    pub const fn new() -> Self {
        KeyBuf {
            len: 0,
            bytes: [0; N],
        }
    }

    /// A copy of `bytes`, or `None` when they do not fit in `N`.
    pub fn from_slice(bytes: &[u8]) -> Option<Self> {
        let mut k = Self::new();
        k.bytes.get_mut(..bytes.len())?.copy_from_slice(bytes);
        k.len = bytes.len();
        Some(k)
    }

    /// The key's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
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
                dst.copy_from_slice(bytes);
                self.len += bytes.len();
                true
            }
            None => false,
        }
    }

    /// The whole buffer and the length in use, for writers that append.
    pub(crate) fn parts_mut(&mut self) -> (&mut [u8; N], &mut usize) {
        (&mut self.bytes, &mut self.len)
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
                self.bytes[self.len - 1] = last + 1;
                return true;
            }
        }
        false
    }
}

/// Filled by [`crate::RowKey::to_key`]; not meant to be called by users.
#[doc(hidden)]
pub trait KeyStorage: Deref<Target = [u8]> + Sized {
    fn empty() -> Self;
    fn storage_mut(&mut self) -> &mut [u8];
    fn set_len(&mut self, len: usize);
}

impl<const N: usize> KeyStorage for KeyBuf<N> {
    fn empty() -> Self {
        Self::new()
    }
    fn storage_mut(&mut self) -> &mut [u8] {
        &mut self.bytes
    }
    fn set_len(&mut self, len: usize) {
        self.len = len.min(N);
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
