//! [`KeyOutcome`]: what one stored key does under a new layout, below
//! both the sample report and the per-change counts that read keys by it.

use crate::layout::dynamic::Value;
use crate::layout::Layout;
use crate::DecodeErrorKind;

/// What one stored key does under the new layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyOutcome {
    /// It is not a key of the old layout: not counted.
    NotOld,
    /// It reads as the same values.
    Same,
    /// Its fields read as before, but it is in another bucket (or under
    /// another hash prefix) than the new layout computes.
    Moves,
    /// It reads as other values, without an error.
    Different,
    /// It fails to decode.
    Fails,
}

impl KeyOutcome {
    /// What `key`, stored under `old`, does under `new`.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::layout::KeyOutcome;
    /// #[derive(RowKey)] struct Old { #[desc] n: u64 }
    /// #[derive(RowKey)] struct New { n: u64 }
    /// let key = Old { n: 72629 }.to_vec()?;
    /// assert_eq!(KeyOutcome::of(Old::layout(), New::layout(), &key), KeyOutcome::Different);
    /// assert_eq!(KeyOutcome::of(Old::layout(), Old::layout(), &key), KeyOutcome::Same);
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    pub fn of(old: &Layout, new: &Layout, key: &[u8]) -> KeyOutcome {
        let Ok(stored) = old.decode_key(key) else {
            return KeyOutcome::NotOld;
        };
        let before = stored.values();
        match new.decode_key(key) {
            Ok(read) => match same_values(old, new, &before, &read.values()) {
                true => KeyOutcome::Same,
                false => KeyOutcome::Different,
            },
            Err(e) => match e.kind() {
                DecodeErrorKind::SaltMismatch { .. } | DecodeErrorKind::HashPrefixMismatch => {
                    // The fields, read past the prefix without its check.
                    let len = new.prefix.map_or(0, |p| p.len());
                    let bare = Layout {
                        prefix: None,
                        ..*new
                    };
                    match bare.decode_key(&key[len.min(key.len())..]) {
                        Ok(read) if same_values(old, new, &before, &read.values()) => {
                            KeyOutcome::Moves
                        }
                        Ok(_) => KeyOutcome::Different,
                        Err(_) => KeyOutcome::Fails,
                    }
                }
                _ => KeyOutcome::Fails,
            },
        }
    }
}

/// Whether the values `new` reads are those `old` stored: a field by its
/// name where both layouts have it, else by position; text and bytes of
/// the same bytes are the same value.
fn same_values(old: &Layout, new: &Layout, before: &[Value], after: &[Value]) -> bool {
    new.fields.iter().enumerate().all(|(i, f)| {
        let j = old
            .fields
            .iter()
            .position(|o| o.name == f.name)
            .unwrap_or(i);
        match (before.get(j), after.get(i)) {
            (Some(a), Some(b)) => same_value(a, b),
            // A field the old keys do not have: nothing to compare.
            _ => true,
        }
    })
}

pub(super) fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Text(t), Value::Bytes(b)) | (Value::Bytes(b), Value::Text(t)) => {
            t.as_bytes() == b.as_slice()
        }
        (Value::Option(Some(a)), Value::Option(Some(b))) => same_value(a, b),
        _ => a.to_string() == b.to_string(),
    }
}
