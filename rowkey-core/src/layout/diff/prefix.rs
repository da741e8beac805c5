//! The key-wide parts of two layouts compared: the separator, and the
//! salt or hash prefix in front of the fields (which bucket a row is in,
//! with the share of rows that move where it can be counted).

use super::fields::Structural;
use super::{Change, Effect, MovedShare, Scope, ShareBasis};
use crate::codec::FieldCodec;
use crate::layout::{KeyPrefix, Layout, ValueKind};
use crate::salt::{SaltHash, SaltPlan, SALT_FIELD};

/// The name changes give the hash prefix (it is not a field).
const HASH_PREFIX: &str = "<hash_prefix>";

/// The most input values [`every_input_share`] hashes.
const MAX_ENUMERATED: usize = 1 << 16;
/// The longest period [`uniform_share`] counts over.
const MAX_PERIOD: u64 = 1 << 22;

pub(super) fn compare(old: &Layout, new: &Layout, s: Structural, out: &mut Vec<Change>) {
    separator(old, new, s, out);
    // Every change here but a moved bucket is counted as if it were the
    // only one (the new prefix on the old fields).
    let change = |field: &str, what: String, effect: Effect| {
        Change::new(Some(field.to_string()), what, effect).scoped(Scope::PrefixAlone)
    };
    match (&old.prefix, &new.prefix) {
        (None, None) => {}
        (None, Some(p)) => out.push(change(
            prefix_field(p),
            format!("{} added", describe(p)),
            s.effect(),
        )),
        (Some(p), None) => out.push(change(
            prefix_field(p),
            format!("{} removed", describe(p)),
            s.effect(),
        )),
        (Some(KeyPrefix::Salt(a)), Some(KeyPrefix::Salt(b))) => salt(old, new, a, b, s, out),
        (Some(KeyPrefix::HashPrefix(a)), Some(KeyPrefix::HashPrefix(b))) => {
            let field_of = |l: &Layout, name: &str| l.fields.iter().position(|f| f.name == name);
            if a.prefix_len() != b.prefix_len() {
                let what = format!("{} bytes, now {}", a.len, b.len);
                out.push(change(HASH_PREFIX, what, s.effect()));
            } else if (a.binary, a.hash) != (b.binary, b.hash)
                || field_of(old, a.field) != field_of(new, b.field)
            {
                let what = format!(
                    "{}, now {}",
                    describe(&old.prefix.unwrap()),
                    describe(&new.prefix.unwrap())
                );
                out.push(
                    change(HASH_PREFIX, what, Effect::MovesBucket(MovedShare::Unknown))
                        .scoped(Scope::Bucket),
                );
            }
        }
        (Some(a), Some(b)) => {
            let what = format!("{}, now {}", describe(a), describe(b));
            out.push(change(prefix_field(b), what, s.effect()));
        }
    }
}

fn prefix_field(p: &KeyPrefix) -> &'static str {
    match p {
        KeyPrefix::Salt(_) => SALT_FIELD,
        KeyPrefix::HashPrefix(_) => HASH_PREFIX,
    }
}

fn describe(p: &KeyPrefix) -> String {
    match p {
        KeyPrefix::Salt(s) => format!("a salt of {} {:?} buckets", s.buckets, s.format),
        KeyPrefix::HashPrefix(h) => format!(
            "a hash prefix of {} {} of {:?}({})",
            h.len,
            if h.binary { "bytes" } else { "hex digits" },
            h.hash,
            h.field
        ),
    }
}

/// Separators between fields (and after a text prefix) in old keys.
fn boundaries(l: &Layout) -> usize {
    let after_prefix = match &l.prefix {
        Some(KeyPrefix::Salt(s)) => s.prefix_len() > s.width(),
        Some(KeyPrefix::HashPrefix(h)) => h.separator.is_some(),
        None => false,
    };
    l.fields.len() - 1 + usize::from(after_prefix)
}

fn separator(old: &Layout, new: &Layout, s: Structural, out: &mut Vec<Change>) {
    if old.separator == new.separator {
        return;
    }
    let shown = |c: Option<char>| c.map_or("none".to_string(), |c| format!("{c:?}"));
    let what = format!(
        "the separator is {}, was {}",
        shown(new.separator),
        shown(old.separator)
    );
    let effect = match (old.separator, new.separator) {
        _ if old.separator.is_some() && boundaries(old) == 0 => Effect::SameBytes,
        // Fixed-width fields: each boundary holds the old byte where the
        // new one is expected.
        (Some(_), Some(_)) if old.fixed_len.is_some() => Effect::FailsToDecode,
        _ => s.effect(),
    };
    out.push(Change::new(None, what, effect).scoped(Scope::SeparatorAlone));
}

/// The positions of a salt's inputs (names change; positions are the format).
fn positions(l: &Layout, names: &[&str]) -> Vec<Option<usize>> {
    names
        .iter()
        .map(|n| l.fields.iter().position(|f| f.name == *n))
        .collect()
}

fn salt(
    old: &Layout,
    new: &Layout,
    a: &SaltPlan,
    b: &SaltPlan,
    s: Structural,
    out: &mut Vec<Change>,
) {
    let field = Some(SALT_FIELD.to_string());
    if a.prefix_len() != b.prefix_len() {
        let what = format!(
            "{} buckets, now {}: the bucket takes {} bytes, was {}",
            a.buckets,
            b.buckets,
            b.prefix_len(),
            a.prefix_len()
        );
        out.push(Change::new(field, what, s.effect()).scoped(Scope::PrefixAlone));
        return;
    }
    let mut what = Vec::new();
    if a.buckets != b.buckets {
        what.push(format!("{} buckets, now {}", a.buckets, b.buckets));
    }
    if a.format != b.format {
        what.push(format!("{:?} buckets, now {:?}", a.format, b.format));
    }
    if a.hash != b.hash {
        what.push(format!("hash {:?}, now {:?}", a.hash, b.hash));
    }
    let (ia, ib) = (positions(old, a.inputs), positions(new, b.inputs));
    if ia != ib {
        what.push(format!(
            "hashes {}, now {}",
            a.inputs.join(", "),
            b.inputs.join(", ")
        ));
    }
    let groups = |g: Option<crate::salt::BucketGroups>, l: &Layout| {
        g.map(|g| (positions(l, &[g.field]), g.groups, g.per_group, g.rule))
    };
    if groups(a.groups, old) != groups(b.groups, new) {
        what.push(format!("groups {:?}, now {:?}", a.groups, b.groups));
    }
    if what.is_empty() {
        return;
    }
    let only_buckets = a.format == b.format
        && a.hash == b.hash
        && ia == ib
        && a.groups.is_none()
        && b.groups.is_none();
    let counted = if a.format == b.format {
        every_input_share(old, new, a, b)
    } else {
        None
    };
    let share = match counted {
        Some(share) => share,
        None if only_buckets => uniform_share(a, b),
        None => MovedShare::Unknown,
    };
    if let MovedShare::Counted {
        moved: 0,
        basis: ShareBasis::EveryInput,
        ..
    } = share
    {
        // Every value of the salted fields keeps its bucket.
        let what = format!(
            "{}: no value of the salted fields changes bucket",
            what.join("; ")
        );
        out.push(Change::new(field, what, Effect::Extends).scoped(Scope::Bucket));
        return;
    }
    out.push(
        Change::new(field.clone(), what.join("; "), Effect::MovesBucket(share))
            .sorting()
            .scoped(Scope::Bucket),
    );
    if a.format != b.format {
        let what = format!(
            "stored buckets are {:?}, read as {:?}: those that do not parse",
            a.format, b.format
        );
        out.push(
            Change::new(field.clone(), what, Effect::FailsToDecode).scoped(Scope::BucketBytes),
        );
    }
    if b.buckets < a.buckets {
        let what = format!(
            "stored rows of buckets {}..{} are in no bucket of the new layout",
            b.buckets, a.buckets
        );
        out.push(
            Change::new(field, what, Effect::FailsToDecode).scoped(Scope::BucketsFrom(b.buckets)),
        );
    }
}

/// The stored bytes every value of a binary field of few values writes.
fn field_values(l: &Layout, i: usize) -> Option<Vec<Vec<u8>>> {
    let f = l.fields.get(i)?;
    if f.codec != FieldCodec::Binary || f.optional {
        return None;
    }
    let mut values: Vec<Vec<u8>> = match *f.value.unwrapped() {
        ValueKind::Bool => vec![vec![0], vec![1]],
        ValueKind::Enum { variants, .. } => (0..variants.len()).map(|b| vec![b as u8]).collect(),
        ValueKind::Int { bytes: 1, .. } => (0..=255u8).map(|b| vec![b]).collect(),
        ValueKind::Int { bytes: 2, .. } => {
            (0..=u16::MAX).map(|v| v.to_be_bytes().to_vec()).collect()
        }
        _ => return None,
    };
    if f.desc {
        values.iter_mut().flatten().for_each(|b| *b = !*b);
    }
    Some(values)
}

/// The share of rows that move, counted over every value of the salted
/// fields of both plans (each value one row): where those fields are the
/// same in both layouts, binary and of few values, and the hashes are
/// ones the layout can run.
fn every_input_share(old: &Layout, new: &Layout, a: &SaltPlan, b: &SaltPlan) -> Option<MovedShare> {
    let runnable = |p: &SaltPlan| {
        !matches!(p.hash, SaltHash::Custom(_) | SaltHash::Phoenix) && p.groups.is_none()
    };
    if !runnable(a) || !runnable(b) {
        return None;
    }
    let pa: Vec<usize> = positions(old, a.inputs)
        .into_iter()
        .collect::<Option<_>>()?;
    let pb: Vec<usize> = positions(new, b.inputs)
        .into_iter()
        .collect::<Option<_>>()?;
    let mut union: Vec<usize> = pa.iter().chain(&pb).copied().collect();
    union.sort_unstable();
    union.dedup();
    let mut domains = Vec::new();
    for &p in &union {
        let (o, n) = (old.fields.get(p)?, new.fields.get(p)?);
        if !super::fields::same_bytes(o, n) {
            return None;
        }
        domains.push(field_values(old, p)?);
    }
    let total = domains
        .iter()
        .try_fold(1usize, |n, d| n.checked_mul(d.len()))?;
    if total == 0 || total > MAX_ENUMERATED {
        return None;
    }
    let mut moved = 0u64;
    for mut n in 0..total {
        let values: Vec<&[u8]> = domains
            .iter()
            .map(|d| {
                let v = &d[n % d.len()];
                n /= d.len();
                v.as_slice()
            })
            .collect();
        let parts = |ps: &[usize]| -> Vec<&[u8]> {
            ps.iter()
                .map(|p| values[union.iter().position(|u| u == p).unwrap_or(0)])
                .collect()
        };
        moved += u64::from(a.bucket(&parts(&pa), None) != b.bucket(&parts(&pb), None));
    }
    Some(MovedShare::Counted {
        moved,
        of: total as u64,
        basis: ShareBasis::EveryInput,
    })
}

/// The share of hash values `h` with `h % a != h % b`, over one period
/// (their least common multiple): exact for a uniform hash.
fn uniform_share(a: &SaltPlan, b: &SaltPlan) -> MovedShare {
    let (x, y) = (u64::from(a.buckets), u64::from(b.buckets));
    let gcd = {
        let (mut p, mut q) = (x, y);
        while q != 0 {
            (p, q) = (q, p % q);
        }
        p.max(1)
    };
    let period = x / gcd * y;
    if period > MAX_PERIOD {
        return MovedShare::Unknown;
    }
    let moved = (0..period).filter(|h| h % x != h % y).count() as u64;
    MovedShare::Counted {
        moved,
        of: period,
        basis: ShareBasis::UniformHash,
    }
}
