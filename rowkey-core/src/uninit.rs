//! The `unsafe` of the key buffers: this module and its two callers,
//! `buf.rs` and `writer.rs`, which hold the invariant below (the crate's
//! other `unsafe`, the scan-state casts, is `scan/state_cast.rs` with
//! the `ScanField` trait of `scan/step.rs`). Viewing bytes of a key buffer that are
//! known to be written as `[u8]`, so [`KeyBuf`](crate::KeyBuf) and
//! [`KeyWriter`](crate::KeyWriter) need not zero a buffer before writing
//! a key into it.
//!
//! Both types keep one invariant: the bytes before their length (`len`,
//! `pos`) have been written. They only grow that length over bytes they
//! have just written (`MaybeUninit::write`, or a fill of zeros first when
//! handing out a `&mut [u8]` to write into), and never write an
//! uninitialised value, so the views below only ever cover written bytes.

use core::mem::MaybeUninit;

/// `bytes` as `[u8]`.
///
/// # Safety
/// Every byte of `bytes` has been written.
#[inline(always)]
pub(crate) unsafe fn assume_init(bytes: &[MaybeUninit<u8>]) -> &[u8] {
    // SAFETY: `MaybeUninit<u8>` has the layout of `u8`, and the caller
    // guarantees every byte is initialised.
    unsafe { &*(bytes as *const [MaybeUninit<u8>] as *const [u8]) }
}

/// `bytes` as `mut [u8]`.
///
/// # Safety
/// Every byte of `bytes` has been written.
#[inline(always)]
pub(crate) unsafe fn assume_init_mut(bytes: &mut [MaybeUninit<u8>]) -> &mut [u8] {
    // SAFETY: as `assume_init`; a `&mut [u8]` can only write initialised
    // bytes back, so the bytes stay initialised.
    unsafe { &mut *(bytes as *mut [MaybeUninit<u8>] as *mut [u8]) }
}

/// Initialised bytes, to be written through as possibly uninitialised.
///
/// # Safety
/// Nothing may store an uninitialised value through the result (the
/// crate's writers only `MaybeUninit::write` real bytes), so the caller's
/// `[u8]` is still fully initialised when the borrow ends.
#[inline(always)]
pub(crate) unsafe fn as_uninit_mut(bytes: &mut [u8]) -> &mut [MaybeUninit<u8>] {
    // SAFETY: same layout, and every `u8` is a valid `MaybeUninit<u8>`;
    // the caller upholds the one remaining condition above.
    unsafe { &mut *(bytes as *mut [u8] as *mut [MaybeUninit<u8>]) }
}

/// Writes `src` to `dst` (of the same length).
#[inline(always)]
pub(crate) fn write_slice(dst: &mut [MaybeUninit<u8>], src: &[u8]) {
    // SAFETY: same layout, and every `u8` is a valid `MaybeUninit<u8>`;
    // the view is shared, so nothing can write through it.
    let src = unsafe { &*(src as *const [u8] as *const [MaybeUninit<u8>]) };
    dst.copy_from_slice(src);
}

/// Writes `byte` to every byte of `dst`.
#[inline(always)]
pub(crate) fn fill(dst: &mut [MaybeUninit<u8>], byte: u8) {
    dst.fill(MaybeUninit::new(byte));
}
