//! [`AbsorbStep`]: the stub step a derive emits when its input has errors
//! (thiserror's `fallback.rs` model): every finisher type-checks whatever
//! it is given, so code using the key adds no follow-on errors. It never
//! runs: the crate does not compile while the real errors stand.

use super::ScanPlan;
use crate::EncodeError;
use core::marker::PhantomData;

/// A step that accepts any call. Generated code only.
#[doc(hidden)]
pub struct AbsorbStep<S>(PhantomData<fn() -> S>);

impl<S> Default for AbsorbStep<S> {
    fn default() -> Self {
        AbsorbStep(PhantomData)
    }
}

#[allow(missing_docs, clippy::should_implement_trait)]
impl<S> AbsorbStep<S> {
    pub fn eq<T>(self, _: T) -> S {
        unimplemented!()
    }
    pub fn is_in<T>(self, _: T) -> S {
        unimplemented!()
    }
    pub fn any(self) -> S {
        unimplemented!()
    }
    pub fn starts_with<T>(self, _: T) -> Result<ScanPlan<1>, EncodeError> {
        unimplemented!()
    }
    pub fn range<T>(self, _: T) -> Result<ScanPlan<1>, EncodeError> {
        unimplemented!()
    }
    pub fn between<T, U>(self, _: T, _: U) -> Result<ScanPlan<1>, EncodeError> {
        unimplemented!()
    }
    pub fn since<T>(self, _: T) -> Result<ScanPlan<1>, EncodeError> {
        unimplemented!()
    }
    pub fn until<T>(self, _: T) -> Result<ScanPlan<1>, EncodeError> {
        unimplemented!()
    }
    pub fn latest<T>(self, _: T) -> Result<ScanPlan<1>, EncodeError> {
        unimplemented!()
    }
}
