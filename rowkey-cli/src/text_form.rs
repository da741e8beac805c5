//! Fields stored as a type's own text (`#[text(format = "..")]` dates and
//! times, a UUID's or a decimal's `#[text]`): shown and given as the text
//! the key holds, checked by the codec the derive calls.

use crate::value::Value;
use rowkey_core::codec::{DecimalText, UuidText};
use rowkey_core::layout::FieldCodec;
use rowkey_core::{
    DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind, KeyReader, KeyWriter,
};

/// Reads a text-form field's text through its codec (so a key the
/// derived decode refuses is refused here too) and returns the text.
pub fn take(r: &mut KeyReader<'_>, codec: FieldCodec) -> Result<Value, DecodeError> {
    let rest = r.remaining();
    let start = r.position();
    match codec {
        FieldCodec::DateText { format } => {
            format.take::<chrono::NaiveDateTime>(r)?;
        }
        FieldCodec::UuidText => {
            UuidText.take(r)?;
        }
        FieldCodec::DecimalText { width, scale } => {
            DecimalText { width, scale }.take(r)?;
        }
        _ => return Err(r.error(DecodeErrorKind::Invalid("not a text-form field"))),
    }
    let text = &rest[..r.position() - start];
    // The codecs above accept ASCII only.
    Ok(Value::Text(String::from_utf8_lossy(text).into_owned()))
}

/// Writes the text a user gave for a text-form field: it must be exactly
/// what the codec writes (read back through it, so `2021-13` or an
/// uppercase UUID is an error, never a key the derive would not write).
pub fn put(w: &mut KeyWriter<'_>, codec: FieldCodec, v: &Value) -> Result<(), EncodeError> {
    let Value::Text(text) = v else {
        return Err(w.error(EncodeErrorKind::Invalid("give this field as its text")));
    };
    let mut r = KeyReader::new(text.as_bytes(), "value");
    let invalid = |w: &KeyWriter<'_>, e: DecodeError| {
        let _ = e;
        w.error(EncodeErrorKind::Invalid(
            "the text is not this field's form (see `rowkey explain`)",
        ))
    };
    let checked = match codec {
        FieldCodec::DateText { format } => format
            .take::<chrono::NaiveDateTime>(&mut r)
            .and_then(|t| r.finish().map(|()| t))
            .map(|t| format.put(w, &t)),
        FieldCodec::UuidText => UuidText
            .take(&mut r)
            .and_then(|u| r.finish().map(|()| u))
            .map(|u| UuidText.put(w, &u)),
        FieldCodec::DecimalText { width, scale } => {
            let c = DecimalText { width, scale };
            c.take(&mut r)
                .and_then(|d| r.finish().map(|()| d))
                .map(|d| c.put(w, &d))
        }
        _ => return Err(w.error(EncodeErrorKind::Invalid("not a text-form field"))),
    };
    match checked {
        Ok(written) => written,
        Err(e) => Err(invalid(w, e)),
    }
}
