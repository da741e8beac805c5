//! [`KeyWriter`]: the cursor every codec writes through.

use crate::error::{EncodeError, EncodeErrorKind};

/// A bounds-checked cursor over the output of one key.
///
/// It remembers which struct and field it is writing so that every error a
/// codec raises names them, with the byte offset. Writing never allocates
/// and never panics: running out of room is
/// [`EncodeErrorKind::BufferTooSmall`].
///
/// ```
/// use rowkey::KeyWriter;
/// let mut out = [0u8; 4];
/// let mut w = KeyWriter::new(&mut out, "Demo");
/// w.field("a");
/// w.put(b"ab").unwrap();
/// assert_eq!(w.position(), 2);
/// let err = w.put(b"xyz").unwrap_err();
/// assert_eq!((err.field(), err.offset()), ("a", 2));
/// ```
#[derive(Debug)]
pub struct KeyWriter<'b> {
    out: &'b mut [u8],
    pos: usize,
    key: &'static str,
    field: &'static str,
}

impl<'b> KeyWriter<'b> {
    /// A writer at the start of `out`, for key struct `key`.
    pub fn new(out: &'b mut [u8], key: &'static str) -> Self {
        KeyWriter {
            out,
            pos: 0,
            key,
            field: "",
        }
    }

    /// A writer that continues at byte `pos` of `out` (bytes before it are
    /// already written): scan builders append one field at a time, and
    /// error offsets stay offsets in the whole key.
    pub fn resume(out: &'b mut [u8], key: &'static str, pos: usize) -> Self {
        KeyWriter {
            pos: pos.min(out.len()),
            out,
            key,
            field: "",
        }
    }

    /// Names the field whose bytes come next (for errors).
    #[inline]
    pub fn field(&mut self, name: &'static str) {
        self.field = name;
    }

    /// Bytes written so far.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// An error of `kind` at the current position.
    //
    // Inlined, handing plain values to an out-of-line constructor: a
    // writer whose address reached a call would have to live in memory
    // on the hot path too; this way it stays in registers.
    #[inline(always)]
    pub fn error(&self, kind: EncodeErrorKind) -> EncodeError {
        self.error_at(self.pos, kind)
    }

    /// An error of `kind` at byte `offset`.
    #[inline(always)]
    pub fn error_at(&self, offset: usize, kind: EncodeErrorKind) -> EncodeError {
        encode_error(self.key, self.field, offset, kind)
    }

    /// The next `n` bytes of the output, to be filled by the caller; the
    /// cursor moves past them.
    #[inline]
    pub fn reserve(&mut self, n: usize) -> Result<&mut [u8], EncodeError> {
        let start = self.pos;
        match start.checked_add(n) {
            Some(end) if end <= self.out.len() => {
                self.pos = end;
                Ok(&mut self.out[start..end])
            }
            _ => Err(self.error(EncodeErrorKind::BufferTooSmall {
                needed: start.saturating_add(n),
                available: self.out.len(),
            })),
        }
    }

    /// Writes `bytes`.
    #[inline]
    pub fn put(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        self.reserve(bytes.len())?.copy_from_slice(bytes);
        Ok(())
    }

    /// Writes one byte.
    #[inline]
    pub fn put_byte(&mut self, byte: u8) -> Result<(), EncodeError> {
        self.reserve(1)?[0] = byte;
        Ok(())
    }

    /// Writes `n` copies of `byte`.
    #[inline]
    pub fn put_repeated(&mut self, byte: u8, n: usize) -> Result<(), EncodeError> {
        self.reserve(n)?.fill(byte);
        Ok(())
    }

    /// The bytes written since position `start`, for in-place transforms
    /// (inversion for descending order, reversal).
    #[inline]
    pub fn written_since(&mut self, start: usize) -> &mut [u8] {
        let start = start.min(self.pos);
        &mut self.out[start..self.pos]
    }

    /// Inverts every byte written since `start`: ascending order becomes
    /// descending (the encodings used are prefix-free, which makes this
    /// exact).
    #[inline]
    pub fn invert_since(&mut self, start: usize) {
        for b in self.written_since(start) {
            *b = !*b;
        }
    }

    /// Ends the key and returns its length.
    #[inline]
    pub fn finish(self) -> usize {
        self.pos
    }
}

/// Every writer error is built here, off the hot path, from plain values
/// (see [`KeyWriter::error`]).
#[cold]
#[inline(never)]
fn encode_error(
    key: &'static str,
    field: &'static str,
    offset: usize,
    kind: EncodeErrorKind,
) -> EncodeError {
    EncodeError::new(key, field, offset, kind)
}
