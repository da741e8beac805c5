//! [`Layout::explain`]: the layout as a table a person reads.

use super::{FieldCodec, KeyPrefix, Layout, Order};
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
            match f.value.unwrapped() {
                // What a packed part holds is in its kind, not its type.
                crate::ValueKind::Bits { fields, .. } if f.codec == FieldCodec::Binary => {
                    let each: Vec<String> = fields
                        .iter()
                        .map(|b| format!("{}:{}", b.name, b.bits))
                        .collect();
                    write!(
                        s,
                        "{} as one big-endian word of bits, first field highest ({})",
                        f.rust_type,
                        each.join(" ")
                    )?;
                }
                _ => f
                    .codec
                    .with_codec(f.desc, None, |c| c.explain(s, f.rust_type))?,
            }
            s.push('\n');
        }
        if let Some(n) = self.key_count() {
            // What a qualifier layout says of a wide row: HBase splits
            // only between rows, so the most cells one row can hold.
            writeln!(
                s,
                "  at most {} distinct keys (as a qualifier: the most cells a row holds)",
                count_words(n)
            )?;
        }
        Ok(())
    }
}

/// `65,536`, or `2^64` for a large power of two.
fn count_words(n: u128) -> String {
    if n.is_power_of_two() && n > 1 << 20 {
        return format!("2^{}", n.trailing_zeros());
    }
    super::Thousands(n).to_string()
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
