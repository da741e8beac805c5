//! [`Layout::prefix_ranges`]: the key ranges that hold every key whose
//! first fields have given values, by the layout alone: what
//! `Key::scan().a.eq(..).b.eq(..).plan()` reads, for a tool that has only
//! the layout (the CLI's `scan`).

use super::encode::write_head;
use super::salt::{choose_bucket, salted_parts};
use super::{EncodeValuesError, Value};
use crate::layout::{KeyPrefix, Layout};
use crate::salt::SaltHash;
use crate::scan::prefix_successor;
use crate::KeyWriter;

/// A range of stored keys: from `start` (inclusive) to `stop` (exclusive;
/// `None`: to the end of the table).
pub type KeyRangeBytes = (Vec<u8>, Option<Vec<u8>>);

impl Layout {
    /// The ranges holding every key whose first `values.len()` fields hold
    /// `values` (in field order; none: every key), sorted: one per salt
    /// bucket the values leave possible (one when they fix every salt
    /// input and the layout can compute the bucket), or the whole table
    /// for a hash prefix whose field is not among them. The ranges hold
    /// only keys with these values, except that whole-table range: there,
    /// decode each key and compare. With every field given, the range is
    /// the one key.
    pub fn prefix_ranges(&self, values: &[Value]) -> Result<Vec<KeyRangeBytes>, EncodeValuesError> {
        if values.len() > self.fields.len() {
            return Err(EncodeValuesError::Values(format!(
                "{} has {} fields, not {}",
                self.name,
                self.fields.len(),
                values.len()
            )));
        }
        let mut out = vec![0u8; self.max_len + 1];
        let mut w = KeyWriter::new(&mut out, self.name);
        let head = self.prefix.as_ref().map_or(0, KeyPrefix::len);
        let (spans, pending) = write_head(&mut w, self, values)?;
        let sep = self.separator.map(|c| c as u8);
        // The separator after the last field given: "ab" then `|` is not
        // a prefix of "abc|...".
        if let (Some(b), true) = (sep, !values.is_empty() && values.len() < self.fields.len()) {
            w.put_byte(b)?;
        }
        let index = |name: &str| self.fields.iter().position(|f| f.name == name);
        let hashed = match &self.prefix {
            Some(KeyPrefix::HashPrefix(h)) => match index(h.field) {
                Some(i) if i < values.len() => {
                    h.write(&mut w, spans[i].start, spans[i].end);
                    true
                }
                _ => false,
            },
            _ => false,
        };
        let written = w.written_since(0).to_vec();
        let all_given = values.len() == self.fields.len();
        let range = |prefix: Vec<u8>| {
            // Every field given: that key alone (a raw last field has no
            // end of its own, so "/a/37" would also start "/a/370").
            let stop = if all_given {
                let mut next = prefix.clone();
                next.push(0);
                Some(next)
            } else if pending > 0 {
                // A Phoenix key whose given columns end with a value
                // followed by `00`, or with NULLs: the keys are the
                // prefix itself (the rest NULL) or it, those `00`s and
                // more; none has another byte where the last `00` goes.
                let mut next = prefix.clone();
                next.extend(core::iter::repeat_n(0u8, pending - 1));
                next.push(1);
                Some(next)
            } else {
                prefix_successor(&prefix)
            };
            (prefix, stop)
        };
        Ok(match &self.prefix {
            None => vec![range(written)],
            // Before its field is given, the hash prefix is unknown: every
            // key of the table.
            Some(KeyPrefix::HashPrefix(_)) if !hashed => vec![(Vec::new(), None)],
            Some(KeyPrefix::HashPrefix(_)) => vec![range(written)],
            Some(KeyPrefix::Salt(s)) => {
                let inputs_given = match s.hash {
                    SaltHash::Phoenix => all_given,
                    _ => s
                        .inputs
                        .iter()
                        .all(|n| index(n).is_some_and(|i| i < values.len())),
                };
                let bucket = if inputs_given {
                    let parts = salted_parts(s, self, &written, &spans);
                    match choose_bucket(s, self, values, &parts, None) {
                        Ok(b) => Some(b),
                        // A bucket a user function picks: every one.
                        Err(EncodeValuesError::Bucket(_)) => None,
                        Err(e) => return Err(e),
                    }
                } else {
                    None
                };
                let buckets = bucket.map_or(0..s.buckets, |b| b..b + 1);
                buckets
                    .map(|b| {
                        let mut prefix = written.clone();
                        s.write_prefix(b, &mut prefix[..head]);
                        range(prefix)
                    })
                    .collect()
            }
        })
    }
}
