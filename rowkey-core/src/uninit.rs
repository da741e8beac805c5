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
//!
//! A `KeyBuf` takes its length from the position of the writer it made,
//! after handing the encoder `&mut KeyWriter`. The encoder could swap that
//! writer for another (`mem::swap` with `KeyWriter::new` over a leaked
//! buffer, all safe code), whose position says nothing of this buffer:
//! `KeyWriter::finish_over` takes the position only from a writer still
//! over the buffer, and is an error otherwise (a test in `buf.rs`). Its
//! comparison costs Spend's encode one instruction and the salted scan
//! below 21; elsewhere the compiler drops it.
//!
//! # What it buys
//!
//! Kept because it measured a gain over the safe version beyond the
//! threshold (2% of a layout's instructions per op: the counts are exact,
//! so 2% is a choice of what is worth an `unsafe`, not noise). The safe
//! version: `KeyBuf` holds `[u8; N]`, zeroed in `new` (poisoned in debug
//! builds, as here), and `KeyWriter` writes through `&mut [u8]`, `reserve`
//! zeroing as it does here; the patch that makes it is
//! `bench-tools/unsafe-ab/safe-key-buffers.patch`. The same command on
//! both trees (release, rustc 1.95.0), instructions per op:
//!
//! ```sh
//! bash bench-tools/callgrind.sh -j 2
//! git apply bench-tools/unsafe-ab/safe-key-buffers.patch
//! CARGO_TARGET_DIR=target-bench-safe bash bench-tools/callgrind.sh -j 2
//! ```
//!
//! | case | `MaybeUninit` (this) | zeroed `[u8; N]` |
//! | --- | ---: | ---: |
//! | Spend encode (`to_key`) | 76 | 78 (+2.6%) |
//! | CallRecord encode | 165 | 182 (+10.3%) |
//! | CallRecord, salted, encode | 293 | 294 (+0.3%) |
//! | Event encode | 196 | 203 (+3.6%) |
//! | 2 / 4 / 8 / 16 x u64 encode | 11 / 17 / 32 / 63 | the same |
//! | every decode, `merge_sorted` | | the same |
//! | Spend scan (`scan()..latest(1)`) | 1,139 | 1,146 (+0.6%) |
//! | CallRecord, salted, scan (`since`) | 1,255 | 1,242 (-1.0%) |
//!
//! The u64 keys write every byte of a fixed-length buffer, so the zeroing
//! is dead and removed. Event's key is variable-length: the zeroed tail is
//! real stores. CallRecord (fixed 28 bytes, all written) loses 17
//! instructions anyway: the disassembly holds no zeroing stores; LLVM,
//! knowing the buffer's bytes, combines the digit stores differently. A
//! compiler upgrade can move that one; re-measure with the commands above.

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
