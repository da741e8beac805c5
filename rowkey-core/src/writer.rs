//! [`KeyWriter`]: the cursor every codec writes through.

use crate::error::{EncodeError, EncodeErrorKind};
use crate::uninit;
use core::mem::MaybeUninit;

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
    /// The output; `out[..pos]` has been written (see [`crate::uninit`]),
    /// and nothing here ever stores an uninitialised byte in it.
    out: &'b mut [MaybeUninit<u8>],
    pos: usize,
    key: &'static str,
    field: &'static str,
}

impl<'b> KeyWriter<'b> {
    /// A writer at the start of `out`, for key struct `key`.
    // Inlined across crates: a call here put the writer in memory, and
    // `encode_into` paid 1.4x the hand-written encoder (issue 48).
    #[inline]
    pub fn new(out: &'b mut [u8], key: &'static str) -> Self {
        // SAFETY: the writer stores only initialised bytes (the field's
        // invariant), so `out` stays initialised.
        // SAFETY (`over_uninit`): all of `out` is initialised.
        unsafe { KeyWriter::over_uninit(uninit::as_uninit_mut(out), key, 0) }
    }

    /// A writer into a buffer that may not be initialised, at `pos`:
    /// keys are encoded into [`KeyBuf`](crate::KeyBuf)s without zeroing
    /// them first.
    ///
    /// # Safety
    /// `out[..pos]` (or all of `out`, for a larger `pos`) has been written.
    #[inline]
    pub(crate) unsafe fn over_uninit(
        out: &'b mut [MaybeUninit<u8>],
        key: &'static str,
        pos: usize,
    ) -> Self {
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
    ///
    /// They are zeroed first (the output may be a fresh, unzeroed key
    /// buffer); a caller that overwrites them all pays nothing for it, as
    /// the compiler drops stores that are overwritten.
    #[inline]
    pub fn reserve(&mut self, n: usize) -> Result<&mut [u8], EncodeError> {
        let start = self.pos;
        self.reserve_uninit(n)?;
        // A short run (a salt or prefix placeholder of a run-time width)
        // is zeroed with one 16-byte store where the output has room: a
        // `memset` call would cost more than the bytes. Bytes past the
        // run are then written too, which the invariant allows.
        match self.out.get_mut(start..start.wrapping_add(16)) {
            Some(wide) if n <= 16 => uninit::fill(wide, 0),
            _ => uninit::fill(&mut self.out[start..start + n], 0),
        }
        // SAFETY: every byte of `start..start + n` was just written.
        Ok(unsafe { uninit::assume_init_mut(&mut self.out[start..start + n]) })
    }

    /// The next `n` bytes, not yet written: every caller writes all of
    /// them before anything reads the output.
    #[inline(always)]
    fn reserve_uninit(&mut self, n: usize) -> Result<&mut [MaybeUninit<u8>], EncodeError> {
        let start = self.pos;
        let end = start.wrapping_add(n);
        // An `end` that wrapped below `start` fails this too.
        if start <= end && end <= self.out.len() {
            self.pos = end;
            let run = &mut self.out[start..end];
            // Debug builds poison the run: a caller that leaves a byte of
            // it unwritten shows `POISON` in tests, not a stale or zero
            // byte that could pass for a right one.
            if cfg!(debug_assertions) {
                uninit::fill(run, POISON);
            }
            Ok(run)
        } else {
            Err(self.error(EncodeErrorKind::BufferTooSmall {
                needed: start.saturating_add(n),
                available: self.out.len(),
            }))
        }
    }

    /// Writes `bytes`.
    #[inline]
    pub fn put(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        uninit::write_slice(self.reserve_uninit(bytes.len())?, bytes);
        Ok(())
    }

    /// Writes one byte.
    #[inline]
    pub fn put_byte(&mut self, byte: u8) -> Result<(), EncodeError> {
        uninit::fill(self.reserve_uninit(1)?, byte);
        Ok(())
    }

    /// Writes `n` copies of `byte`.
    #[inline]
    pub fn put_repeated(&mut self, byte: u8, n: usize) -> Result<(), EncodeError> {
        uninit::fill(self.reserve_uninit(n)?, byte);
        Ok(())
    }

    /// The bytes written since position `start`, for in-place transforms
    /// (inversion for descending order, reversal).
    #[inline]
    pub fn written_since(&mut self, start: usize) -> &mut [u8] {
        let start = start.min(self.pos);
        // SAFETY: `start..pos` is within `..pos`, which has been written.
        unsafe { uninit::assume_init_mut(&mut self.out[start..self.pos]) }
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

    /// Ends a writer [`over_uninit`](KeyWriter::over_uninit) made over the
    /// buffer that starts at `base`, and returns its length: the bytes
    /// before it have been written. A key's encoder is handed `&mut
    /// KeyWriter` and could swap it for a writer over another buffer
    /// (`mem::swap` with `KeyWriter::new` over a leaked one), whose
    /// position says nothing of this one: that is an error. Where the
    /// encoder is inlined, the compiler sees the writer's buffer unchanged
    /// and drops the check.
    #[inline(always)]
    pub(crate) fn finish_over(self, base: *const MaybeUninit<u8>) -> Result<usize, EncodeError> {
        if core::ptr::eq(self.out.as_ptr(), base) {
            Ok(self.pos)
        } else {
            Err(writer_replaced(self.key, self.pos))
        }
    }
}

/// The error of [`KeyWriter::finish_over`], out of line: the check is one
/// comparison on the hot path.
#[cold]
#[inline(never)]
fn writer_replaced(key: &'static str, offset: usize) -> EncodeError {
    EncodeError::new(
        key,
        "",
        offset,
        EncodeErrorKind::Invalid("the key's encoder replaced the KeyWriter it was handed"),
    )
}

/// Every writer error is built here, from plain values (see
/// [`KeyWriter::error`]). Inlined: an out-of-line constructor returns
/// its error through memory, and the compiler, not knowing that the value
/// is an error, would then keep a path on which the read "succeeded" and
/// rejoined the hot path, losing what it knew of the position there. The
/// error paths are marked cold instead.
#[inline(always)]
fn encode_error(
    key: &'static str,
    field: &'static str,
    offset: usize,
    kind: EncodeErrorKind,
) -> EncodeError {
    crate::error::cold_path();
    EncodeError::new(key, field, offset, kind)
}

/// What debug builds fill bytes handed out to be written with (and a
/// fresh [`KeyBuf`](crate::KeyBuf)), so one never written shows in tests.
pub(crate) const POISON: u8 = 0xA5;

#[cfg(test)]
mod tests {
    use super::{KeyWriter, POISON};
    use crate::EncodeErrorKind;

    /// A write path that skips a byte of its run leaves the poison there
    /// in debug builds (this test's own build), visible to every test.
    #[test]
    #[cfg(debug_assertions)]
    fn a_byte_never_written_shows_as_poison() {
        let mut out = [0u8; 8];
        let mut w = KeyWriter::new(&mut out, "K");
        let run = w.reserve_uninit(4).unwrap();
        for b in &mut run[..3] {
            b.write(7);
        }
        assert_eq!(w.written_since(0), [7, 7, 7, POISON]);
        let buf = crate::KeyBuf::<4>::new();
        assert!(buf.raw_for_test().iter().all(|&b| b == POISON));
    }

    #[test]
    fn reserved_bytes_are_zeroed_with_or_without_room_for_a_wide_store() {
        for size in [5usize, 40] {
            let mut out = vec![0xEEu8; size];
            let mut w = KeyWriter::new(&mut out, "K");
            w.put(b"ab").unwrap();
            assert_eq!(w.reserve(3).unwrap(), [0, 0, 0], "buffer of {size}");
            assert_eq!(w.written_since(0), b"ab\0\0\0");
            let end = w.finish();
            assert_eq!(&out[..end], b"ab\0\0\0");
        }
    }

    #[test]
    fn running_out_of_room_is_an_error_not_a_wrap() {
        let mut out = [0u8; 4];
        let mut w = KeyWriter::new(&mut out, "K");
        w.put_byte(1).unwrap();
        let err = w.reserve(usize::MAX).unwrap_err();
        assert_eq!(
            err.kind(),
            EncodeErrorKind::BufferTooSmall {
                needed: usize::MAX,
                available: 4
            }
        );
        assert!(w.put_repeated(7, 4).is_err());
        w.put_repeated(7, 3).unwrap();
        assert_eq!(w.finish(), 4);
        assert_eq!(out, [1, 7, 7, 7]);
    }
}
