//! The rules of each codec, as `FieldCodec` answers them.

use super::*;
use crate::codec::framing::Side;
use crate::codec::{DateFormat, Framing, Reverse};

fn padded(fill: u8, side: Side) -> FieldCodec {
    FieldCodec::Bytes {
        framing: Framing::Padded {
            width: 8,
            fill,
            side,
        },
        max_len: 8,
        reverse: Reverse::No,
    }
}

#[test]
fn widths_and_lengths() {
    assert_eq!(FieldCodec::UuidText.width(), Some(36));
    assert_eq!(FieldCodec::DescTimestamp { text: true }.width(), Some(19));
    assert_eq!(FieldCodec::DescTimestamp { text: false }.width(), Some(8));
    let month = FieldCodec::DateText {
        format: DateFormat::parse_const("%Y-%m"),
    };
    assert_eq!(month.width(), Some(7));
    let escaped = FieldCodec::Bytes {
        framing: Framing::Escaped,
        max_len: 10,
        reverse: Reverse::No,
    };
    assert_eq!((escaped.width(), escaped.max_len()), (None, Some(22)));
    assert_eq!(FieldCodec::Binary.max_len(), None);
    assert_eq!(int_digits(8, true), 19);
    assert_eq!(int_digits(16, false), 39);
    assert!(decimal_text_is_valid(10, 2) && !decimal_text_is_valid(3, 2));
}

#[test]
fn order_and_scans() {
    assert_eq!(padded(0, Side::Right).order(false, true), Order::Ascending);
    assert_eq!(padded(0, Side::Right).order(true, true), Order::Descending);
    assert_eq!(padded(1, Side::Right).order(false, true), Order::Unordered);
    assert_eq!(padded(0, Side::Left).order(false, true), Order::Unordered);
    assert_eq!(FieldCodec::Binary.order(false, false), Order::Unordered);
    assert_eq!(
        FieldCodec::DescTimestamp { text: false }.order(false, true),
        Order::Descending
    );
    assert_eq!(
        padded(1, Side::Right).range_scan(),
        Err(ScanRefusal::PaddedWithNonZeroFill)
    );
    assert_eq!(
        padded(0, Side::Left).prefix_scan(false),
        Err(ScanRefusal::LeftPadded)
    );
    assert_eq!(
        FieldCodec::Binary.prefix_scan(false),
        Err(ScanRefusal::BinaryHasNoTextPrefix)
    );
    assert_eq!(set_exactly(true, true), Err(ScanRefusal::Hashed));
}

#[test]
fn bytes_a_codec_can_write() {
    let date = FieldCodec::DateText {
        format: DateFormat::parse_const("%Y/%m"),
    };
    assert!(date.can_write(b'/', false) && !date.can_write(b'_', false));
    assert!(FieldCodec::UuidText.can_write(b'-', false));
    assert!(!FieldCodec::UuidText.can_write(b'g', false));
    assert!(FieldCodec::Binary.can_write(b'_', false));
}

#[test]
fn refusals_name_the_reason_types() {
    use crate::scan;
    fn name<T>() -> &'static str {
        let full = core::any::type_name::<T>();
        full.rsplit("::").next().unwrap_or(full)
    }
    let pairs = [
        (
            ScanRefusal::LeftPadded,
            name::<scan::LeftPaddedFieldsHaveNoPrefixOrRangeOrder>(),
        ),
        (
            ScanRefusal::Reversed,
            name::<scan::ReversedFieldsHaveNoPrefixOrRangeOrder>(),
        ),
        (
            ScanRefusal::BinaryHasNoTextPrefix,
            name::<scan::BinaryFieldsHaveNoTextPrefix>(),
        ),
        (
            ScanRefusal::DescendingEscaped,
            name::<scan::DescendingEscapedFieldsHaveNoPrefix>(),
        ),
        (
            ScanRefusal::ReversedTimestamp,
            name::<scan::ReversedTimestampsHaveNoPrefix>(),
        ),
        (
            ScanRefusal::SeparatorJoined,
            name::<scan::SeparatorJoinedTextHasNoRangeOrder>(),
        ),
        (
            ScanRefusal::PaddedWithNonZeroFill,
            name::<scan::PaddedFieldsWithNonZeroFillHaveNoRangeOrder>(),
        ),
        (
            ScanRefusal::Hashed,
            name::<scan::HashedFieldsAreSetExactly>(),
        ),
        (
            ScanRefusal::Optional,
            name::<scan::OptionalFieldsAreSetExactly>(),
        ),
        (
            ScanRefusal::VariableWidth,
            name::<scan::VariableWidthFieldsCannotBeLeftFree>(),
        ),
        (
            ScanRefusal::TextFormTakesARange,
            name::<scan::TextFormsTakeARangeNotAPrefix>(),
        ),
        (
            ScanRefusal::PhoenixNotText,
            name::<scan::PhoenixPrefixesAreOnVarcharOrChar>(),
        ),
    ];
    for (refusal, ty) in pairs {
        assert_eq!(refusal.reason_type(), ty);
    }
}
