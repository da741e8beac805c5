//! [`PhoenixValue`]: the Rust types a Phoenix column's value can be, and
//! each one's bytes in the types it holds (the ascending form: a cell's
//! bytes, and a key's before a DESC column inverts them).

use super::number::{
    canonical_double, canonical_float, double_bytes, double_from, float_bytes, float_from,
    java_double_bits, java_float_bits,
};
use super::{PhoenixTimestamp, PhoenixType};
use crate::error::{DecodeErrorKind, EncodeErrorKind};

/// A Rust type a Phoenix column's value can be: its bytes in each Phoenix
/// type it holds ([`HOLDS`](Self::HOLDS)), written and read in their
/// ascending form.
///
/// | Rust | Phoenix |
/// | --- | --- |
/// | `String` | `VARCHAR`, `CHAR(n)` |
/// | `Vec<u8>` | `VARBINARY`, `BINARY(n)` |
/// | `i8`, `i16`, `i32` | `TINYINT`, `SMALLINT`, `INTEGER` |
/// | `i64` | `BIGINT`; `DATE`, `TIME` (milliseconds) |
/// | `u8`, `u16`, `u32` | `UNSIGNED_TINYINT`, `UNSIGNED_SMALLINT`, `UNSIGNED_INT` |
/// | `u64` | `UNSIGNED_LONG`; `UNSIGNED_DATE`, `UNSIGNED_TIME` |
/// | `f32`, `f64` | `FLOAT`, `DOUBLE` and their `UNSIGNED_` forms |
/// | `bool` | `BOOLEAN` |
/// | [`PhoenixTimestamp`] | `TIMESTAMP`, `UNSIGNED_TIMESTAMP` |
/// | `rust_decimal::Decimal` (feature `rust_decimal`) | `DECIMAL`, `DECIMAL(p,s)` |
/// | `Option<T>` | what `T` holds, NULL as `None` |
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a Phoenix column type",
    label = "not a type a Phoenix column holds",
    note = "a Phoenix column is String, Vec<u8>, i8..i64, u8..u64, f32, f64, bool, PhoenixTimestamp or rust_decimal::Decimal (or an Option of one)"
)]
pub trait PhoenixValue: Sized {
    /// The Phoenix types the Rust type holds: [`PhoenixType::bit`]s.
    const HOLDS: u32;

    /// Whether the value is SQL NULL (`None`).
    fn is_null(&self) -> bool {
        false
    }

    /// Bytes of the value as `ty`, for a value [`check`](Self::check)
    /// accepts.
    fn phoenix_len(&self, ty: &PhoenixType) -> usize;

    /// Why the value has no bytes as `ty`, if it has none: out of the
    /// type's range, too long, a character Phoenix cannot store there.
    fn check(&self, ty: &PhoenixType) -> Result<(), EncodeErrorKind>;

    /// Appends the value's bytes as `ty` (ascending form) to `out`, for
    /// a value [`check`](Self::check) accepts.
    fn put_phoenix(&self, ty: &PhoenixType, out: &mut dyn FnMut(&[u8]));

    /// The value of `bytes` (ascending form) as `ty`; `None` is NULL.
    fn from_phoenix(bytes: Option<&[u8]>, ty: &PhoenixType) -> Result<Self, DecodeErrorKind>;
}

/// Why a non-`Option` field cannot take a NULL.
const NOT_NULL: DecodeErrorKind =
    DecodeErrorKind::Invalid("the column is NULL here: make the field an Option");

/// A value the Rust type does not hold as this Phoenix type: the derive
/// refuses such a pairing at compile time, the interpreter before writing.
const NOT_HELD: &str = "this Rust type does not hold that Phoenix type";

fn exact<const N: usize>(bytes: &[u8]) -> Result<[u8; N], DecodeErrorKind> {
    bytes
        .try_into()
        .map_err(|_| DecodeErrorKind::Invalid("a Phoenix value of the wrong width"))
}

macro_rules! signed {
    ($($t:ty => $ty:ident),*) => {$(
        impl PhoenixValue for $t {
            const HOLDS: u32 = PhoenixType::$ty.bit();
            fn phoenix_len(&self, _: &PhoenixType) -> usize {
                core::mem::size_of::<$t>()
            }
            fn check(&self, ty: &PhoenixType) -> Result<(), EncodeErrorKind> {
                match ty {
                    PhoenixType::$ty => Ok(()),
                    _ => Err(EncodeErrorKind::Invalid(NOT_HELD)),
                }
            }
            fn put_phoenix(&self, _: &PhoenixType, out: &mut dyn FnMut(&[u8])) {
                let mut b = self.to_be_bytes();
                b[0] ^= 0x80;
                out(&b);
            }
            fn from_phoenix(bytes: Option<&[u8]>, _: &PhoenixType) -> Result<Self, DecodeErrorKind> {
                let mut b = exact(bytes.ok_or(NOT_NULL)?)?;
                b[0] ^= 0x80;
                Ok(<$t>::from_be_bytes(b))
            }
        }
    )*};
}

signed!(i8 => TinyInt, i16 => SmallInt, i32 => Integer);

macro_rules! unsigned {
    ($($t:ty => $ty:ident),*) => {$(
        impl PhoenixValue for $t {
            const HOLDS: u32 = PhoenixType::$ty.bit();
            fn phoenix_len(&self, _: &PhoenixType) -> usize {
                core::mem::size_of::<$t>()
            }
            fn check(&self, ty: &PhoenixType) -> Result<(), EncodeErrorKind> {
                match ty {
                    // Java's signed type holds it: the top bit is clear.
                    PhoenixType::$ty if *self >> (<$t>::BITS - 1) == 0 => Ok(()),
                    PhoenixType::$ty => Err(EncodeErrorKind::Invalid(concat!(
                        stringify!($ty), " holds what Java's signed type does: the top bit must be 0"
                    ))),
                    _ => Err(EncodeErrorKind::Invalid(NOT_HELD)),
                }
            }
            fn put_phoenix(&self, _: &PhoenixType, out: &mut dyn FnMut(&[u8])) {
                out(&self.to_be_bytes());
            }
            fn from_phoenix(bytes: Option<&[u8]>, _: &PhoenixType) -> Result<Self, DecodeErrorKind> {
                let v = <$t>::from_be_bytes(exact(bytes.ok_or(NOT_NULL)?)?);
                if v >> (<$t>::BITS - 1) != 0 {
                    return Err(DecodeErrorKind::Invalid("an unsigned Phoenix value with its top bit set"));
                }
                Ok(v)
            }
        }
    )*};
}

unsigned!(u8 => UnsignedTinyInt, u16 => UnsignedSmallInt, u32 => UnsignedInt);

impl PhoenixValue for i64 {
    const HOLDS: u32 =
        PhoenixType::BigInt.bit() | PhoenixType::Date.bit() | PhoenixType::Time.bit();
    fn phoenix_len(&self, _: &PhoenixType) -> usize {
        8
    }
    fn check(&self, ty: &PhoenixType) -> Result<(), EncodeErrorKind> {
        match ty {
            PhoenixType::BigInt | PhoenixType::Date | PhoenixType::Time => Ok(()),
            _ => Err(EncodeErrorKind::Invalid(NOT_HELD)),
        }
    }
    fn put_phoenix(&self, _: &PhoenixType, out: &mut dyn FnMut(&[u8])) {
        out(&((*self as u64) ^ (1 << 63)).to_be_bytes());
    }
    fn from_phoenix(bytes: Option<&[u8]>, _: &PhoenixType) -> Result<Self, DecodeErrorKind> {
        Ok((u64::from_be_bytes(exact(bytes.ok_or(NOT_NULL)?)?) ^ (1 << 63)) as i64)
    }
}

impl PhoenixValue for u64 {
    const HOLDS: u32 = PhoenixType::UnsignedLong.bit()
        | PhoenixType::UnsignedDate.bit()
        | PhoenixType::UnsignedTime.bit();
    fn phoenix_len(&self, _: &PhoenixType) -> usize {
        8
    }
    fn check(&self, ty: &PhoenixType) -> Result<(), EncodeErrorKind> {
        match ty {
            PhoenixType::UnsignedLong | PhoenixType::UnsignedDate | PhoenixType::UnsignedTime
                if *self <= i64::MAX as u64 =>
            {
                Ok(())
            }
            PhoenixType::UnsignedLong | PhoenixType::UnsignedDate | PhoenixType::UnsignedTime => {
                Err(EncodeErrorKind::Invalid(
                    "an unsigned Phoenix long holds 0..=i64::MAX (Java's long)",
                ))
            }
            _ => Err(EncodeErrorKind::Invalid(NOT_HELD)),
        }
    }
    fn put_phoenix(&self, _: &PhoenixType, out: &mut dyn FnMut(&[u8])) {
        out(&self.to_be_bytes());
    }
    fn from_phoenix(bytes: Option<&[u8]>, _: &PhoenixType) -> Result<Self, DecodeErrorKind> {
        let v = u64::from_be_bytes(exact(bytes.ok_or(NOT_NULL)?)?);
        if v > i64::MAX as u64 {
            return Err(DecodeErrorKind::Invalid(
                "an unsigned Phoenix long with its top bit set",
            ));
        }
        Ok(v)
    }
}

/// `f64` and `f32`: `DOUBLE`/`FLOAT` in Phoenix's ordered form, and
/// `UNSIGNED_DOUBLE`/`UNSIGNED_FLOAT` as Java's bits of a value not below
/// 0 (Phoenix's own test, `v < 0`, lets -0.0 and NaN through).
/// `UNSIGNED_FLOAT` keeps a NaN's own bits (`floatToRawIntBits`), so only
/// Java's one NaN reads back as written (`raw_nan`); `UNSIGNED_DOUBLE`
/// writes `doubleToLongBits`, one NaN for all.
macro_rules! float {
    ($t:ty, $bits:ty, $signed:ident, $unsigned:ident, $java:ident, $to:ident, $from:ident,
     $canonical:ident, $raw_nan:expr, $below:expr, $bad_nan:expr, $read_below:expr) => {
        impl PhoenixValue for $t {
            const HOLDS: u32 = PhoenixType::$signed.bit() | PhoenixType::$unsigned.bit();
            fn phoenix_len(&self, _: &PhoenixType) -> usize {
                core::mem::size_of::<$t>()
            }
            fn check(&self, ty: &PhoenixType) -> Result<(), EncodeErrorKind> {
                match ty {
                    PhoenixType::$signed => Ok(()),
                    PhoenixType::$unsigned if *self < 0.0 => Err(EncodeErrorKind::Invalid($below)),
                    PhoenixType::$unsigned if $raw_nan && !$canonical(*self) => {
                        Err(EncodeErrorKind::Invalid($bad_nan))
                    }
                    PhoenixType::$unsigned => Ok(()),
                    _ => Err(EncodeErrorKind::Invalid(NOT_HELD)),
                }
            }
            fn put_phoenix(&self, ty: &PhoenixType, out: &mut dyn FnMut(&[u8])) {
                match ty {
                    PhoenixType::$unsigned => out(&$java(*self).to_be_bytes()),
                    _ => out(&$to(*self)),
                }
            }
            fn from_phoenix(
                bytes: Option<&[u8]>,
                ty: &PhoenixType,
            ) -> Result<Self, DecodeErrorKind> {
                let b = exact(bytes.ok_or(NOT_NULL)?)?;
                let v = match ty {
                    PhoenixType::$unsigned => <$t>::from_bits(<$bits>::from_be_bytes(b)),
                    _ => $from(b),
                };
                if !$canonical(v) {
                    return Err(DecodeErrorKind::Invalid(
                        "a NaN Phoenix never writes (Java writes one NaN)",
                    ));
                }
                if matches!(ty, PhoenixType::$unsigned) && v < 0.0 {
                    return Err(DecodeErrorKind::Invalid($read_below));
                }
                Ok(v)
            }
        }
    };
}

float!(
    f64,
    u64,
    Double,
    UnsignedDouble,
    java_double_bits,
    double_bytes,
    double_from,
    canonical_double,
    false,
    "UNSIGNED_DOUBLE holds no value below 0",
    "",
    "an UNSIGNED_DOUBLE below 0"
);
float!(
    f32,
    u32,
    Float,
    UnsignedFloat,
    java_float_bits,
    float_bytes,
    float_from,
    canonical_float,
    true,
    "UNSIGNED_FLOAT holds no value below 0",
    "a NaN other than Java's Float.NaN",
    "an UNSIGNED_FLOAT below 0"
);

impl PhoenixValue for bool {
    const HOLDS: u32 = PhoenixType::Boolean.bit();
    fn phoenix_len(&self, _: &PhoenixType) -> usize {
        1
    }
    fn check(&self, ty: &PhoenixType) -> Result<(), EncodeErrorKind> {
        match ty {
            PhoenixType::Boolean => Ok(()),
            _ => Err(EncodeErrorKind::Invalid(NOT_HELD)),
        }
    }
    fn put_phoenix(&self, _: &PhoenixType, out: &mut dyn FnMut(&[u8])) {
        out(&[u8::from(*self)]);
    }
    fn from_phoenix(bytes: Option<&[u8]>, _: &PhoenixType) -> Result<Self, DecodeErrorKind> {
        match bytes.ok_or(NOT_NULL)? {
            [0] => Ok(false),
            [1] => Ok(true),
            _ => Err(DecodeErrorKind::Invalid("a BOOLEAN is 00 or 01")),
        }
    }
}

impl PhoenixValue for PhoenixTimestamp {
    const HOLDS: u32 = PhoenixType::Timestamp.bit() | PhoenixType::UnsignedTimestamp.bit();
    fn phoenix_len(&self, _: &PhoenixType) -> usize {
        12
    }
    fn check(&self, ty: &PhoenixType) -> Result<(), EncodeErrorKind> {
        match ty {
            PhoenixType::Timestamp => Ok(()),
            PhoenixType::UnsignedTimestamp if self.millis() >= 0 => Ok(()),
            PhoenixType::UnsignedTimestamp => Err(EncodeErrorKind::Invalid(
                "UNSIGNED_TIMESTAMP holds nothing before the epoch",
            )),
            _ => Err(EncodeErrorKind::Invalid(NOT_HELD)),
        }
    }
    fn put_phoenix(&self, ty: &PhoenixType, out: &mut dyn FnMut(&[u8])) {
        out(&self.bytes(matches!(ty, PhoenixType::UnsignedTimestamp)));
    }
    fn from_phoenix(bytes: Option<&[u8]>, ty: &PhoenixType) -> Result<Self, DecodeErrorKind> {
        let b = exact(bytes.ok_or(NOT_NULL)?)?;
        PhoenixTimestamp::from_bytes(b, matches!(ty, PhoenixType::UnsignedTimestamp))
            .map_err(DecodeErrorKind::Invalid)
    }
}

impl<T: PhoenixValue> PhoenixValue for Option<T> {
    const HOLDS: u32 = T::HOLDS;
    fn is_null(&self) -> bool {
        self.is_none()
    }
    fn phoenix_len(&self, ty: &PhoenixType) -> usize {
        self.as_ref().map_or(0, |v| v.phoenix_len(ty))
    }
    fn check(&self, ty: &PhoenixType) -> Result<(), EncodeErrorKind> {
        self.as_ref().map_or(Ok(()), |v| v.check(ty))
    }
    fn put_phoenix(&self, ty: &PhoenixType, out: &mut dyn FnMut(&[u8])) {
        if let Some(v) = self {
            v.put_phoenix(ty, out);
        }
    }
    fn from_phoenix(bytes: Option<&[u8]>, ty: &PhoenixType) -> Result<Self, DecodeErrorKind> {
        bytes.map(|b| T::from_phoenix(Some(b), ty)).transpose()
    }
}
