//! The scan states' `unsafe` (the crate's other one is `uninit.rs`): a
//! state struct the derive generates *is* its one step, so the typed scan
//! builds it from a step and reads the query back without a function per
//! state. Each of those functions would be a body for the compiler to
//! check in every crate that defines keys: one per key field.
//!
//! The argument: `ScanField` is an `unsafe trait` whose contract is that
//! the implementing struct is `#[repr(transparent)]` with exactly one
//! field, of type `Self::StepField`, and every function here requires
//! `StepField` to be `Step<Self, Self::Key, N, M, Self::Mode>` (`StepIn`)
//! of this crate. Only the derive implements it, on the structs it emits
//! with that attribute and that field, naming the field's type in
//! `StepField` with the same tokens: a crate path that leads to another
//! `Step` (`#[rowkey(crate = "..")]`) fails that bound instead of
//! reaching these casts. `repr(transparent)` gives the struct the
//! layout and ABI of that field, so a value of one is a value of the
//! other, and a reference to one is a reference to the other. The sizes
//! and alignments are also checked at compile time.

use super::step::StepIn;
use super::ScanField;
use core::mem::{align_of, size_of, ManuallyDrop};

/// Checked when a cast is compiled: `T` and its step have one size and
/// alignment (as `repr(transparent)` promises).
#[inline(always)]
fn same_layout<T: ScanField<N, M>, const N: usize, const M: usize>() {
    const {
        assert!(size_of::<T>() == size_of::<StepIn<T, N, M>>());
        assert!(align_of::<T>() == align_of::<StepIn<T, N, M>>());
    }
}

/// The state struct `T` whose one field is `step`.
#[inline]
pub(super) fn into_state<T, const N: usize, const M: usize>(step: StepIn<T, N, M>) -> T
where
    T: ScanField<N, M, StepField = StepIn<T, N, M>>,
{
    same_layout::<T, N, M>();
    let step = ManuallyDrop::new(step);
    // SAFETY: `T` is `#[repr(transparent)]` over `StepIn<T, N, M>` (the
    // module's argument), so the step's bytes are a valid `T`. The step is
    // not dropped (`ManuallyDrop`): its ownership moves into the `T`.
    unsafe { core::ptr::read((&*step as *const StepIn<T, N, M>).cast::<T>()) }
}

/// The step state `state` is.
#[inline]
pub(super) fn step_of<T, const N: usize, const M: usize>(state: &T) -> &StepIn<T, N, M>
where
    T: ScanField<N, M, StepField = StepIn<T, N, M>>,
{
    same_layout::<T, N, M>();
    // SAFETY: as in `into_state`, a `T` is a `StepIn<T, N, M>`; the
    // reference keeps `state`'s lifetime and shared borrow.
    unsafe { &*(state as *const T).cast::<StepIn<T, N, M>>() }
}

/// The step state `state` is, to change.
#[inline]
pub(super) fn step_of_mut<T, const N: usize, const M: usize>(state: &mut T) -> &mut StepIn<T, N, M>
where
    T: ScanField<N, M, StepField = StepIn<T, N, M>>,
{
    same_layout::<T, N, M>();
    // SAFETY: as in `step_of`, with the unique borrow of `state`.
    unsafe { &mut *(state as *mut T).cast::<StepIn<T, N, M>>() }
}
