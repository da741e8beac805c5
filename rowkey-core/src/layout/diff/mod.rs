//! [`diff`]: what changed between two layouts of one table's keys, and
//! what each change does to the rows already stored under the old one.
//!
//! Each [`Change`] names the field, says what changed and its
//! [`Effect`]: the same bytes (a rename), old keys that still read as
//! before (a variant appended), old keys that fail to decode (loud),
//! old keys that decode to *other values* (silent), rows that are now in
//! another bucket than plans over the new layout look in (silent for
//! plans); and whether new keys sort differently from old ones. The
//! [`Verdict`] sums them up.
//!
//! ```
//! use rowkey::RowKey;
//! use rowkey::layout::{diff, Verdict};
//!
//! mod v1 {
//!     #[derive(rowkey::RowKey)]
//!     pub struct Spend { #[salt(buckets = 32)] pub user: u32, #[desc] pub amount: u64 }
//! }
//! mod v2 {
//!     #[derive(rowkey::RowKey)]
//!     pub struct Spend { #[salt(buckets = 64)] pub user: u32, pub amount: u64 }
//! }
//!
//! let d = diff(v1::Spend::layout(), v2::Spend::layout());
//! assert_eq!(d.verdict(), Verdict::Silent);
//! let text = d.to_string();
//! assert!(text.contains("SILENT amount: #[desc] dropped"), "{text}");
//! assert!(text.contains("72629 reads as 18446744073709478986"), "{text}");
//! assert!(text.contains("SILENT <salt>: 32 buckets, now 64"), "{text}");
//! ```

mod count;
mod fields;
mod outcome;
mod prefix;
mod sample;

pub use count::SampleCount;
pub use outcome::KeyOutcome;
pub use sample::SampleReport;

use count::Scope;

use super::{Fingerprint, Layout};
use core::fmt;

/// The changes from `old` to `new`, each with what it does to rows
/// stored under `old`. Fields are matched by name, and by position where
/// a name is new and the field count is the same (a rename). A salt's
/// moved share is estimated for a uniform hash, or counted over every
/// value of its inputs where they are few; [`LayoutDiff::with_sample`]
/// counts it on the caller's keys instead.
///
/// ```
/// use rowkey::RowKey;
/// use rowkey::layout::{diff, Effect};
/// mod v1 { #[derive(rowkey::RowKey)] pub struct K { pub id: u32 } }
/// mod v2 { #[derive(rowkey::RowKey)] pub struct K { pub uid: u32 } }
/// let d = diff(v1::K::layout(), v2::K::layout());
/// assert!(d.reads_as_before());
/// assert_eq!(d.changes[0].effect, Effect::SameBytes);
/// assert_eq!(d.changes[0].to_string(), "same id -> uid: renamed from id: the same bytes: stored rows read as before");
/// ```
pub fn diff(old: &Layout, new: &Layout) -> LayoutDiff {
    let mut changes = Vec::new();
    if old.name != new.name {
        changes.push(
            Change::new(
                None,
                format!("the key is now called {}, was {}", new.name, old.name),
                Effect::SameBytes,
            )
            .scoped(Scope::Nothing),
        );
    }
    let structural = fields::Structural::of(old, new);
    prefix::compare(old, new, structural, &mut changes);
    fields::compare(old, new, structural, &mut changes);
    LayoutDiff {
        old_fingerprint: old.fingerprint(),
        new_fingerprint: new.fingerprint(),
        changes,
        sample: None,
    }
}

/// What [`diff`] found.
///
/// ```
/// use rowkey::RowKey;
/// use rowkey::layout::{diff, Verdict};
/// mod v1 { #[derive(rowkey::RowKey)] pub struct K { pub id: u32, pub at: u64 } }
/// mod v2 { #[derive(rowkey::RowKey)] pub struct K { pub id: u32 } }
/// let d = diff(v1::K::layout(), v2::K::layout());
/// assert_ne!(d.old_fingerprint, d.new_fingerprint);
/// assert_eq!(d.verdict(), Verdict::FailsLoudly); // 12-byte keys read as 4-byte ones: never
/// assert_eq!(d.silent().count(), 0);
/// assert!(d.to_string().ends_with("stored rows do NOT read as before: they fail to decode (loudly)\n"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutDiff {
    /// The old layout's fingerprint.
    pub old_fingerprint: Fingerprint,
    /// The new layout's fingerprint.
    pub new_fingerprint: Fingerprint,
    /// Every change, layout-wide ones (the salt, the separator, the
    /// order of fields) first.
    pub changes: Vec<Change>,
    /// What happened to the caller's sample keys, if given
    /// ([`with_sample`](Self::with_sample)).
    pub sample: Option<SampleReport>,
}

/// How stored rows fare under the new layout, all changes together:
/// ordered from harmless to silent, so the worst is the
/// [`max`](Ord::max).
///
/// ```
/// use rowkey::layout::Verdict;
/// assert!(Verdict::ReadsAsBefore < Verdict::FailsLoudly && Verdict::FailsLoudly < Verdict::Silent);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// Every stored key reads as before: nothing, or renames, or
    /// additions the old keys do not use.
    ReadsAsBefore,
    /// Stored keys fail to decode (all or some): loud, nothing misread.
    FailsLoudly,
    /// Stored keys may decode to other values, or rows are where plans
    /// over the new layout do not look: nothing says so when it happens.
    Silent,
}

impl LayoutDiff {
    /// All changes together: the worst of their effects.
    pub fn verdict(&self) -> Verdict {
        self.changes
            .iter()
            .map(|c| c.effect.verdict())
            .max()
            .unwrap_or(Verdict::ReadsAsBefore)
    }

    /// Whether every stored key reads as before under the new layout.
    pub fn reads_as_before(&self) -> bool {
        self.verdict() == Verdict::ReadsAsBefore
    }

    /// The changes that nothing would notice.
    pub fn silent(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(|c| c.is_silent())
    }
}

/// One change between two layouts.
///
/// ```
/// use rowkey::RowKey;
/// use rowkey::layout::{diff, Effect};
/// mod v1 {
///     #[derive(rowkey::KeyPart)] pub enum Side { Buy, Sell }
///     #[derive(rowkey::RowKey)] pub struct K { pub side: Side }
/// }
/// mod v2 {
///     #[derive(rowkey::KeyPart)] pub enum Side { Sell, Buy }
///     #[derive(rowkey::RowKey)] pub struct K { pub side: Side }
/// }
/// let d = diff(v1::K::layout(), v2::K::layout());
/// let c = d.changes.iter().find(|c| c.is_silent()).unwrap();
/// assert_eq!(c.field.as_deref(), Some("side"));
/// assert_eq!(c.effect, Effect::DecodesDifferently);
/// assert!(c.what.contains("byte 0 was Buy, now Sell"));
/// assert!(c.sorts_differently);
/// assert!(c.consequence().starts_with("stored keys decode to other values"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The field it is about (`old -> new` when renamed), or
    /// [`SALT_FIELD`](crate::salt::SALT_FIELD) /
    /// `<hash_prefix>` for the
    /// prefix; `None` for the key as a whole.
    pub field: Option<String>,
    /// What changed, in words.
    pub what: String,
    /// What it does to stored rows.
    pub effect: Effect,
    /// New keys sort differently from old ones: a range over both reads
    /// them out of order.
    pub sorts_differently: bool,
    /// An example of the effect (`72629 reads as 18446744073709478986`).
    pub example: Option<String>,
    /// How many of the caller's sample keys this change, by itself,
    /// makes read otherwise ([`LayoutDiff::with_sample`]): each key is
    /// checked against every change, so a key another change misreads
    /// still counts here.
    pub sample: Option<SampleCount>,
    /// What part of a key it is about, to check sample keys against it.
    scope: Scope,
}

impl Change {
    fn new(field: Option<String>, what: String, effect: Effect) -> Change {
        Change {
            field,
            what,
            effect,
            sorts_differently: false,
            example: None,
            sample: None,
            scope: Scope::Key,
        }
    }

    fn scoped(mut self, scope: Scope) -> Change {
        self.scope = scope;
        self
    }

    fn sorting(mut self) -> Change {
        self.sorts_differently = true;
        self
    }

    /// Whether nothing would notice it: stored keys decode to other
    /// values, or plans miss rows.
    pub fn is_silent(&self) -> bool {
        self.effect.verdict() == Verdict::Silent
    }

    /// Its consequence for stored rows, in words.
    pub fn consequence(&self) -> String {
        let mut s = self.effect.to_string();
        if let Some(e) = &self.example {
            s.push_str(&format!(" ({e})"));
        }
        if self.sorts_differently {
            s.push_str("; new keys sort differently from old ones");
        }
        // A moved share already is this count.
        if let (Some(n), false) = (&self.sample, matches!(self.effect, Effect::MovesBucket(_))) {
            s.push_str(&format!("; {n}"));
        }
        s
    }
}

/// What a change does to rows stored under the old layout.
///
/// ```
/// use rowkey::layout::{Effect, MovedShare, Verdict};
/// assert_eq!(Effect::Extends.verdict(), Verdict::ReadsAsBefore);
/// assert_eq!(Effect::MovesBucket(MovedShare::Unknown).verdict(), Verdict::Silent);
/// assert!(Effect::FailsToDecode.to_string().contains("(loudly)"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// The same bytes with the same meaning: a rename.
    SameBytes,
    /// Stored keys read as before; new keys may hold values the old
    /// layout cannot read (a variant appended, a wider type).
    Extends,
    /// Stored keys fail to decode, all or those named: loud, nothing is
    /// misread.
    FailsToDecode,
    /// Silent: stored keys decode to other values (where their bytes
    /// still parse; the others fail).
    DecodesDifferently,
    /// Silent for plans: stored rows sit in another bucket (or under
    /// another hash prefix) than the new layout computes, so plans over
    /// it miss them, and a read by key fails the bucket check.
    MovesBucket(MovedShare),
}

impl Effect {
    /// The verdict of this effect alone.
    pub fn verdict(&self) -> Verdict {
        match self {
            Effect::SameBytes | Effect::Extends => Verdict::ReadsAsBefore,
            Effect::FailsToDecode => Verdict::FailsLoudly,
            Effect::DecodesDifferently | Effect::MovesBucket(_) => Verdict::Silent,
        }
    }
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Effect::SameBytes => f.write_str("the same bytes: stored rows read as before"),
            Effect::Extends => f.write_str(
                "stored keys read as before; new keys may not read under the old layout",
            ),
            Effect::FailsToDecode => {
                f.write_str("stored keys fail to decode (loudly): re-key them")
            }
            Effect::DecodesDifferently => f.write_str(
                "stored keys decode to other values, without an error (those whose bytes \
                 no longer parse fail): re-key them",
            ),
            Effect::MovesBucket(share) => write!(
                f,
                "{share} of stored rows are in another bucket than the new layout puts them: \
                 plans over it miss them, without an error: re-key them"
            ),
        }
    }
}

/// How many stored rows a salt change moves to another bucket.
///
/// ```
/// use rowkey::layout::{MovedShare, ShareBasis};
/// let half = MovedShare::Counted { moved: 32, of: 64, basis: ShareBasis::UniformHash };
/// assert_eq!(half.to_string(), "50.0% (32 of 64 for a uniform hash)");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MovedShare {
    /// Not known: give sample keys ([`LayoutDiff::with_sample`]).
    Unknown,
    /// `moved` of `of`, counted as `basis` says.
    Counted {
        /// Keys or values that move.
        moved: u64,
        /// Keys or values counted.
        of: u64,
        /// What was counted.
        basis: ShareBasis,
    },
}

/// What a [`MovedShare`] counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShareBasis {
    /// The caller's sample keys.
    SampleKeys,
    /// Every value of the salt's inputs: exact for inputs evenly spread.
    EveryInput,
    /// Every hash value over one period of both bucket counts: exact for a
    /// uniform hash.
    UniformHash,
}

impl fmt::Display for MovedShare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MovedShare::Unknown => f.write_str("an unknown share (give sample keys)"),
            MovedShare::Counted { moved, of, basis } => {
                let pct = if of == 0 {
                    0.0
                } else {
                    moved as f64 * 100.0 / of as f64
                };
                let basis = match basis {
                    ShareBasis::SampleKeys => "sample keys",
                    ShareBasis::EveryInput => "every value of the salted fields",
                    ShareBasis::UniformHash => "for a uniform hash",
                };
                write!(f, "{pct:.1}% ({moved} of {of} {basis})")
            }
        }
    }
}

impl fmt::Display for Change {
    /// `SILENT amount: #[desc] dropped: <consequence>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tag = match self.effect.verdict() {
            Verdict::ReadsAsBefore => "same",
            Verdict::FailsLoudly => "LOUD",
            Verdict::Silent => "SILENT",
        };
        write!(f, "{tag} ")?;
        if let Some(field) = &self.field {
            write!(f, "{field}: ")?;
        }
        write!(f, "{}: {}", self.what, self.consequence())
    }
}

impl fmt::Display for LayoutDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "fingerprint {} -> {}",
            self.old_fingerprint, self.new_fingerprint
        )?;
        for c in &self.changes {
            writeln!(f, "  {c}")?;
        }
        if let Some(s) = &self.sample {
            writeln!(f, "{s}")?;
        }
        let silent = self.silent().count();
        match self.verdict() {
            Verdict::ReadsAsBefore if self.changes.is_empty() => {
                writeln!(f, "no change: stored rows read as before")
            }
            Verdict::ReadsAsBefore => writeln!(f, "stored rows read as before"),
            Verdict::FailsLoudly => writeln!(
                f,
                "stored rows do NOT read as before: they fail to decode (loudly)"
            ),
            Verdict::Silent => writeln!(
                f,
                "stored rows do NOT read as before: {silent} silent change(s)"
            ),
        }
    }
}
