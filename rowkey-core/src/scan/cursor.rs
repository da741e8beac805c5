//! [`Cursor`]: where the next page of a plan starts, as a token a client
//! can hold (a URL-safe string, or bytes), and [`InvalidCursor`]: why a
//! token handed back is not one this plan gave out.

use super::base64url::{self, Base64Error};
use super::ScanPlan;
use crate::{KeyDisplay, HBASE_MAX_KEY_LEN};
use core::fmt;
use core::str::FromStr;
use md5::{Digest, Md5};

/// The token format: a version byte, the plan's fingerprint, the count,
/// the key, the checksum. Another version is refused, never misread.
const VERSION: u8 = 1;
/// Bytes before the key: the version, the fingerprint, the count.
const HEADER: usize = 1 + 8 + 8;
/// Bytes of the checksum, after the key.
pub(super) const CHECKSUM: usize = 8;
/// The longest token: a key as long as HBase allows (every layout is
/// checked against it), the header and the checksum.
const MAX_TOKEN: usize = HEADER + HBASE_MAX_KEY_LEN + CHECKSUM;

/// Where the next page of a plan starts: after the last row returned,
/// with the rows returned so far counted against the plan's limit (a plan
/// limited to 25 rows gives 25 rows over all its pages, not 25 a page).
///
/// A service hands it to its client as a string (`to_string()`, URL-safe
/// base64 without padding) and parses it back (`str::parse`); `to_bytes`
/// and `from_bytes` are the same token as bytes. The token holds a format
/// version, a fingerprint of the plan that gave it out (its ranges,
/// direction, order, merge offset, limit and fuzzy key), the last row key,
/// the count and a checksum. The pager checks it against the plan it is
/// given: a cursor of another query, or one cut, changed, too long or with
/// a count no page gives, is an [`InvalidCursor`] error, never another
/// page.
///
/// # Not a signature
///
/// The checksum (the first 8 bytes of an MD5 over the token) catches
/// mistakes: a truncated, mistyped or mangled token, a cursor of another
/// query. It is not a signature: anyone can compute it, so a client that
/// means to can forge a token for any row key of the same plan (the pager
/// still reads only rows of the plan, once each, and never panics). The
/// token shows the last row key in base64. A service whose clients must
/// not read or choose it encrypts the bytes with an AEAD under a key of
/// its own (AES-GCM or ChaCha20-Poly1305, a fresh nonce per token, the
/// nonce sent with it), hands out `base64url(nonce ++ ciphertext)`, and
/// decrypts before [`from_bytes`](Self::from_bytes): the AEAD tag then
/// authenticates the token and the key stays hidden.
///
/// ```
/// use rowkey::scan::{page, Cursor, InvalidCursor, ScanRange};
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Op { user: u32, seq: u32 }
///
/// let table: Vec<Vec<u8>> = (0..10).map(|seq| Op { user: 7, seq }.to_vec().unwrap()).collect();
/// let read = |r: ScanRange<{ Op::MAX_LEN + 1 }>, limit: usize| -> Vec<Vec<u8>> {
///     table.iter().filter(|k| r.contains(k)).take(limit).cloned().collect()
/// };
/// let plan = Op::scan().user.eq(7).plan()?;
/// let first = page(&plan, None, 4, read)?;
/// // To the client and back, as a string.
/// let token = first.next.unwrap().to_string();
/// let resume: Cursor = token.parse()?;
/// assert_eq!(page(&plan, Some(&resume), 4, read)?.rows, table[4..8]);
/// // Another query's cursor is refused.
/// let other = Op::scan().user.eq(8).plan()?;
/// assert!(matches!(page(&other, Some(&resume), 4, read), Err(InvalidCursor::OtherPlan { .. })));
/// // So is a changed token.
/// let cut = &token[..token.len() - 1];
/// assert!(cut.parse::<Cursor>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cursor {
    plan: u64,
    after: Vec<u8>,
    delivered: u64,
}

impl Cursor {
    /// A cursor of `plan`: its next page starts after row key `after`,
    /// `delivered` rows having been returned before it. The pager makes
    /// these; a cursor made here is checked as a client's is.
    pub fn new<const N: usize>(plan: &ScanPlan<N>, after: Vec<u8>, delivered: u64) -> Self {
        Cursor {
            plan: fingerprint(plan),
            after,
            delivered,
        }
    }

    /// The cursor that follows a page of `plan` whose last row is `after`,
    /// or an error when the count would overflow.
    pub(crate) fn following(
        plan_fingerprint: u64,
        after: &[u8],
        delivered: u64,
        rows: usize,
    ) -> Result<Self, InvalidCursor> {
        let delivered = u64::try_from(rows)
            .ok()
            .and_then(|rows| delivered.checked_add(rows))
            .ok_or(InvalidCursor::ImpossibleCount {
                delivered,
                limit: None,
            })?;
        Ok(Cursor {
            plan: plan_fingerprint,
            after: after.to_vec(),
            delivered,
        })
    }

    /// The last row key returned.
    pub fn after(&self) -> &[u8] {
        &self.after
    }

    /// Rows returned by the pages before.
    pub fn delivered(&self) -> u64 {
        self.delivered
    }

    /// The fingerprint of the plan the cursor pages (see [`Cursor`]).
    pub fn plan_fingerprint(&self) -> u64 {
        self.plan
    }

    /// The token as bytes: the version, the plan's fingerprint, the count
    /// (8 bytes each, big-endian), the key, then the checksum (8 bytes).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + self.after.len() + CHECKSUM);
        out.push(VERSION);
        out.extend_from_slice(&self.plan.to_be_bytes());
        out.extend_from_slice(&self.delivered.to_be_bytes());
        out.extend_from_slice(&self.after);
        let sum = checksum(&out);
        out.extend_from_slice(&sum);
        out
    }

    /// A cursor from [`to_bytes`](Self::to_bytes): an error for bytes cut
    /// short, too long, of another version or whose checksum fails. The
    /// plan is checked when the cursor is used.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, InvalidCursor> {
        let body = token_body(bytes, VERSION, HEADER + CHECKSUM, MAX_TOKEN)?;
        let word = |at: usize| u64::from_be_bytes(body[at..at + 8].try_into().unwrap_or_default());
        Ok(Cursor {
            plan: word(1),
            delivered: word(9),
            after: body[HEADER..].to_vec(),
        })
    }

    /// Whether the cursor can resume `plan`: the plan that gave it out, a
    /// key the plan selects and fits in its keys' `N - 1` bytes (bucket
    /// prefix included), a count some page gives (at least 1, under the
    /// plan's limit). `fingerprint` is the plan's.
    pub(crate) fn check<const N: usize>(
        &self,
        plan: &ScanPlan<N>,
        fingerprint: u64,
    ) -> Result<(), InvalidCursor> {
        if self.plan != fingerprint {
            return Err(InvalidCursor::OtherPlan {
                cursor: self.plan,
                plan: fingerprint,
            });
        }
        let max = N.saturating_sub(1);
        if self.after.len() > max {
            return Err(InvalidCursor::KeyTooLong {
                len: self.after.len(),
                max,
            });
        }
        if !plan.contains(&self.after) {
            return Err(InvalidCursor::KeyOutsidePlan {
                key: self.after.clone(),
            });
        }
        let limit = plan.limit().map(|l| l as u64);
        if self.delivered == 0 || limit.is_some_and(|l| self.delivered >= l) {
            return Err(InvalidCursor::ImpossibleCount {
                delivered: self.delivered,
                limit,
            });
        }
        Ok(())
    }
}

/// The token as URL-safe base64 without padding (RFC 4648 §5).
impl fmt::Display for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::new();
        base64url::encode(&self.to_bytes(), &mut text);
        f.write_str(&text)
    }
}

/// A cursor from its [`Display`](fmt::Display) form.
impl FromStr for Cursor {
    type Err = InvalidCursor;

    fn from_str(s: &str) -> Result<Self, InvalidCursor> {
        // Refused before decoding: a long string costs nothing.
        let max = base64url::encoded_len(MAX_TOKEN);
        if s.len() > max {
            return Err(InvalidCursor::TooLong { len: s.len(), max });
        }
        let min = base64url::encoded_len(HEADER + CHECKSUM);
        let bytes = token_bytes(s, min)?;
        // Lengths as the client holds the token: in characters.
        Cursor::from_bytes(&bytes).map_err(|e| match e {
            InvalidCursor::Truncated { .. } => InvalidCursor::Truncated { len: s.len(), min },
            InvalidCursor::TooLong { .. } => InvalidCursor::TooLong { len: s.len(), max },
            e => e,
        })
    }
}

/// A token's body (what its checksum covers), once its length is within
/// `min..=max`, its first byte is `version` and its checksum holds: the
/// checks every cursor format makes, in this order.
pub(super) fn token_body(
    bytes: &[u8],
    version: u8,
    min: usize,
    max: usize,
) -> Result<&[u8], InvalidCursor> {
    let len = bytes.len();
    if len < min {
        return Err(InvalidCursor::Truncated { len, min });
    }
    if len > max {
        return Err(InvalidCursor::TooLong { len, max });
    }
    // The version first: another version's token may be laid out, and
    // summed, otherwise.
    if bytes[0] != version {
        return Err(InvalidCursor::UnknownVersion { version: bytes[0] });
    }
    let (body, sum) = bytes.split_at(len - CHECKSUM);
    if checksum(body) != sum {
        return Err(InvalidCursor::ChecksumMismatch);
    }
    Ok(body)
}

/// A token's bytes from its text, or why the text is none; `min` is the
/// shortest token's length in characters.
pub(super) fn token_bytes(s: &str, min: usize) -> Result<Vec<u8>, InvalidCursor> {
    base64url::decode(s).map_err(|e| match e {
        Base64Error::Character { offset } => InvalidCursor::NotBase64Url { offset },
        Base64Error::Length { chars } => InvalidCursor::Truncated { len: chars, min },
        Base64Error::NonCanonical { offset } => InvalidCursor::NotCanonical { offset },
    })
}

/// The first 8 bytes of the MD5 of `body`.
pub(super) fn checksum(body: &[u8]) -> [u8; CHECKSUM] {
    let digest: [u8; 16] = Md5::digest(body).into();
    let mut sum = [0; CHECKSUM];
    sum.copy_from_slice(&digest[..CHECKSUM]);
    sum
}

impl<const N: usize> ScanPlan<N> {
    /// What identifies the plan's pages (its ranges, bucket prefixes
    /// included, direction, merge order and offset, limit and fuzzy key):
    /// the fingerprint a [`Cursor`] carries, for pagers of other kinds
    /// (a store's cell pages) to build theirs on.
    pub fn page_fingerprint(&self) -> u64 {
        fingerprint(self)
    }
}

/// What identifies a plan's pages: its ranges (bucket prefixes included),
/// direction, merge order and offset, limit and fuzzy key, each
/// length-prefixed so no two plans write the same bytes.
pub(crate) fn fingerprint<const N: usize>(plan: &ScanPlan<N>) -> u64 {
    let mut h = Md5::new();
    let mut put = |bytes: &[u8]| {
        h.update((bytes.len() as u64).to_be_bytes());
        h.update(bytes);
    };
    put(b"rowkey plan 1");
    put(&[u8::from(plan.is_reversed())]);
    put(&(plan.prefix_len() as u64).to_be_bytes());
    put(&(plan.merge_offset() as u64).to_be_bytes());
    match plan.limit() {
        Some(l) => put(&(l as u64).to_be_bytes()),
        None => put(b""),
    }
    match plan.fuzzy() {
        Some(f) => {
            put(f.bytes());
            put(f.mask());
            // Only with a tail range, so other plans' cursors stay valid.
            if let Some((lo, hi)) = f.tail_range() {
                put(b"tail range");
                put(lo);
                put(hi.unwrap_or(b"to the end"));
                put(&[u8::from(hi.is_some())]);
            }
        }
        None => put(b"no fuzzy key"),
    }
    for r in plan.ranges() {
        put(r.start());
        match r.stop() {
            Some(stop) => put(stop),
            None => put(b"to the end"),
        }
    }
    let digest: [u8; 16] = h.finalize().into();
    u64::from_be_bytes(digest[..8].try_into().unwrap_or_default())
}

/// Why a cursor was refused: it was not given out by this plan's pages,
/// or was changed on the way back. Each says what was wrong.
///
/// ```
/// use rowkey::scan::{Cursor, InvalidCursor};
/// assert_eq!(
///     "abc!".parse::<Cursor>(),
///     Err(InvalidCursor::NotBase64Url { offset: 3 })
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum InvalidCursor {
    /// The character at this byte offset of the string is not URL-safe
    /// base64 (`A-Z a-z 0-9 - _`, no padding).
    NotBase64Url {
        /// Byte offset in the string.
        offset: usize,
    },
    /// Shorter than any token (cut short).
    Truncated {
        /// Its length as the client holds the token: characters of a
        /// string (`str::parse`), bytes of bytes (`from_bytes`).
        len: usize,
        /// The shortest token.
        min: usize,
    },
    /// Longer than any token (a key longer than HBase allows).
    TooLong {
        /// Its length as the client holds the token: characters of a
        /// string (`str::parse`), bytes of bytes (`from_bytes`).
        len: usize,
        /// The longest token.
        max: usize,
    },
    /// The checksum does not match: the token was changed or cut.
    ChecksumMismatch,
    /// The last character, at this byte offset of the string, sets bits
    /// that carry no byte: no cursor is written so, so the token was
    /// changed (or cut).
    NotCanonical {
        /// Byte offset in the string.
        offset: usize,
    },
    /// The token's first byte is not the format cursors are written in:
    /// the token was changed, or is not a cursor of this crate.
    UnknownVersion {
        /// The token's version byte.
        version: u8,
    },
    /// The cursor pages another query (another plan's ranges, direction,
    /// order, limit or fuzzy key).
    OtherPlan {
        /// The cursor's plan fingerprint.
        cursor: u64,
        /// This plan's.
        plan: u64,
    },
    /// The resume key is longer than the plan's keys can be (bucket prefix
    /// included).
    KeyTooLong {
        /// Its length.
        len: usize,
        /// The plan's longest key.
        max: usize,
    },
    /// The resume key is not one the plan selects.
    KeyOutsidePlan {
        /// The key.
        key: Vec<u8>,
    },
    /// A cell cursor whose checksum holds but whose body is not one a
    /// pager writes (a token made by other means).
    Malformed {
        /// What is wrong with it.
        why: &'static str,
    },
    /// A count of rows delivered that no page gives: 0, not under the
    /// plan's limit, or so large the next count would overflow.
    ImpossibleCount {
        /// The cursor's count.
        delivered: u64,
        /// The plan's limit, if any.
        limit: Option<u64>,
    },
}

impl fmt::Display for InvalidCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid cursor: ")?;
        match self {
            InvalidCursor::NotBase64Url { offset } => write!(
                f,
                "the character at byte {offset} is not URL-safe base64 (A-Z a-z 0-9 - _, no padding)"
            ),
            InvalidCursor::Truncated { len, min } => {
                write!(f, "{len} long, shorter than any cursor ({min}): cut short?")
            }
            InvalidCursor::TooLong { len, max } => {
                write!(f, "{len} long, longer than any cursor ({max})")
            }
            InvalidCursor::ChecksumMismatch => {
                f.write_str("its checksum does not match: it was changed or cut")
            }
            InvalidCursor::UnknownVersion { version } => write!(
                f,
                "it was changed, or is not one of ours: it reads as format {version}, and \
                 cursors are format {VERSION}"
            ),
            InvalidCursor::NotCanonical { offset } => write!(
                f,
                "the character at byte {offset} is not one a cursor ends with (it sets unused \
                 bits): it was changed or cut"
            ),
            InvalidCursor::OtherPlan { cursor, plan } => write!(
                f,
                "it pages another query (plan {cursor:016x}, not this plan's {plan:016x})"
            ),
            InvalidCursor::KeyTooLong { len, max } => write!(
                f,
                "its resume key is {len} bytes, longer than this plan's keys ({max})"
            ),
            InvalidCursor::KeyOutsidePlan { key } => {
                write!(f, "its resume key {} is not one this plan selects", KeyDisplay(key))
            }
            InvalidCursor::Malformed { why } => write!(f, "it is not one a pager wrote: {why}"),
            InvalidCursor::ImpossibleCount { delivered, limit } => {
                write!(f, "no page counts {delivered} rows delivered")?;
                match limit {
                    Some(l) => write!(f, " (at least 1, under the plan's limit of {l})"),
                    None => f.write_str(" (at least 1, and room to count the next page)"),
                }
            }
        }
    }
}

impl std::error::Error for InvalidCursor {}

#[cfg(test)]
#[path = "cursor_tests.rs"]
mod tests;
