//! [`ScanBuilder`]: the engine behind the typed `Key::scan()` builders the
//! derive generates. The generated code only encodes field values into it,
//! in key order; this turns the bytes into a [`ScanPlan`].

use super::{FuzzyKey, ScanPlan};
use crate::buf::KeyBuf;
use crate::codec::{DescTs, Timestamp};
use crate::salt::{HashPrefixPlan, SaltPlan};
use crate::{EncodeError, EncodeErrorKind, KeyWriter};
use core::ops::Bound;

/// The key prefix a query fixes so far, with what is known of its salt
/// bucket. Not called by users: `Key::scan()` wraps it in a typed builder.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct ScanBuilder<const N: usize, const M: usize> {
    key: &'static str,
    buf: KeyBuf<N>,
    /// Bytes of every key that the plan leaves out: the salt prefix.
    strip: usize,
    /// A hash prefix not yet computed (its field is not set yet).
    pending_prefix: bool,
    /// Bytes of salt or hash prefix the key starts with.
    pub(super) initial_prefix: usize,
    salt: Option<SaltPlan>,
    bucket: Option<u32>,
    group: Option<u32>,
    /// The salt inputs fixed to one value: a bit per place in
    /// `salt.inputs`, for [`PlanExplain`](super::PlanExplain).
    salt_fixed: u64,
    error: Option<EncodeError>,
    /// Byte offsets the field descriptions remember: where the salted
    /// fields start and end, for the bucket once they are all set.
    marks: [usize; M],
    /// Where the first field left free (`any()`) starts: the range stops
    /// narrowing there and a fuzzy key takes over.
    free_from: Option<usize>,
    /// `1` at each free byte (bytes past its length are fixed).
    free: KeyBuf<N>,
    /// The first field set so far whose width varies, and where it
    /// starts: the fields after it have no fixed offset.
    varying: Option<(&'static str, usize)>,
    /// After an IN-list: where its last listed field ends (the fields
    /// after it start there), and the field of varying width before it.
    in_list_end: Option<InListEnd>,
    /// A Phoenix key's `00` separators owed after the bytes written:
    /// written only before a later column that is not NULL (a key whose
    /// columns after them are all NULL ends without them). Always 0 for
    /// other keys (`scan::phoenix` writes and counts them).
    pub(super) owed: usize,
    /// Every column of a Phoenix key set to NULL: a key Phoenix refuses,
    /// so no row has it.
    pub(super) all_null: bool,
}

/// Where the keys after every key holding one value of a field start,
/// from that value's bytes: see [`ScanBuilder::bounds`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum After {
    /// The prefix successor: no value's bytes are a prefix of another's.
    Successor,
    /// The value, then `00`: a raw last field, whose longer values
    /// follow.
    Zero,
    /// The value, then `01`: a Phoenix ascending variable-length column
    /// before the last, whose `00` separator (written only before a
    /// later column that is not NULL) is not in the bound.
    One,
}

/// Where the fields after an IN-list start in one combination's key.
#[derive(Debug, Clone, Copy)]
pub(crate) struct InListEnd {
    /// The byte offset.
    pub(crate) at: usize,
    /// The first field before it whose width varies, and where it starts:
    /// what moves `at` from one combination to another.
    pub(crate) varying: Option<(&'static str, usize)>,
}

impl<const N: usize, const M: usize> ScanBuilder<N, M> {
    /// A builder for key struct `key`, whose keys start with `prefix_len`
    /// bytes of salt (`salt`) or hash prefix (`hashed`), left as zeros
    /// here until known.
    pub fn new(key: &'static str, prefix_len: usize, salt: Option<SaltPlan>, hashed: bool) -> Self {
        let mut buf = KeyBuf::new();
        let _ = buf.extend_from_slice(&[0u8; 64][..prefix_len.min(64)]);
        ScanBuilder {
            key,
            buf,
            strip: if salt.is_some() { prefix_len } else { 0 },
            pending_prefix: hashed,
            initial_prefix: prefix_len,
            salt,
            bucket: None,
            group: None,
            salt_fixed: 0,
            error: None,
            marks: [0; M],
            free_from: None,
            free: KeyBuf::new(),
            varying: None,
            in_list_end: None,
            owed: 0,
            all_null: false,
        }
    }

    /// A field is about to be written at the current position: when its
    /// width varies (`fixed` false), the fields after it have no fixed
    /// offset.
    pub(crate) fn note_width(&mut self, field: &'static str, fixed: bool) {
        if !fixed && self.varying.is_none() {
            self.varying = Some((field, self.buf.len()));
        }
    }

    /// `field` has just been fixed to one value: if the salt hashes it,
    /// one input fewer is left for the bucket.
    pub(crate) fn note_fixed(&mut self, field: &'static str) {
        if let Some(salt) = self.salt {
            if let Some(i) = salt.inputs.iter().position(|&input| input == field) {
                self.salt_fixed |= 1u64.checked_shl(i as u32).unwrap_or(0);
            }
        }
    }

    /// An IN-listed field has just been written: the fields after it start
    /// here.
    pub(crate) fn end_in_list(&mut self) {
        self.in_list_end = Some(InListEnd {
            at: self.buf.len(),
            varying: self.varying,
        });
    }

    /// Where the fields after the last IN-listed one start (`None`: no
    /// IN-list).
    pub(crate) fn in_list_end(&self) -> Option<InListEnd> {
        self.in_list_end
    }

    /// Leaves the next field free: `width` placeholder bytes any value may
    /// fill. `None` (a field whose width varies) is an error: what follows
    /// would have no fixed offset.
    pub fn leave_free(&mut self, field: &'static str, width: Option<usize>) {
        if self.error.is_some() {
            return;
        }
        // A free Phoenix column is fixed-width, never NULL: the
        // separators owed before it are written.
        self.pay_owed();
        let Some(width) = width else {
            return self.fail(EncodeError::new(
                self.key,
                field,
                self.buf.len(),
                EncodeErrorKind::Invalid(
                    "a field whose width varies cannot be left free: the fields after it would have no fixed offset",
                ),
            ));
        };
        let at = self.buf.len();
        self.free_from.get_or_insert(at);
        let zeros = [0u8; 64];
        let ones = [1u8; 64];
        // The mask is kept as long as the bytes up to here.
        while self.free.len() < at {
            let n = (at - self.free.len()).min(64);
            let _ = self.free.extend_from_slice(&zeros[..n]);
        }
        let mut left = width;
        while left > 0 {
            let n = left.min(64);
            if !self.buf.extend_from_slice(&zeros[..n]) || !self.free.extend_from_slice(&ones[..n])
            {
                let needed = self.buf.len() + left;
                return self.fail(EncodeError::new(
                    self.key,
                    field,
                    at,
                    EncodeErrorKind::BufferTooSmall {
                        needed,
                        available: N,
                    },
                ));
            }
            left -= n;
        }
    }

    /// Whether a field was left free.
    pub fn has_free(&self) -> bool {
        self.free_from.is_some()
    }

    /// The pattern of every key the query matches: the bytes written, the
    /// free fields' bytes free, and the salt or a pending hash prefix free
    /// (the plan's ranges fix the bucket).
    fn fuzzy_key(&self) -> Result<FuzzyKey<N>, EncodeError> {
        let bytes = self.buf.as_bytes();
        let head = if self.strip > 0 || self.pending_prefix {
            self.initial_prefix.min(bytes.len())
        } else {
            0
        };
        let full = |_| {
            EncodeError::new(
                self.key,
                "",
                bytes.len(),
                EncodeErrorKind::BufferTooSmall {
                    needed: bytes.len(),
                    available: N,
                },
            )
        };
        let mut key = FuzzyKey::new();
        key.push_free(head).map_err(full)?;
        let mask = self.free.as_bytes();
        let mut at = head;
        while at < bytes.len() {
            let free = mask.get(at) == Some(&1);
            let end = (at..bytes.len())
                .find(|&i| (mask.get(i) == Some(&1)) != free)
                .unwrap_or(bytes.len());
            if free {
                key.push_free(end - at).map_err(full)?;
            } else {
                key.push_fixed(&bytes[at..end]).map_err(full)?;
            }
            at = end;
        }
        Ok(key)
    }

    /// With a free field: the plan of the fields fixed before it, keeping
    /// only keys that match the whole pattern.
    fn narrowed(&self) -> Result<Option<ScanPlan<N>>, EncodeError> {
        let Some(at) = self.free_from else {
            return Ok(None);
        };
        let mut head = *self;
        head.free_from = None;
        head.buf.truncate(at);
        let plan = head.prefix()?;
        Ok(Some(plan.with_fuzzy(self.fuzzy_key()?)))
    }

    /// Remembers byte offset `pos` as mark `i`.
    pub fn set_mark(&mut self, i: usize, pos: usize) {
        if let Some(m) = self.marks.get_mut(i) {
            *m = pos;
        }
    }

    /// Mark `i` (0 when never set).
    pub fn mark(&self, i: usize) -> usize {
        self.marks.get(i).copied().unwrap_or(0)
    }

    /// The name of the key struct, for errors.
    pub fn key_name(&self) -> &'static str {
        self.key
    }

    /// Appends bytes written by `f` (a field's encoding). After an error
    /// the builder keeps the first error and ignores further writes.
    pub fn write(&mut self, f: impl FnOnce(&mut KeyWriter<'_>) -> Result<(), EncodeError>) {
        if self.error.is_some() {
            return;
        }
        if let Err(e) = self.buf.append(self.key, f) {
            self.error = Some(e);
        }
    }

    /// Records an error found outside a write.
    pub fn fail(&mut self, e: EncodeError) {
        self.error.get_or_insert(e);
    }

    /// Bytes written so far, the zeroed prefix included.
    pub fn bytes(&self) -> &[u8] {
        self.buf.as_bytes()
    }

    /// The position the next write starts at.
    pub fn position(&self) -> usize {
        self.buf.len()
    }

    /// The query fixes every salt input: its keys are in this bucket.
    pub fn set_bucket(&mut self, bucket: u32) {
        // A salted field left free: the bucket is not known.
        if self.free_from.is_some() {
            return;
        }
        self.bucket = Some(bucket);
    }

    /// The hashed field is set (bytes `start..end`): its hash prefix
    /// starts every key the query matches.
    pub fn set_hash_prefix(&mut self, plan: &HashPrefixPlan, start: usize, end: usize) {
        let mut prefix = [0u8; 64];
        let fields = self.buf.as_bytes();
        plan.render(&fields[start..end], &mut prefix);
        // The prefix's zeros (`new`) are in the buffer already.
        let bytes = self.buf.as_mut_bytes();
        bytes[..plan.len].copy_from_slice(&prefix[..plan.len]);
        if let Some(sep) = plan.separator {
            bytes[plan.len] = sep;
        }
        self.pending_prefix = false;
    }

    /// The caller knows the bucket (a custom hash the builder cannot
    /// compute from a partial key): scan only it.
    pub fn pin_bucket(&mut self, bucket: u32) {
        match self.salt {
            Some(s) if bucket < s.buckets => self.bucket = Some(bucket),
            _ => self.fail(EncodeError::new(
                self.key,
                crate::salt::SALT_FIELD,
                0,
                crate::EncodeErrorKind::Invalid("in_bucket: no such salt bucket"),
            )),
        }
    }

    /// The group fixed so far.
    pub fn group(&self) -> Option<u32> {
        self.group
    }

    /// The query fixes the bucket group.
    pub fn set_group(&mut self, group: u32) {
        self.group = Some(group);
    }

    /// An error when a field was left free (the typed steps already refuse
    /// what would reach this).
    fn exact(&self, why: &'static str) -> Result<(), EncodeError> {
        match self.free_from {
            Some(at) => Err(EncodeError::new(
                self.key,
                "",
                at,
                EncodeErrorKind::Invalid(why),
            )),
            None => Ok(()),
        }
    }

    fn checked(&self) -> Result<(), EncodeError> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn buckets(&self) -> core::ops::Range<u32> {
        match (self.salt, self.bucket, self.group) {
            (None, ..) => 0..1,
            (Some(_), Some(b), _) => b..b + 1,
            (Some(s), None, Some(g)) => match s.groups {
                Some(gs) => g * gs.per_group..(g + 1) * gs.per_group,
                None => 0..s.buckets,
            },
            (Some(s), None, None) => 0..s.buckets,
        }
    }

    /// `key` without the salt prefix: the plan adds each bucket's.
    fn suffix(&self, key: &KeyBuf<N>) -> KeyBuf<N> {
        KeyBuf::from_slice(key.as_bytes().get(self.strip..).unwrap_or_default()).unwrap_or_default()
    }

    /// Before a hash prefix is known, nothing narrows the scan: every row.
    fn whole_table(&self) -> Option<ScanPlan<N>> {
        self.pending_prefix
            .then(|| ScanPlan::new(None, 0..1, KeyBuf::new(), None))
    }

    fn plan(&self, start: KeyBuf<N>, stop: Option<KeyBuf<N>>) -> ScanPlan<N> {
        let start = self.suffix(&start);
        let stop = stop.map(|s| self.suffix(&s));
        let buckets = self.buckets();
        let mut plan = ScanPlan::new(self.salt, buckets.clone(), start, stop);
        plan.fan_out.buckets_each = buckets.len() as u32;
        if buckets.len() > 1 {
            let inputs = self.salt.map_or(0, |s| s.inputs.len().min(64));
            let all = if inputs == 64 {
                u64::MAX
            } else {
                (1u64 << inputs) - 1
            };
            plan.fan_out.unfixed_salt = all & !self.salt_fixed;
        }
        plan
    }

    /// Every key that starts with the fields fixed so far.
    pub fn prefix(&self) -> Result<ScanPlan<N>, EncodeError> {
        self.checked()?;
        if self.all_null {
            return Ok(ScanPlan::empty());
        }
        if let Some(plan) = self.narrowed()? {
            return Ok(plan);
        }
        if let Some(all) = self.whole_table() {
            return Ok(all);
        }
        Ok(self.plan(self.buf, self.successor_of_written()))
    }

    /// The end of what starts with the bytes written; `None` when that is
    /// the end of the bucket (nothing written after the salt) or table.
    fn successor_of_written(&self) -> Option<KeyBuf<N>> {
        // With separators owed, every key with the bytes written goes on
        // with them (or ends before them): past them is past every one.
        let mut stop = self.with_owed().unwrap_or(self.buf);
        (stop.len() > self.strip && stop.advance_past_prefix() && stop.len() > self.strip)
            .then_some(stop)
    }

    /// The bytes written and the separators owed after them.
    fn with_owed(&self) -> Result<KeyBuf<N>, EncodeError> {
        let mut b = *self;
        b.pay_owed();
        b.checked().map(|()| b.buf)
    }

    /// Writes the `00` separators owed (a Phoenix column that is not NULL
    /// comes next).
    pub(crate) fn pay_owed(&mut self) {
        let owed = core::mem::take(&mut self.owed);
        if owed > 0 {
            self.write(|w| w.put_repeated(0x00, owed));
        }
    }

    /// Exactly the key written (every field fixed).
    pub fn point(&self) -> Result<ScanPlan<N>, EncodeError> {
        self.checked()?;
        if self.all_null {
            return Ok(ScanPlan::empty());
        }
        if let Some(plan) = self.narrowed()? {
            return Ok(plan);
        }
        if let Some(all) = self.whole_table() {
            return Ok(all);
        }
        let mut stop = self.buf;
        if !stop.extend_from_slice(&[0]) {
            return Err(EncodeError::new(
                self.key,
                "",
                self.buf.len(),
                crate::EncodeErrorKind::BufferTooSmall {
                    needed: self.buf.len() + 1,
                    available: N,
                },
            ));
        }
        Ok(self.plan(self.buf, Some(stop)))
    }

    /// The full key with its salt bucket written, for a point get.
    pub fn key(&self) -> Result<KeyBuf<N>, EncodeError> {
        self.checked()?;
        if self.all_null {
            return Err(EncodeError::new(
                self.key,
                "",
                self.buf.len(),
                EncodeErrorKind::Invalid(
                    "every key column is NULL: Phoenix refuses such a key (primary key may not be null)",
                ),
            ));
        }
        self.exact("a whole key cannot have a free field")?;
        let mut key = self.buf;
        if let (Some(salt), Some(bucket)) = (self.salt, self.bucket) {
            salt.write_prefix(bucket, &mut key.as_mut_bytes()[..salt.prefix_len()]);
        }
        Ok(key)
    }

    fn encode_bound(
        &self,
        bound: Bound<impl FnOnce(&mut KeyWriter<'_>) -> Result<(), EncodeError>>,
    ) -> Result<Bound<KeyBuf<N>>, EncodeError> {
        let write = |f| {
            let mut b = *self;
            // A bound's value is not NULL: the separators owed come first.
            b.pay_owed();
            b.write(f);
            b.checked().map(|()| b.buf)
        };
        Ok(match bound {
            Bound::Included(f) => Bound::Included(write(f)?),
            Bound::Excluded(f) => Bound::Excluded(write(f)?),
            Bound::Unbounded => Bound::Unbounded,
        })
    }

    /// Keys whose next field lies between `lo` and `hi` (values written by
    /// the closures). `descending`: the field's bytes sort opposite to its
    /// values, so the bounds swap. `prefix_free`: no encoded value is a
    /// prefix of another (fixed width, escaped or terminated), so "after
    /// every key with this value" is the prefix successor; otherwise (a
    /// raw last field) it is the value followed by `0x00`.
    pub fn bounds<L, H>(
        &self,
        lo: Bound<L>,
        hi: Bound<H>,
        descending: bool,
        prefix_free: bool,
    ) -> Result<ScanPlan<N>, EncodeError>
    where
        L: FnOnce(&mut KeyWriter<'_>) -> Result<(), EncodeError>,
        H: FnOnce(&mut KeyWriter<'_>) -> Result<(), EncodeError>,
    {
        let after = if prefix_free {
            After::Successor
        } else {
            After::Zero
        };
        self.bounds_after(lo, hi, descending, after, None)
    }

    /// [`bounds`](Self::bounds), with where the keys after a value's
    /// start (`after`) and, for an unbounded start, the byte after the
    /// bytes written that the field's least value starts at or above
    /// (`floor`: a Phoenix column's NULLs sort below its values, and a
    /// range holds no NULL).
    pub(crate) fn bounds_after<L, H>(
        &self,
        lo: Bound<L>,
        hi: Bound<H>,
        descending: bool,
        after: After,
        floor: Option<u8>,
    ) -> Result<ScanPlan<N>, EncodeError>
    where
        L: FnOnce(&mut KeyWriter<'_>) -> Result<(), EncodeError>,
        H: FnOnce(&mut KeyWriter<'_>) -> Result<(), EncodeError>,
    {
        self.checked()?;
        let ends = (after, floor);
        if self.free_from.is_some() {
            return self.filtered_bounds(lo, hi, descending, ends);
        }
        if let Some(all) = self.whole_table() {
            return Ok(all);
        }
        Ok(match self.key_bounds(lo, hi, descending, ends)? {
            Some((start, stop)) => self.plan(start, stop),
            None => ScanPlan::empty(),
        })
    }

    /// After a field left free: the plan of the fields before it, with the
    /// pattern of the fields fixed so far and the range as the bytes after
    /// the pattern (a residual filter, in [`FuzzyKey::with_tail_range`]).
    fn filtered_bounds<L, H>(
        &self,
        lo: Bound<L>,
        hi: Bound<H>,
        descending: bool,
        ends: (After, Option<u8>),
    ) -> Result<ScanPlan<N>, EncodeError>
    where
        L: FnOnce(&mut KeyWriter<'_>) -> Result<(), EncodeError>,
        H: FnOnce(&mut KeyWriter<'_>) -> Result<(), EncodeError>,
    {
        let Some((start, stop)) = self.key_bounds(lo, hi, descending, ends)? else {
            return Ok(ScanPlan::empty());
        };
        let written = self.buf.as_bytes();
        let at = written.len();
        // A bound that climbed into the bytes written (an exclusive bound
        // above every value of the field) leaves no key after the
        // pattern's bytes, as a lower bound; none above them, as an upper.
        fn tail<'k>(k: &'k [u8], written: &[u8]) -> Option<&'k [u8]> {
            (k.get(..written.len()) == Some(written)).then(|| &k[written.len()..])
        }
        let Some(lo) = tail(start.as_bytes(), written) else {
            return Ok(ScanPlan::empty());
        };
        let hi = stop.as_ref().and_then(|s| tail(s.as_bytes(), written));
        if hi.is_some_and(|hi| hi <= lo) {
            // Bounds in the wrong order: nothing, and nothing to read.
            return Ok(ScanPlan::empty());
        }
        let Some(plan) = self.narrowed()? else {
            return Ok(ScanPlan::empty());
        };
        let fuzzy = plan
            .fuzzy()
            .copied()
            .and_then(|f| f.with_tail_range(lo, hi));
        match fuzzy {
            Some(fuzzy) => Ok(plan.with_fuzzy(fuzzy)),
            None => Err(EncodeError::new(
                self.key,
                "",
                at,
                EncodeErrorKind::BufferTooSmall {
                    needed: start.len().max(stop.map_or(0, |s| s.len())),
                    available: N,
                },
            )),
        }
    }

    /// The whole-key bounds of a range on the next field (salt prefix
    /// included, as zeros or the bucket), or `None` when no key is in it.
    fn key_bounds<L, H>(
        &self,
        lo: Bound<L>,
        hi: Bound<H>,
        descending: bool,
        (after_value, floor): (After, Option<u8>),
    ) -> Result<Option<(KeyBuf<N>, Option<KeyBuf<N>>)>, EncodeError>
    where
        L: FnOnce(&mut KeyWriter<'_>) -> Result<(), EncodeError>,
        H: FnOnce(&mut KeyWriter<'_>) -> Result<(), EncodeError>,
    {
        // A `#[text]` bound beyond what the field can hold still has a
        // meaning: above every value (too many digits) or below every value
        // (negative). Anything else that cannot be encoded is an error.
        let lo = match self.encode_bound(lo) {
            Err(e) if e.kind() == EncodeErrorKind::NegativeText => Bound::Unbounded,
            Err(e) if matches!(e.kind(), EncodeErrorKind::TooManyDigits { .. }) => return Ok(None),
            other => other?,
        };
        let hi = match self.encode_bound(hi) {
            Err(e) if e.kind() == EncodeErrorKind::NegativeText => return Ok(None),
            Err(e) if matches!(e.kind(), EncodeErrorKind::TooManyDigits { .. }) => Bound::Unbounded,
            other => other?,
        };
        let (from, to) = if descending { (hi, lo) } else { (lo, hi) };
        // The first key after every key that holds exactly `k`'s value.
        let after = |mut k: KeyBuf<N>| -> Option<KeyBuf<N>> {
            match after_value {
                After::Successor => k.advance_past_prefix().then_some(k),
                After::Zero => k.extend_from_slice(&[0]).then_some(k),
                After::One => k.extend_from_slice(&[1]).then_some(k),
            }
        };
        // `after` can climb past every byte after the salt prefix (they
        // were all 0xFF): then nothing follows within the bucket.
        let within = |k: Option<KeyBuf<N>>| k.filter(|k| k.len() > self.strip);
        let start = match from {
            Bound::Included(k) => k,
            Bound::Excluded(k) => match within(after(k)) {
                Some(k) => k,
                None => return Ok(None),
            },
            Bound::Unbounded => match floor {
                None => self.with_owed()?,
                Some(byte) => {
                    let mut k = self.with_owed()?;
                    if !k.extend_from_slice(&[byte]) {
                        return Err(EncodeError::new(
                            self.key,
                            "",
                            k.len(),
                            EncodeErrorKind::BufferTooSmall {
                                needed: k.len() + 1,
                                available: N,
                            },
                        ));
                    }
                    k
                }
            },
        };
        // `None`: to the end of the bucket (of the table, unsalted).
        let stop = match to {
            // An explicit stop, even an empty one (which matches nothing).
            Bound::Excluded(k) => Some(k),
            Bound::Included(k) => within(after(k)),
            Bound::Unbounded => self.successor_of_written(),
        };
        Ok(Some((start, stop)))
    }

    /// Keys whose `#[desc_ts]` field (written with `codec`) lies in
    /// `lo..hi` of timestamps; bounds outside `0..=i64::MAX` are clamped,
    /// and a window outside it matches nothing.
    pub fn time_window<T: Timestamp>(
        &self,
        codec: DescTs,
        lo: Bound<T>,
        hi: Bound<T>,
    ) -> Result<ScanPlan<N>, EncodeError> {
        const MAX: i128 = i64::MAX as i128;
        let lo = match lo.map(Timestamp::as_i128) {
            Bound::Included(t) | Bound::Excluded(t) if t < 0 => Bound::Unbounded,
            Bound::Included(t) if t > MAX => return Ok(ScanPlan::empty()),
            Bound::Excluded(t) if t >= MAX => return Ok(ScanPlan::empty()),
            b => b,
        };
        let hi = match hi.map(Timestamp::as_i128) {
            Bound::Excluded(t) if t <= 0 => return Ok(ScanPlan::empty()),
            Bound::Included(t) if t < 0 => return Ok(ScanPlan::empty()),
            Bound::Included(t) | Bound::Excluded(t) if t > MAX => Bound::Unbounded,
            b => b,
        };
        let put = |t: i128| move |w: &mut KeyWriter<'_>| codec.put(w, t as i64);
        self.bounds(lo.map(put), hi.map(put), true, true)
    }
}

impl<const N: usize, const M: usize> ScanBuilder<N, M> {
    /// Keys whose next field, a text or bytes field written with `codec`,
    /// lies between `lo` and `hi`. Bounds longer than the field can hold
    /// are cut to its length with the inclusivity that keeps exactly the
    /// same values ([`fit_start`](super::fit::fit_start)).
    pub fn fitted_bounds(
        &self,
        field: &'static str,
        codec: crate::codec::BytesCodec,
        is_text: bool,
        lo: Bound<&[u8]>,
        hi: Bound<&[u8]>,
        prefix_free: bool,
    ) -> Result<ScanPlan<N>, EncodeError> {
        fn write<'b>(
            field: &'static str,
            codec: crate::codec::BytesCodec,
            is_text: bool,
            b: &'b [u8],
        ) -> impl FnOnce(&mut KeyWriter<'_>) -> Result<(), EncodeError> + 'b {
            move |w| {
                w.field(field);
                codec.put(w, b, is_text)
            }
        }
        let lo = super::fit::fit_start(lo, codec.max_len).map(|b| write(field, codec, is_text, b));
        let hi = super::fit::fit_end(hi, codec.max_len).map(|b| write(field, codec, is_text, b));
        self.bounds(lo, hi, codec.desc, prefix_free)
    }
}
