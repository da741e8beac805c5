//! What a layout change does to actual keys: the caller's sample keys
//! read under both layouts ([`LayoutDiff::with_sample`]), and one value
//! written by the old field and read by the new for a change's example.

use super::count::{Checked, SampleCount};
use super::outcome::{same_value, KeyOutcome};
use super::{Effect, LayoutDiff, MovedShare, ShareBasis};
use crate::layout::dynamic::Value;
use crate::layout::{FieldCodec, FieldLayout, Layout, ValueKind};
use crate::{KeyReader, KeyWriter};
use core::fmt;

/// What the caller's sample keys did under the new layout.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SampleReport {
    /// Keys given.
    pub keys: u64,
    /// Keys that are not keys of the old layout (not counted below).
    pub not_old: u64,
    /// Keys that read as the same values.
    pub same: u64,
    /// Keys whose fields read as before, in another bucket than the new
    /// layout computes (a key whose fields read otherwise is counted as
    /// `different`; the salt change's own count,
    /// [`Change::sample`](super::Change::sample), counts every key in
    /// another bucket).
    pub moved: u64,
    /// Keys that read as other values.
    pub different: u64,
    /// Keys that fail to decode.
    pub fails: u64,
}

impl fmt::Display for SampleReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "sample of {} keys, each read whole: {} read as before, {} read as before in \
             another bucket, {} read as other values, {} fail to decode",
            self.keys, self.same, self.moved, self.different, self.fails
        )?;
        if self.not_old > 0 {
            write!(f, " ({} are not keys of the old layout)", self.not_old)?;
        }
        Ok(())
    }
}

impl LayoutDiff {
    /// Reads `keys`, stored under `old`, under `new` too: each whole
    /// ([`KeyOutcome`], summed in [`SampleReport`]), and against each
    /// change by itself ([`Change::sample`](super::Change::sample); a salt
    /// change's moved share is its count). A key one change misreads is
    /// still checked against the others: a key is in another bucket when
    /// its stored bucket is not the one the new layout computes for its
    /// values, whatever its other fields read as.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::layout::diff;
    /// mod v1 { #[derive(rowkey::RowKey)] pub struct K { #[salt(buckets = 32)] pub id: u32 } }
    /// mod v2 { #[derive(rowkey::RowKey)] pub struct K { #[salt(buckets = 64)] pub id: u32 } }
    /// let keys: Vec<Vec<u8>> = (0..1000).map(|id| v1::K { id }.to_vec().unwrap()).collect();
    /// let d = diff(v1::K::layout(), v2::K::layout()).with_sample(v1::K::layout(), v2::K::layout(), &keys);
    /// let s = d.sample.unwrap();
    /// assert_eq!(s.same + s.moved, 1000);
    /// assert!(s.moved > 400 && s.moved < 600, "{s}");
    /// assert_eq!(d.changes[0].sample.unwrap().affected, s.moved);
    /// ```
    ///
    /// Two changes at once: each is counted on every key.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::layout::{diff, Effect, MovedShare};
    /// mod v1 { #[derive(rowkey::RowKey)] pub struct K { #[salt(buckets = 12)] pub id: u32, #[desc] pub at: u64 } }
    /// mod v2 { #[derive(rowkey::RowKey)] pub struct K { #[salt(buckets = 24)] pub id: u32, pub at: u64 } }
    /// let keys: Vec<Vec<u8>> = (0..1000).map(|id| v1::K { id, at: 7 }.to_vec().unwrap()).collect();
    /// let d = diff(v1::K::layout(), v2::K::layout()).with_sample(v1::K::layout(), v2::K::layout(), &keys);
    /// let salt = d.changes.iter().find(|c| c.field.as_deref() == Some("<salt>")).unwrap();
    /// let Effect::MovesBucket(MovedShare::Counted { moved, of: 1000, .. }) = salt.effect else { panic!() };
    /// assert!(moved > 400 && moved < 600, "{d}");
    /// let at = d.changes.iter().find(|c| c.field.as_deref() == Some("at")).unwrap();
    /// assert_eq!(at.sample.unwrap().affected, 1000);
    /// ```
    pub fn with_sample<K: AsRef<[u8]>>(mut self, old: &Layout, new: &Layout, keys: &[K]) -> Self {
        let mut r = SampleReport::default();
        let mut affected = vec![0u64; self.changes.len()];
        for key in keys {
            let key = key.as_ref();
            r.keys += 1;
            let outcome = KeyOutcome::of(old, new, key);
            match outcome {
                KeyOutcome::NotOld => r.not_old += 1,
                KeyOutcome::Same => r.same += 1,
                KeyOutcome::Moves => r.moved += 1,
                KeyOutcome::Different => r.different += 1,
                KeyOutcome::Fails => r.fails += 1,
            }
            let Ok(stored) = old.decode_key(key) else {
                continue;
            };
            let checked = Checked::new(old, new, key, stored, outcome);
            for (n, c) in affected.iter_mut().zip(&self.changes) {
                *n += u64::from(checked.affected_by(old, new, c));
            }
        }
        let of = r.keys - r.not_old;
        for (c, affected) in self.changes.iter_mut().zip(affected) {
            c.sample = Some(SampleCount { affected, of });
            if let Effect::MovesBucket(share) = &mut c.effect {
                *share = MovedShare::Counted {
                    moved: affected,
                    of,
                    basis: ShareBasis::SampleKeys,
                };
            }
        }
        self.sample = Some(r);
        self
    }
}

/// A value of field `o`'s kind to show a change with: 72629 (the
/// issue's), or a smaller number where that does not fit.
fn example_value(o: &FieldLayout) -> Option<Value> {
    let ValueKind::Int { bytes, signed } = *o.value.unwrapped() else {
        return None;
    };
    let bits = u32::from(bytes) * 8 - u32::from(signed);
    let digits = match o.codec {
        FieldCodec::Text { width, .. } => 10u128.checked_pow(width as u32),
        _ => None,
    };
    let v = [72_629u128, 42, 7]
        .into_iter()
        .find(|v| (bits >= 32 || *v < 1 << bits) && digits.is_none_or(|d| *v < d))?;
    Some(if signed {
        Value::Int(v as i128)
    } else {
        Value::UInt(v)
    })
}

/// `72629 reads as 18446744073709478986`: one value written by the old
/// field and read by the new (`last`: it ends the new key), when it
/// reads as another value.
pub(super) fn example(o: &FieldLayout, n: &FieldLayout, last: bool) -> Option<String> {
    if o.optional || n.optional {
        return None;
    }
    let v = example_value(o)?;
    let mut buf = vec![0u8; o.max_len];
    let mut w = KeyWriter::new(&mut buf, "example");
    o.codec
        .with_codec(o.desc, None, |c| c.put_value(&mut w, o, &v))
        .ok()?;
    let len = w.finish();
    let mut r = KeyReader::new(&buf[..len], "example");
    let read = n
        .codec
        .with_codec(n.desc, None, |c| c.take_value(&mut r, n, last))
        .ok()?;
    (r.finish().is_ok() && !same_value(&v, &read)).then(|| format!("{v} reads as {read}"))
}
