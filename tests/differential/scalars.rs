//! The other binary parts: floats, `bool`, `char`, `[u8; N]`, `()`,
//! `#[derive(KeyPart)]` enums and newtypes (nested, and over an
//! `Option`), UUIDs binary and `#[text]`, decimals binary and
//! `#[text(width, scale)]`, a hand-written `KeyPart`; `#[desc]` on each
//! that takes it (fixed-width parts: `#[desc]` on a `Decimal` does not
//! compile); and `Option<T>` of several.

use crate::person::Person;
use crate::values::{chars, edges, f32s, f64s, int};
use proptest::prelude::*;
use proptest::sample::select;
use rowkey::{DecodeError, DecodePart, EncodeError, KeyPart, KeyReader, KeyWriter};
use rust_decimal::Decimal;
use uuid::Uuid;

#[derive(KeyPart, Debug, Clone, Copy, PartialEq)]
pub enum Tri {
    Low,
    Mid,
    High,
}

/// A newtype over an integer, one over it (nested), one over an enum and
/// one over an `Option`.
#[derive(KeyPart, Debug, Clone, Copy, PartialEq)]
pub struct Id(pub u32);
#[derive(KeyPart, Debug, Clone, Copy, PartialEq)]
pub struct Outer(pub Id);
#[derive(KeyPart, Debug, Clone, Copy, PartialEq)]
pub struct Level(pub Tri);
#[derive(KeyPart, Debug, Clone, Copy, PartialEq)]
pub struct MaybeId(pub Option<i16>);

impl Person for Tri {
    fn person(&self) -> String {
        format!("{self:?}")
    }
}
impl Person for Id {
    fn person(&self) -> String {
        self.0.person()
    }
}
impl Person for Outer {
    fn person(&self) -> String {
        self.0.person()
    }
}
impl Person for Level {
    fn person(&self) -> String {
        self.0.person()
    }
}
impl Person for MaybeId {
    fn person(&self) -> String {
        self.0.person()
    }
}

/// A hand-written part: two bytes, the first of them even (the values
/// generated are). Tools see
/// only its bytes (`ValueKind::Opaque`), so they cannot refuse an odd
/// first byte: the one refusal the harness lets the derived code make
/// alone.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Even(pub [u8; 2]);

impl KeyPart for Even {
    const MAX_LEN: usize = 2;
    const FIXED_LEN: Option<usize> = Some(2);
    fn encoded_len(&self) -> usize {
        2
    }
    fn encode(&self, w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
        w.put(&self.0)
    }
}

impl<'de> DecodePart<'de> for Even {
    fn decode(r: &mut KeyReader<'de>) -> Result<Self, DecodeError> {
        let at = r.position();
        let b: [u8; 2] = r.take_array()?;
        if b[0] % 2 == 1 {
            return Err(r.error_at(at, rowkey::DecodeErrorKind::Invalid("odd")));
        }
        Ok(Even(b))
    }
}

impl Person for Even {
    fn person(&self) -> String {
        format!("0x{:02X}{:02X}", self.0[0], self.0[1])
    }
}

pub fn tri() -> impl Strategy<Value = Tri> {
    select(vec![Tri::Low, Tri::Mid, Tri::High])
}

fn arrays<const N: usize>() -> BoxedStrategy<[u8; N]> {
    let b = prop_oneof![select(vec![0u8, 1, 0xFF, b'0', b'x', b'\\']), any::<u8>()];
    prop_oneof![
        1 => Just([0u8; N]),
        1 => Just([0xFF; N]),
        4 => proptest::collection::vec(b, N).prop_map(|v| v.try_into().unwrap()),
    ]
    .boxed()
}

pub fn uuids() -> BoxedStrategy<Uuid> {
    edges(vec![
        0u128,
        u128::MAX,
        0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8,
    ])
    .prop_map(Uuid::from_u128)
    .boxed()
}

/// Decimals of every scale, with the largest mantissa and values that
/// normalise (`1.50`).
pub fn decimals() -> BoxedStrategy<Decimal> {
    let max = (1i128 << 96) - 1;
    let mantissa = prop_oneof![
        select(vec![0i128, 1, -1, 150, -150, max, -max, 10i128.pow(27)]),
        any::<i64>().prop_map(i128::from),
        -max..=max,
    ];
    (mantissa, prop_oneof![0u32..4, 0u32..=28])
        .prop_map(|(m, s)| Decimal::from_i128_with_scale(m, s))
        .boxed()
}

/// Decimals near a `#[text(width = 8, scale = 2)]`'s bounds: negative,
/// too many digits, more decimals than the scale.
pub fn priced() -> BoxedStrategy<Decimal> {
    prop_oneof![
        select(vec![
            Decimal::new(0, 0),
            Decimal::new(9_999_999, 2),
            Decimal::new(10_000_000, 2),
            Decimal::new(-1, 2),
            Decimal::new(12_345, 3),
            Decimal::new(12_340, 3),
            Decimal::new(5, 0),
        ]),
        (0i64..20_000_000, 0u32..4).prop_map(|(m, s)| Decimal::new(m, s)),
    ]
    .boxed()
}

fn ids() -> BoxedStrategy<Id> {
    int::<u32>(10).prop_map(Id).boxed()
}

matrix! {
    f32_binary: f32 = f32s();
    f32_desc: f32 [#[desc]] = f32s();
    f64_binary: f64 = f64s();
    f64_desc: f64 [#[desc]] = f64s();
    bool_binary: bool = any::<bool>();
    bool_desc: bool [#[desc]] = any::<bool>();
    char_binary: char = chars();
    char_desc: char [#[desc]] = chars();
    array1: [u8; 1] = arrays::<1>();
    array4_desc: [u8; 4] [#[desc]] = arrays::<4>();
    array16: [u8; 16] = arrays::<16>();
    unit: () = Just(());
    enum_binary: Tri = tri();
    enum_desc: Tri [#[desc]] = tri();
    newtype: Id = ids();
    newtype_desc: Id [#[desc]] = ids();
    newtype_nested: Outer = ids().prop_map(Outer);
    newtype_of_enum: Level = tri().prop_map(Level);
    newtype_of_option: MaybeId = proptest::option::of(int::<i16>(5)).prop_map(MaybeId);
    uuid_binary: Uuid = uuids();
    uuid_desc: Uuid [#[desc]] = uuids();
    uuid_text: Uuid [#[text]] = uuids();
    decimal_binary: Decimal = decimals();
    decimal_text: Decimal [#[text(width = 8, scale = 2)]] = priced();
    decimal_text_integer: Decimal [#[text(width = 4, scale = 0)]] = priced();
    hand_written: Even = any::<[u8; 2]>().prop_map(|[a, b]| Even([a & 0xFE, b]));
    option_u16: Option<u16> = proptest::option::of(int::<u16>(5));
    option_i64_desc: Option<i64> [#[desc]] = proptest::option::of(int::<i64>(19));
    option_u32_text: Option<u32> [#[text(width = 5)]] = proptest::option::of(int::<u32>(5));
    option_f64: Option<f64> = proptest::option::of(f64s());
    option_char_desc: Option<char> [#[desc]] = proptest::option::of(chars());
    option_enum: Option<Tri> = proptest::option::of(tri());
    option_newtype_desc: Option<Id> [#[desc]] = proptest::option::of(ids());
    option_uuid_text: Option<Uuid> [#[text]] = proptest::option::of(uuids());
    option_decimal: Option<Decimal> = proptest::option::of(decimals());
    option_decimal_text: Option<Decimal> [#[text(width = 8, scale = 2)]] = proptest::option::of(priced());
    option_option: Option<Option<bool>> = proptest::option::of(proptest::option::of(any::<bool>()));
    option_array: Option<[u8; 2]> = proptest::option::of(arrays::<2>());
}
