//! The fields of two layouts matched (by name, then by position for a
//! rename) and compared: order, presence, then each pair's tag, width,
//! codec, `#[desc]` and value kind.

use super::{Change, Effect, Scope};
use crate::codec::Framing;
use crate::layout::{FieldCodec, FieldLayout, Layout, ValueKind};

/// The effect of a change to where the bytes of fields are: every stored
/// key fails to decode when the lengths of old and new keys cannot meet
/// (both fixed and different, or every old key longer than any new one);
/// otherwise some may parse as other values.
#[derive(Debug, Clone, Copy)]
pub(super) struct Structural(Effect);

impl Structural {
    pub(super) fn of(old: &Layout, new: &Layout) -> Structural {
        let lengths_never_meet = match (old.fixed_len, new.fixed_len) {
            (Some(a), Some(b)) => a != b,
            (Some(a), None) => a > new.max_len,
            _ => false,
        };
        Structural(if lengths_never_meet {
            Effect::FailsToDecode
        } else {
            Effect::DecodesDifferently
        })
    }

    pub(super) fn effect(self) -> Effect {
        self.0
    }
}

/// The label of a field pair: `name`, or `old -> new` when renamed.
fn label(o: &FieldLayout, n: &FieldLayout) -> Option<String> {
    Some(if o.name == n.name {
        n.name.to_string()
    } else {
        format!("{} -> {}", o.name, n.name)
    })
}

pub(super) fn compare(old: &Layout, new: &Layout, s: Structural, out: &mut Vec<Change>) {
    let (pairs, removed, added) = align(old, new);
    // The fields both have, in old order: their new positions must rise.
    let mut by_old = pairs.clone();
    by_old.sort_unstable();
    if by_old.windows(2).any(|w| w[0].1 > w[1].1) {
        let names = |l: &Layout| {
            l.fields
                .iter()
                .map(|f| f.name)
                .collect::<Vec<_>>()
                .join(", ")
        };
        // Same bytes at every position: each key parses as before, but
        // its values land in other fields.
        let same_shape = old.fields.len() == new.fields.len()
            && old
                .fields
                .iter()
                .zip(new.fields)
                .all(|(o, n)| same_bytes(o, n));
        let effect = if same_shape {
            Effect::DecodesDifferently
        } else {
            s.effect()
        };
        let what = format!("fields reordered: {} -> {}", names(old), names(new));
        out.push(Change::new(None, what, effect).sorting());
    }
    for j in removed {
        let f = &old.fields[j];
        let effect = if f.max_len == 0 {
            Effect::SameBytes
        } else {
            s.effect()
        };
        let what = format!("removed (field {} of {}, {})", j + 1, old.name, f.rust_type);
        out.push(Change::new(Some(f.name.to_string()), what, effect));
    }
    for i in added {
        let f = &new.fields[i];
        let effect = if f.max_len == 0 {
            Effect::Extends
        } else {
            s.effect()
        };
        let what = format!("added (field {} of {}, {})", i + 1, new.name, f.rust_type);
        out.push(Change::new(Some(f.name.to_string()), what, effect));
    }
    for (j, i) in pairs {
        let last = i + 1 == new.fields.len();
        let before = out.len();
        pair(&old.fields[j], &new.fields[i], last, s, out);
        for c in &mut out[before..] {
            c.scope = Scope::Field(j, i);
        }
    }
}

/// Matched `(old, new)` positions, then the old positions gone and the
/// new positions without a match.
fn align(old: &Layout, new: &Layout) -> (Vec<(usize, usize)>, Vec<usize>, Vec<usize>) {
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut old_left: Vec<usize> = Vec::new();
    for (j, o) in old.fields.iter().enumerate() {
        match new.fields.iter().position(|n| n.name == o.name) {
            Some(i) => pairs.push((j, i)),
            None => old_left.push(j),
        }
    }
    let mut new_left: Vec<usize> = (0..new.fields.len())
        .filter(|i| !pairs.iter().any(|p| p.1 == *i))
        .collect();
    // A new name where an old one was, in a key of as many fields: a rename.
    if old.fields.len() == new.fields.len() {
        old_left.retain(|j| {
            let renamed = new_left.contains(j);
            if renamed {
                pairs.push((*j, *j));
                new_left.retain(|i| i != j);
            }
            !renamed
        });
    }
    pairs.sort_unstable_by_key(|p| p.1);
    (pairs, old_left, new_left)
}

/// Whether two fields write the same bytes with the same meaning.
pub(super) fn same_bytes(o: &FieldLayout, n: &FieldLayout) -> bool {
    let mut a = crate::layout::fingerprint::Canonical::default();
    let mut b = crate::layout::fingerprint::Canonical::default();
    crate::layout::fingerprint::field_bytes(&mut a, o);
    crate::layout::fingerprint::field_bytes(&mut b, n);
    a == b
}

fn pair(o: &FieldLayout, n: &FieldLayout, last: bool, s: Structural, out: &mut Vec<Change>) {
    let field = label(o, n);
    let change = |what: String, effect: Effect| Change::new(field.clone(), what, effect);
    if o.name != n.name {
        out.push(change(
            format!("renamed from {}", o.name),
            Effect::SameBytes,
        ));
    }
    if same_bytes(o, n) {
        if o.rust_type != n.rust_type {
            let what = format!("type {} is now {}", o.rust_type, n.rust_type);
            out.push(change(what, Effect::SameBytes));
        }
        return;
    }
    let before = out.len();
    if o.optional != n.optional {
        let what = if n.optional {
            "now an Option (a tag byte before the value)"
        } else {
            "no longer an Option (no tag byte)"
        };
        out.push(change(what.into(), s.effect()));
        return;
    }
    if o.fixed_len != n.fixed_len && (o.fixed_len.is_some() || n.fixed_len.is_some()) {
        let width =
            |w: Option<usize>| w.map_or("a variable width".into(), |w| format!("{w} bytes"));
        let what = format!("{}, was {}", width(n.fixed_len), width(o.fixed_len));
        out.push(change(what, s.effect()));
        return;
    }
    if o.codec != n.codec {
        out.push(codec_change(o, n, s).with_field(field.clone()));
    }
    if o.desc != n.desc {
        let what = if o.desc {
            "#[desc] dropped"
        } else {
            "#[desc] added"
        };
        let mut c = change(what.into(), Effect::DecodesDifferently).sorting();
        c.example = super::sample::example(o, n, last);
        out.push(c);
    }
    if !same_kind(&o.value, &n.value) {
        let mut c = kind_change(o, n).with_field(field.clone());
        if c.effect == Effect::DecodesDifferently {
            c.example = super::sample::example(o, n, last);
        }
        out.push(c);
    }
    if out.len() == before {
        // Lengths a hand-written KeyPart states: what it writes changed.
        let what = format!("stored in up to {} bytes, was {}", n.max_len, o.max_len);
        out.push(change(what, Effect::DecodesDifferently));
    }
}

impl Change {
    fn with_field(mut self, field: Option<String>) -> Change {
        self.field = field;
        self
    }
}

/// Whether two kinds are stored and read alike (a newtype is its inner
/// kind; a date's crate changes nothing).
fn same_kind(a: &ValueKind, b: &ValueKind) -> bool {
    let mut x = crate::layout::fingerprint::Canonical::default();
    let mut y = crate::layout::fingerprint::Canonical::default();
    crate::layout::fingerprint::kind_bytes(&mut x, a);
    crate::layout::fingerprint::kind_bytes(&mut y, b);
    x == y
}

fn codec_change(o: &FieldLayout, n: &FieldLayout, s: Structural) -> Change {
    let what = format!("codec {:?} is now {:?}", o.codec, n.codec);
    match (o.codec, n.codec) {
        (
            FieldCodec::Bytes {
                framing: fo,
                max_len: mo,
                reverse: ro,
            },
            FieldCodec::Bytes {
                framing: fr,
                max_len: mn,
                reverse: rn,
            },
        ) if fo == fr && ro == rn => {
            let what = format!("holds values of up to {mn} bytes, was {mo}");
            if mn >= mo {
                Change::new(None, what, Effect::Extends)
            } else {
                let what = format!("{what}: stored values over {mn} bytes");
                Change::new(None, what, Effect::FailsToDecode)
            }
        }
        (FieldCodec::Text { width: 1, .. }, FieldCodec::Text { width: 1, .. }) => {
            // One digit reads the same either way round.
            Change::new(None, format!("{what}: one digit, alike"), Effect::Extends)
        }
        (
            FieldCodec::Bytes {
                framing:
                    Framing::Padded {
                        width: 1, fill: a, ..
                    },
                ..
            },
            FieldCodec::Bytes {
                framing:
                    Framing::Padded {
                        width: 1, fill: b, ..
                    },
                ..
            },
        ) if a == b => {
            // One byte: a value fills it or is empty, either side.
            Change::new(
                None,
                format!("{what}: one byte, padded alike"),
                Effect::Extends,
            )
        }
        (FieldCodec::Bytes { framing: fo, .. }, FieldCodec::Bytes { framing: fr, .. })
            if fo != fr && (o.fixed_len.is_none() || n.fixed_len.is_none()) =>
        {
            // Where a value ends moves: the rest of the key shifts.
            Change::new(None, what, s.effect()).sorting()
        }
        _ => Change::new(None, what, Effect::DecodesDifferently).sorting(),
    }
}

/// The largest value of an integer kind, `None` for other kinds.
fn int_max(k: &ValueKind) -> Option<u128> {
    match *k {
        ValueKind::Int { bytes, signed } => {
            let bits = u32::from(bytes) * 8 - u32::from(signed);
            Some(if bits >= 128 {
                u128::MAX
            } else {
                (1u128 << bits) - 1
            })
        }
        _ => None,
    }
}

fn kind_change(o: &FieldLayout, n: &FieldLayout) -> Change {
    let (ko, kn) = (o.value.unwrapped(), n.value.unwrapped());
    let what = format!("values are {}, were {}", n.rust_type, o.rust_type);
    match (o.codec, ko, kn) {
        // Digits: the value read is the same number where it fits.
        (FieldCodec::Text { width, .. }, _, _)
            if int_max(ko).is_some() && int_max(kn).is_some() =>
        {
            let digits_max = 10u128
                .checked_pow(width as u32)
                .map_or(u128::MAX, |p| p - 1);
            let stored_max = int_max(ko).unwrap_or(0).min(digits_max);
            let new_max = int_max(kn).unwrap_or(0);
            if new_max >= stored_max {
                Change::new(None, what, Effect::Extends)
            } else {
                let what = format!("{what}: stored values over {new_max}");
                Change::new(None, what, Effect::FailsToDecode)
            }
        }
        (FieldCodec::Bytes { .. }, ValueKind::Text, ValueKind::Bytes) => {
            Change::new(None, format!("{what}: the same bytes"), Effect::Extends)
        }
        (FieldCodec::Bytes { .. }, ValueKind::Bytes, ValueKind::Text) => {
            let what = format!("{what}: stored values that are not UTF-8");
            Change::new(None, what, Effect::FailsToDecode)
        }
        (_, ValueKind::Enum { variants: vo, .. }, ValueKind::Enum { variants: vn, .. }) => {
            variants_change(vo, vn)
        }
        _ => Change::new(None, what, Effect::DecodesDifferently).sorting(),
    }
}

fn variants_change(old: &[&str], new: &[&str]) -> Change {
    let moved: Vec<String> = old
        .iter()
        .zip(new)
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, (a, b))| format!("byte {i} was {a}, now {b}"))
        .collect();
    if !moved.is_empty() {
        let what = format!("enum variants reordered or renamed: {}", moved.join(", "));
        return Change::new(None, what, Effect::DecodesDifferently).sorting();
    }
    if new.len() < old.len() {
        let gone = old[new.len()..].join(", ");
        let what = format!("enum variants removed: {gone}: stored keys holding them");
        return Change::new(None, what, Effect::FailsToDecode);
    }
    let added = new[old.len()..].join(", ");
    Change::new(
        None,
        format!("enum variants added after the old ones: {added}"),
        Effect::Extends,
    )
}
