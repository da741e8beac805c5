//! [`Layout::explain`]: the layout as a table a person reads.

use super::{FieldCodec, KeyPrefix, Layout, Order};
use crate::codec::framing::Side;
use crate::codec::{Framing, Reverse};
use crate::salt::{BucketFormat, HashPrefixPlan, SaltHash, SaltPlan};
use core::fmt::{self, Write};

impl Layout {
    /// A table a person can read: one line per field with offset, width,
    /// codec and order.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// #[derive(RowKey)]
    /// struct Op {
    ///     uid: u64,
    ///     #[desc_ts] at: i64,
    /// }
    /// let text = Op::layout().explain();
    /// assert!(text.starts_with("Op: 16 bytes (fixed)"));
    /// assert!(text.contains("i64::MAX - ts"));
    /// ```
    pub fn explain(&self) -> String {
        let mut s = String::new();
        let _ = self.write_explain(&mut s);
        s
    }

    fn write_explain(&self, s: &mut String) -> fmt::Result {
        match self.fixed_len {
            Some(n) => write!(s, "{}: {n} bytes (fixed)", self.name)?,
            None => write!(s, "{}: up to {} bytes", self.name, self.max_len)?,
        }
        if let Some(sep) = self.separator {
            write!(s, ", fields joined by '{sep}'")?;
        }
        s.push('\n');
        match &self.prefix {
            Some(KeyPrefix::Salt(p)) => describe_salt(s, p)?,
            Some(KeyPrefix::HashPrefix(p)) => describe_hash_prefix(s, p)?,
            None => {}
        }
        let name_w = self
            .fields
            .iter()
            .map(|f| f.name.len())
            .max()
            .unwrap_or(4)
            .max(5);
        writeln!(
            s,
            "  {:<name_w$}  offset  width    order       codec",
            "field"
        )?;
        for f in self.fields {
            let offset = f.offset.map_or("-".to_string(), |o| o.to_string());
            let width = match f.fixed_len {
                Some(n) => n.to_string(),
                None => format!("<={}", f.max_len),
            };
            let order = match f.order {
                Order::Ascending => "ascending",
                Order::Descending => "descending",
                Order::Unordered => "none",
            };
            write!(
                s,
                "  {:<name_w$}  {offset:<6}  {width:<7}  {order:<10}  ",
                f.name
            )?;
            if f.optional {
                s.push_str("Option (tag 00 = None, 01 = Some), then ");
            }
            describe_codec(s, &f.codec, f.rust_type)?;
            s.push('\n');
        }
        Ok(())
    }
}

fn describe_salt(s: &mut String, p: &SaltPlan) -> fmt::Result {
    write!(s, "  salt: {} buckets as ", p.buckets)?;
    match p.format {
        BucketFormat::Text if p.width() == 1 => s.push_str("1 digit"),
        BucketFormat::Text => write!(s, "{} digits", p.width())?,
        BucketFormat::Binary if p.width() == 1 => s.push_str("1 binary byte"),
        BucketFormat::Binary => write!(s, "{} binary bytes", p.width())?,
    }
    let hash = match p.hash {
        SaltHash::Default => "rowkey's default hash".to_string(),
        SaltHash::Java => "Java String.hashCode, Math.abs, %".to_string(),
        SaltHash::Phoenix => "Apache Phoenix's salt hash of the rest of the key".to_string(),
        SaltHash::Md5 => "md5".to_string(),
        SaltHash::Custom(f) => format!("{f}(&key)"),
    };
    write!(s, ", bucket = {hash}")?;
    if !p.inputs.is_empty() && p.hash != SaltHash::Phoenix {
        write!(s, " of {}", p.inputs.join(" + "))?;
    }
    if let Some(g) = p.groups {
        write!(
            s,
            "; {} groups of {} buckets chosen by {}",
            g.groups, g.per_group, g.field
        )?;
    }
    s.push('\n');
    Ok(())
}

fn describe_hash_prefix(s: &mut String, p: &HashPrefixPlan) -> fmt::Result {
    writeln!(
        s,
        "  hash prefix: first {} {} of {:?} of {}",
        p.len,
        if p.binary { "bytes" } else { "hex characters" },
        p.hash,
        p.field
    )
}

/// How a binary part's bytes look, by its type as written: signed integers
/// flip the sign bit, unsigned ones are plain big-endian, anything else
/// (`bool`, `char`, arrays, enums, newtypes, your own parts) is written by
/// its `KeyPart` impl.
fn binary_form(ty: &str) -> &'static str {
    let inner = ty
        .strip_prefix("Option<")
        .and_then(|t| t.strip_suffix('>'))
        .unwrap_or(ty)
        .trim();
    match inner {
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "binary (big-endian, sign bit flipped)",
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "binary (big-endian)",
        "f32" | "f64" => "binary (IEEE 754 bits in total order; -0.0 as 0.0, NaN refused)",
        _ => "its KeyPart bytes",
    }
}

fn describe_codec(s: &mut String, codec: &FieldCodec, ty: &str) -> fmt::Result {
    match *codec {
        FieldCodec::Binary => write!(s, "{ty} as {}", binary_form(ty)),
        FieldCodec::Text { width, reverse } => {
            write!(s, "{ty} as {width} zero-padded decimal digits")?;
            if reverse {
                s.push_str(", digits reversed");
            }
            Ok(())
        }
        FieldCodec::Bytes {
            framing,
            max_len,
            reverse,
        } => {
            match framing {
                Framing::Escaped => write!(
                    s,
                    "{ty} (<= {max_len} bytes), 00 escaped as 00 FF, ends with 00 01"
                )?,
                Framing::Raw => write!(s, "{ty} (<= {max_len} bytes) as is, to the key's end")?,
                Framing::Delimited => write!(s, "{ty} (<= {max_len} bytes) up to the separator")?,
                Framing::Padded { width, fill, side } => write!(
                    s,
                    "{ty} padded on the {} with {} to {width} bytes",
                    match side {
                        Side::Left => "left",
                        Side::Right => "right",
                    },
                    crate::KeyDisplay(&[fill])
                )?,
            }
            match reverse {
                Reverse::No => Ok(()),
                Reverse::Chars => s.write_str(", reversed"),
                Reverse::Segments(sep) => write!(s, ", '{}'-segments reversed", sep as char),
            }
        }
        FieldCodec::DateText { format } => write!(
            s,
            "{ty} as {} characters of text, format \"{format}\"",
            format.width()
        ),
        FieldCodec::UuidText => write!(s, "{ty} as 36 lowercase hyphenated characters"),
        FieldCodec::DecimalText { width, scale } => write!(
            s,
            "{ty} as {width} zero-padded characters with {scale} decimals"
        ),
        FieldCodec::DescTimestamp { text } => write!(
            s,
            "reversed timestamp i64::MAX - ts as {}",
            if text {
                "19 digits"
            } else {
                "8 bytes big-endian"
            }
        ),
    }
}
