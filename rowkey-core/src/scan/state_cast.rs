//! The scan states' `unsafe` (the crate's other one is `uninit.rs`): a
//! state struct the derive generates *is* its one step, so the typed scan
//! builds it from a step and reads the query back without a function per
//! state. Each of those functions would be a body for the compiler to
//! check in every crate that defines keys: one per key field.
//!
//! The argument: `ScanField` is an `unsafe trait` whose contract is that
//! the implementing struct is `#[repr(transparent)]` with exactly one
//! field, of type `Self::StepField`, and every function here requires
//! `StepField` to be a `Step<Self, K, N, M, Mode>` of this crate. Only the derive implements it, on the structs it emits
//! with that attribute and that field, naming the field's type in
//! `StepField` with the same tokens: a crate path that leads to another
//! `Step` (`#[rowkey(crate = "..")]`) fails that bound instead of
//! reaching these casts. The same tokens name the same type only if they
//! resolve alike: the structs are at module level, the impls inside the
//! derive's `const _` block, which adds one name, `__rk` (rowkey's
//! `__private`), so the derive refuses a crate path that starts with
//! `__rk` (`tests/ui/crate_path_rk.rs`: such a path once reached these
//! casts with a foreign `Step` of the same size, and read one as the
//! other). `repr(transparent)` gives the struct the layout and ABI of
//! that field, so a value of one is a value of the other, and a reference
//! to one is a reference to the other. The sizes and alignments are also
//! checked at compile time.
//!
//! # What it buys
//!
//! Compile time of every crate that defines keys, and nothing at run time.
//! The safe version (`bench-tools/unsafe-ab/safe-scan-states.patch`,
//! redone for the six-item `ScanField` of 7da1a2f): a safe `ScanField`
//! with `from_step`, `step_query` and `step_query_mut`, which the derive
//! implements on each state as `Self { field: step }`,
//! `self.field.__query()` and `self.field.__query_mut()`, no
//! `repr(transparent)`, and this module gone. Kept because the gap is
//! beyond the noise of the measure (two runs of this tree against each
//! other: median CPU ratio 0.99, pairs 0.95 to 1.06).
//!
//! The 200 structs of `bench-tools/compile.sh` (derives only), a debug
//! touch-rebuild, CPU seconds (user + sys), median of 5 runs alternating
//! with serde's:
//!
//! ```sh
//! SKIP_EXPAND=1 bash bench-tools/compile.sh -r 5
//! git apply bench-tools/unsafe-ab/safe-scan-states.patch
//! SKIP_EXPAND=1 bash bench-tools/compile.sh -r 5
//! ```
//!
//! At 6c6bfc9 (2026-11-26), one run of each, back to back:
//!
//! | build | casts (this) | safe | serde |
//! | --- | ---: | ---: | ---: |
//! | `CARGO_INCREMENTAL=0` | 3.19 s (1.09x serde) | 3.81 s (1.31x serde) | 2.91 / 2.92 s |
//! | incremental | 1.50 s (1.52x serde) | 1.79 s (1.87x serde) | 0.99 / 0.96 s |
//!
//! Earlier, with the twelve-item `ScanField`:
//!
//! | build | casts (this) | safe | serde |
//! | --- | ---: | ---: | ---: |
//! | `CARGO_INCREMENTAL=0` | 3.31 s (0.88x serde) | 4.30 s (1.14x serde) | 3.76 / 3.78 s |
//! | incremental | 1.58 s (1.53x serde) | 1.96 s (1.74x serde) | 1.03 / 1.13 s |
//!
//! The same crate built against each tree in turn, ten pairs, whole-process
//! CPU seconds, median: `CARGO_INCREMENTAL=0` 3.47 s against 4.27 s (ratio
//! 0.80, pairs 0.75 to 0.87), incremental 1.77 s against 2.04 s (0.87).
//! Even one body per state (`from_step` alone, the least a safe version
//! needs: 3.39 s against 3.65 s, 0.93) costs more than the noise. A crate
//! whose 200 keys are also scanned, twice each (on the first field, and
//! through every field, to `plan()`), builds in 30.1 s against 30.2 s
//! without incremental compilation (1.01, within noise: the scans' own
//! code dominates) and 2.94 s against 3.13 s with it (0.93). The callgrind scan cases (`bash bench-tools/callgrind.sh
//! scan`) run the same instructions either way, 1,139 and 1,255.

use super::{ScanField, ScanQuery, Step};
use core::mem::{align_of, size_of, ManuallyDrop};

/// Checked when a cast is compiled: `T` and its step have one size and
/// alignment (as `repr(transparent)` promises).
#[inline(always)]
fn same_layout<T, K, Mo, const N: usize, const M: usize>() {
    const {
        assert!(size_of::<T>() == size_of::<Step<T, K, N, M, Mo>>());
        assert!(align_of::<T>() == align_of::<Step<T, K, N, M, Mo>>());
    }
}

/// The state struct `T` whose one field is `step`.
#[inline]
pub(super) fn into_state<T, K, Mo, const N: usize, const M: usize>(step: Step<T, K, N, M, Mo>) -> T
where
    T: ScanField<N, M, StepField = Step<T, K, N, M, Mo>>,
{
    same_layout::<T, K, Mo, N, M>();
    let step = ManuallyDrop::new(step);
    // SAFETY: `T` is `#[repr(transparent)]` over its `Step` (the module's
    // argument), so the step's bytes are a valid `T`. The step is not
    // dropped (`ManuallyDrop`): its ownership moves into the `T`.
    unsafe { core::ptr::read((&*step as *const Step<T, K, N, M, Mo>).cast::<T>()) }
}

/// The query of the step `state` is.
///
/// Read through raw pointers, never as a reference to the step: a
/// `&Step<T, K, ..>` would need the key type `K` (which may borrow, like
/// `Spend<'a>`) to outlive the borrow of `state`, which the state alone
/// cannot promise.
#[inline]
pub(super) fn query_of<T, K, Mo, const N: usize, const M: usize>(state: &T) -> &ScanQuery<N, M>
where
    T: ScanField<N, M, StepField = Step<T, K, N, M, Mo>>,
{
    same_layout::<T, K, Mo, N, M>();
    let step = (state as *const T).cast::<Step<T, K, N, M, Mo>>();
    // SAFETY: as in `into_state`, a `T` is its `Step`, so `step` points at
    // a live step for as long as `state` is borrowed; the reference keeps
    // that borrow.
    unsafe { &*core::ptr::addr_of!((*step).q) }
}

/// The query of the step `state` is, to change.
#[inline]
pub(super) fn query_of_mut<T, K, Mo, const N: usize, const M: usize>(
    state: &mut T,
) -> &mut ScanQuery<N, M>
where
    T: ScanField<N, M, StepField = Step<T, K, N, M, Mo>>,
{
    same_layout::<T, K, Mo, N, M>();
    let step = (state as *mut T).cast::<Step<T, K, N, M, Mo>>();
    // SAFETY: as in `query_of`, with the unique borrow of `state`.
    unsafe { &mut *core::ptr::addr_of_mut!((*step).q) }
}
