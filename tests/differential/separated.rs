//! Separator-joined keys (`#[rowkey(separator = ..)]`): every text form
//! that may stand between separators, with values holding the separator
//! (refused alike) and separators in the neighbours of every key; and the
//! struct options that change no byte (`max_len`, `target`, `crate`).

use crate::dates::{chrono_date, chrono_utc};
use crate::scalars::{priced, uuids};
use crate::values::{bytes, int, text};
use chrono::{DateTime, NaiveDate, Utc};
use proptest::prelude::*;
use rust_decimal::Decimal;
use uuid::Uuid;

/// As `matrix!`, in keys joined by `$sep`: the field under test between
/// text (`head`, `tail`) that may hold the separator.
macro_rules! joined {
    (separator = $sep:literal; $( $name:ident: $ty:ty $([$($attr:tt)*])? = $values:expr; )+) => {$(
        pub mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[derive(rowkey::RowKey, Debug, Clone, PartialEq)]
            #[rowkey(separator = $sep)]
            pub struct Mid {
                $($($attr)*)?
                pub v: $ty,
                #[max_len(2)]
                pub tail: String,
            }

            #[derive(rowkey::RowKey, Debug, Clone, PartialEq)]
            #[rowkey(separator = $sep)]
            pub struct Last {
                #[max_len(2)]
                pub head: String,
                $($($attr)*)?
                pub v: $ty,
            }

            case_impl!(Mid { v, tail });
            case_impl!(Last { head, v });

            proptest::proptest! {
                #![proptest_config($crate::harness::config())]
                #[test]
                fn agrees(v in $values, tail in text(2), head in text(2),
                          noise in $crate::values::noise()) {
                    $crate::harness::check(&Mid { v: v.clone(), tail }, &noise);
                    $crate::harness::check(&Last { head, v }, &noise);
                }
            }
        }
    )+};
}

pub mod underscore {
    use super::*;

    joined! {
        separator = "_";
        string: String [#[max_len(6)]] = text(6);
        string_reverse: String [#[max_len(6)] #[reverse]] = text(6);
        string_segments: String [#[max_len(10)] #[reverse(segments = ".")]] = text(10);
        bytes: Vec<u8> [#[max_len(5)]] = bytes(5);
        string_pad: String [#[pad(width = 5, fill = b'*')]] = text(5);
        bytes_pad_left: Vec<u8> [#[pad(width = 4, align = left)]] = bytes(4);
        u8_text: u8 [#[text]] = int::<u8>(3);
        i32_text: i32 [#[text(width = 6)]] = int::<i32>(6);
        u64_text_reverse: u64 [#[text(width = 11)] #[reverse]] = int::<u64>(11);
        u128_text: u128 [#[text]] = int::<u128>(39);
        i64_desc_ts_text: i64 [#[desc_ts] #[text]] = int::<i64>(19);
        date_text: NaiveDate [#[text(format = "%Y-%m-%d")]] = chrono_date();
        instant_desc_ts_text: DateTime<Utc> [#[desc_ts] #[text]] = chrono_utc();
        uuid_text: Uuid [#[text]] = uuids();
        decimal_text: Decimal [#[text(width = 8, scale = 2)]] = priced();
        option_string: Option<String> [#[max_len(4)]] = proptest::option::of(text(4));
        option_u16_text: Option<u16> [#[text(width = 3)]] = proptest::option::of(int::<u16>(3));
    }
}

pub mod pipe {
    use super::*;

    joined! {
        separator = "|";
        string: String [#[max_len(6)]] = text(6);
        bytes_reverse: Vec<u8> [#[max_len(5)] #[reverse]] = bytes(5);
        time_text: DateTime<Utc> [#[text(format = "%F %T.%3f")]] = chrono_utc();
    }
}

pub mod hash {
    use super::*;

    joined! {
        separator = '#';
        string: String [#[max_len(3)]] = text(3).prop_map(|s| s.replace('*', "#"));
        u16_text: u16 [#[text(width = 5)]] = int::<u16>(5);
    }
}

/// Struct options that bound the key or name the crate, and change none
/// of its bytes.
#[derive(rowkey::RowKey, Debug, Clone, PartialEq)]
#[rowkey(max_len = 40, target = "bigtable", crate = "::rowkey")]
pub struct Bounded {
    #[max_len(12)]
    pub name: String,
    #[max_len(12)]
    pub rest: Vec<u8>,
}
case_impl!(Bounded { name, rest });

proptest! {
    #![proptest_config(crate::harness::config())]

    #[test]
    fn bounded(name in text(12), rest in bytes(12), noise in crate::values::noise()) {
        crate::harness::check(&Bounded { name, rest }, &noise);
    }
}
