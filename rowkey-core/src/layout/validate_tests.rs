//! Layout files no derive could have written: each is refused, with the
//! field and the reason.

use crate::layout::rules::PartFacts;
use crate::layout::{lengths, FieldCodec, FieldLayout, Layout, ValueKind};
use serde_json::Value as Json;

const U16: ValueKind = ValueKind::Int {
    bytes: 2,
    signed: false,
};
const U64: ValueKind = ValueKind::Int {
    bytes: 8,
    signed: false,
};

/// A field as the derive lays it out (its offset comes with the key's).
fn field(name: &'static str, value: ValueKind, codec: FieldCodec) -> FieldLayout {
    let part = match codec {
        FieldCodec::Binary => PartFacts {
            max_len: value.part_fixed_len().unwrap_or(0),
            fixed_len: value.part_fixed_len(),
            ordered: true,
        },
        _ => PartFacts::NOT_BINARY,
    };
    FieldLayout::of(name, "T", value, codec, false, false, part)
}

/// The JSON of a key of `fields` with no prefix, as the derive would lay
/// it out.
fn json_of(separator: Option<char>, fields: Vec<FieldLayout>) -> Json {
    let sep_len = usize::from(separator.is_some());
    let mut offset = Some(0);
    let mut fields = fields;
    for f in &mut fields {
        f.offset = offset;
        offset = lengths::add_fixed(lengths::add_fixed(offset, f.fixed_len), Some(sep_len));
    }
    let seps = sep_len * (fields.len() - 1);
    let layout = Layout {
        format_version: crate::layout::FORMAT_VERSION,
        name: "Key",
        separator,
        max_len: lengths::max_len(&fields, seps),
        fixed_len: lengths::fixed_len(&fields, seps),
        prefix: None,
        fields: Box::leak(fields.into_boxed_slice()),
    };
    serde_json::to_value(layout).unwrap()
}

fn load(json: &Json) -> Result<&'static Layout, String> {
    Layout::from_json(&json.to_string()).map_err(|e| e.to_string())
}

/// The reason `json` is refused, after the common "not a layout" words.
fn refusal(json: &Json) -> String {
    let e = load(json).expect_err("refused");
    e.strip_prefix("it is not a layout rowkey writes: ")
        .unwrap_or_else(|| panic!("{e}"))
        .to_string()
}

fn decimal_text(width: usize, scale: u32) -> FieldLayout {
    field(
        "amount",
        ValueKind::Decimal,
        FieldCodec::DecimalText { width, scale },
    )
}

#[test]
fn a_derived_looking_layout_loads() {
    let json = json_of(
        None,
        vec![field("id", U64, FieldCodec::Binary), decimal_text(8, 2)],
    );
    let l = load(&json).unwrap();
    assert_eq!(l.fields[1].offset, Some(8));
    assert_eq!(l.max_len, 16);
}

#[test]
fn decimal_text_without_a_digit_before_the_point_is_refused() {
    // Width 3 cannot hold 5 decimals: decoding `1.5` once panicked.
    let json = json_of(None, vec![decimal_text(3, 5)]);
    assert_eq!(
        refusal(&json),
        "field `amount`: #[text(width = 3, scale = 5)] leaves no digit before the point: 5 \
         decimals and the `.` need a width of at least 7"
    );
    assert!(refusal(&json_of(None, vec![decimal_text(40, 29)])).contains("more decimals"));
    assert!(refusal(&json_of(None, vec![decimal_text(41, 2)])).contains("more than 38 digits"));
    assert!(load(&json_of(None, vec![decimal_text(1, 0)])).is_ok());
}

#[test]
fn codecs_paired_with_values_they_do_not_take_are_refused() {
    use crate::codec::framing::Framing;
    use crate::codec::{DateFormat, Reverse};
    use crate::layout::TimeCrate;
    let json = json_of(None, vec![field("id", U16, FieldCodec::UuidText)]);
    assert_eq!(
        refusal(&json),
        "field `id`: #[text] as 36 characters is a UUID's; its value is u16"
    );
    let text = FieldCodec::Bytes {
        framing: Framing::Escaped,
        max_len: 8,
        reverse: Reverse::No,
    };
    let digits = FieldCodec::Text {
        width: 5,
        reverse: false,
    };
    let ymd = FieldCodec::DateText {
        format: DateFormat::parse_const("%Y%m%d"),
    };
    let hms = FieldCodec::DateText {
        format: DateFormat::parse_const("%Y%m%d%H%M%S"),
    };
    let date = ValueKind::Date(TimeCrate::Chrono);
    let u32_ = ValueKind::Int {
        bytes: 4,
        signed: false,
    };
    let refused = [
        (ValueKind::Text, FieldCodec::Binary),
        (ValueKind::Bytes, FieldCodec::Binary),
        (ValueKind::Text, digits),
        (ValueKind::Decimal, digits),
        (U16, text),
        (ValueKind::Uuid, text),
        (u32_, FieldCodec::DescTimestamp { text: false }),
        (date, FieldCodec::DescTimestamp { text: true }),
        (U64, ymd),
        (date, hms),
        (ValueKind::Text, FieldCodec::UuidText),
        (U16, FieldCodec::DecimalText { width: 8, scale: 2 }),
        (
            ValueKind::Option(&U16),
            FieldCodec::Text {
                width: 5,
                reverse: false,
            },
        ),
    ];
    for (value, codec) in refused {
        let mut f = field("f", value, codec);
        // Lengths as the codec alone would say, so only the pair is wrong.
        if let Some(n) = codec.max_len() {
            f.max_len = n;
        }
        let why = refusal(&json_of(None, vec![f]));
        assert!(why.starts_with("field `f`: "), "{value:?} {codec:?}: {why}");
    }
    let taken = [
        (U16, digits),
        (ValueKind::Text, text),
        (ValueKind::Bytes, text),
        (U64, FieldCodec::DescTimestamp { text: false }),
        (
            ValueKind::Instant(TimeCrate::Jiff),
            FieldCodec::DescTimestamp { text: true },
        ),
        (date, ymd),
        (ValueKind::DateTime(TimeCrate::Time), hms),
        (ValueKind::Uuid, FieldCodec::UuidText),
        (
            ValueKind::Decimal,
            FieldCodec::DecimalText { width: 8, scale: 2 },
        ),
    ];
    for (value, codec) in taken {
        let json = json_of(None, vec![field("f", value, codec)]);
        assert!(
            load(&json).is_ok(),
            "{value:?} {codec:?}: {:?}",
            load(&json)
        );
    }
}

#[test]
fn enum_variants_named_twice_are_refused() {
    let metric = |variants: &'static [&'static str]| {
        let kind = ValueKind::Enum {
            name: "Metric",
            variants,
        };
        json_of(None, vec![field("metric", kind, FieldCodec::Binary)])
    };
    assert_eq!(
        refusal(&metric(&["Temp", "Humidity", "Temp"])),
        "field `metric` is enum Metric, whose variant Temp is named twice (bytes 0 and 2): a \
         value of it could be written two ways"
    );
    let newtype = ValueKind::Newtype {
        name: "M",
        inner: &ValueKind::Enum {
            name: "Metric",
            variants: &["Temp", "Temp"],
        },
    };
    let json = json_of(None, vec![field("metric", newtype, FieldCodec::Binary)]);
    assert!(refusal(&json).contains("named twice"));
    assert!(load(&metric(&["Temp", "Humidity"])).is_ok());
}

/// `json` with `edit` applied to its first field (`fields[0]`).
fn edit_field(json: &Json, i: usize, edit: impl FnOnce(&mut Json)) -> Json {
    let mut json = json.clone();
    edit(&mut json["fields"][i]);
    json
}

#[test]
fn numbers_that_disagree_with_the_codecs_are_refused() {
    let json = json_of(
        None,
        vec![field("id", U64, FieldCodec::Binary), decimal_text(8, 2)],
    );
    assert!(load(&json).is_ok());

    let mut short = json.clone();
    short["max_len"] = Json::from(10);
    assert_eq!(
        refusal(&short),
        "the key says it takes at most 10 bytes; its prefix, separators and fields take at \
         most 16"
    );
    let mut short = json.clone();
    short["fixed_len"] = Json::from(3);
    assert_eq!(
        refusal(&short),
        "the key's fixed_len says every key 3 bytes; its prefix, separators and fields make \
         every key 16 bytes"
    );
    let moved = edit_field(&json, 1, |f| f["offset"] = Json::from(7));
    assert_eq!(
        refusal(&moved),
        "field `amount` says it starts at byte 7; the bytes before it end at byte 8"
    );
    let shrunk = edit_field(&json, 0, |f| f["max_len"] = Json::from(2));
    assert_eq!(
        refusal(&shrunk),
        "field `id` says it takes at most 2 bytes; its codec takes at most 8"
    );
    let shrunk = edit_field(&json, 0, |f| f["fixed_len"] = Json::from(2));
    assert_eq!(
        refusal(&shrunk),
        "field `id` says it always takes 2 bytes; its codec always takes 8 bytes"
    );
    let unordered = edit_field(&json, 0, |f| f["order"] = Json::from("Unordered"));
    assert_eq!(
        refusal(&unordered),
        "field `id` says its bytes sort Unordered; its codec's sort Ascending"
    );
}

#[test]
fn widths_of_zero_are_refused() {
    let digits = |width| {
        let codec = FieldCodec::Text {
            width,
            reverse: false,
        };
        let mut f = field("n", U16, codec);
        // As a derive would compute them, had it allowed the width.
        f.max_len = width;
        f.fixed_len = Some(width);
        json_of(None, vec![f])
    };
    assert_eq!(
        refusal(&digits(0)),
        "field `n`: #[text(width = 0)] outside 1..=5 digits"
    );
    assert_eq!(
        refusal(&digits(6)),
        "field `n`: #[text(width = 6)] outside 1..=5 digits"
    );
    assert!(load(&digits(5)).is_ok());
    let mut d = decimal_text(0, 0);
    d.max_len = 0;
    assert!(refusal(&json_of(None, vec![d])).contains("leaves no digit before the point"));
    use crate::codec::framing::{Framing, Side};
    use crate::codec::Reverse;
    let pad = |width, max_len| {
        let codec = FieldCodec::Bytes {
            framing: Framing::Padded {
                width,
                fill: 0,
                side: Side::Right,
            },
            max_len,
            reverse: Reverse::No,
        };
        json_of(None, vec![field("user", ValueKind::Text, codec)])
    };
    assert!(refusal(&pad(0, 0)).contains("outside 1..=32767"));
    assert!(refusal(&pad(4, 8)).contains("the pad width is the bound"));
    assert!(load(&pad(8, 8)).is_ok());
}

#[test]
fn names_no_assignment_can_address_are_refused() {
    let json = json_of(None, vec![field("id", U64, FieldCodec::Binary)]);
    for bad in ["a=b", "", "_", "1a", "a b", "a,b"] {
        let renamed = edit_field(&json, 0, |f| f["name"] = Json::from(bad));
        assert_eq!(
            refusal(&renamed),
            format!("field {bad:?} is not a Rust name, so no assignment or scan can name it")
        );
    }
    for good in ["_id", "größe", "id2"] {
        let renamed = edit_field(&json, 0, |f| f["name"] = Json::from(good));
        assert!(load(&renamed).is_ok(), "{good}");
    }
    let kind = ValueKind::Enum {
        name: "Metric",
        variants: &["Temp", "a=b"],
    };
    let json = json_of(None, vec![field("m", kind, FieldCodec::Binary)]);
    assert!(refusal(&json).contains("\"a=b\" is not a Rust name"));
}

#[test]
fn attribute_combinations_the_derive_refuses_are_refused() {
    use crate::codec::framing::Framing;
    use crate::codec::Reverse;
    let bytes = |framing, reverse| FieldCodec::Bytes {
        framing,
        max_len: 8,
        reverse,
    };
    let digits = FieldCodec::Text {
        width: 5,
        reverse: false,
    };
    // A field's codec and #[desc] as the derive computes them.
    let with = |name, value, codec, desc: bool| {
        let part = match codec {
            FieldCodec::Binary => crate::layout::rules::PartFacts {
                max_len: 8,
                fixed_len: Some(8),
                ordered: true,
            },
            _ => PartFacts::NOT_BINARY,
        };
        FieldLayout::of(name, "T", value, codec, false, desc, part)
    };
    let cases = [
        (
            None,
            vec![with("a", ValueKind::Text, bytes(Framing::Raw, Reverse::No), false), field("b", U64, FieldCodec::Binary)],
            "field `a`: raw bytes before another field: the derive never writes it",
        ),
        (
            Some('_'),
            vec![with("a", U64, FieldCodec::Binary, false)],
            "field `a`: binary bytes in a key joined by '_': they can include the separator",
        ),
        (
            Some('1'),
            vec![with("a", U16, digits, false)],
            "field `a`: its text can hold the separator '1', so a key would split wrong",
        ),
        (
            None,
            vec![with("a", ValueKind::Text, bytes(Framing::Delimited, Reverse::No), false)],
            "field `a`: delimited text in a key with no separator: the derive never writes it",
        ),
        (
            None,
            vec![with("a", ValueKind::Text, bytes(Framing::Escaped, Reverse::Chars), true)],
            "field `a`: #[desc] with #[reverse]: a reversed field keeps no order to invert",
        ),
        (
            None,
            vec![with("a", U64, FieldCodec::DescTimestamp { text: false }, true)],
            "field `a`: #[desc] on #[desc_ts], which sorts newest first",
        ),
        (
            None,
            vec![with("a", ValueKind::Decimal, FieldCodec::Binary, true)],
            "field `a`: #[desc] on a decimal, whose width varies: inverted bytes need a fixed width",
        ),
    ];
    for (sep, fields, why) in cases {
        assert_eq!(refusal(&json_of(sep, fields)), why);
    }
}
