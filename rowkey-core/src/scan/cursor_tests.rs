//! The token's format and every way a token is refused before it reaches
//! a plan (the plan's checks are in `tests/it/cursors.rs`).

use super::*;
use crate::scan::ScanPlan;

fn plan() -> ScanPlan<8> {
    ScanPlan::from_bounds(b"a", Some(b"c")).unwrap()
}

/// The format is what clients hold between requests: frozen here (the
/// string was computed apart, with Python's hashlib and base64).
#[test]
fn golden_token() {
    let c = Cursor::new(&plan(), b"b\x00".to_vec(), 7);
    let bytes = c.to_bytes();
    assert_eq!(bytes[0], VERSION);
    assert_eq!(&bytes[1..9], &fingerprint(&plan()).to_be_bytes());
    assert_eq!(&bytes[9..17], &7u64.to_be_bytes());
    assert_eq!(&bytes[17..19], b"b\x00");
    assert_eq!(bytes.len(), HEADER + 2 + CHECKSUM);
    assert_eq!(c.to_string(), "Aea76jQBbFqgAAAAAAAAAAdiAOJeuFs2OMIE");
    assert_eq!(c.to_string().parse::<Cursor>(), Ok(c.clone()));
    assert_eq!(Cursor::from_bytes(&bytes), Ok(c));
}

#[test]
fn fingerprints_differ_by_what_pages_differ_by() {
    let p = plan();
    let variants = [
        p.clone().reversed(),
        p.clone().with_limit(3),
        p.clone().with_limit(4),
        ScanPlan::from_bounds(b"a", Some(b"d")).unwrap(),
        ScanPlan::from_bounds(b"a", None).unwrap(),
        p.clone().with_fuzzy({
            let mut f = crate::scan::FuzzyKey::new();
            f.push_free(1).unwrap();
            f
        }),
    ];
    let mut seen = vec![fingerprint(&p)];
    for v in &variants {
        let f = fingerprint(v);
        assert!(!seen.contains(&f), "{v:?}");
        seen.push(f);
    }
    assert_eq!(fingerprint(&p), fingerprint(&plan()));
}

#[test]
fn tokens_that_no_page_gave_out_are_refused_precisely() {
    let c = Cursor::new(&plan(), b"b".to_vec(), 1);
    let bytes = c.to_bytes();
    let text = c.to_string();
    let min = HEADER + CHECKSUM;
    assert_eq!(
        Cursor::from_bytes(&bytes[..min - 1]),
        Err(InvalidCursor::Truncated { len: min - 1, min })
    );
    assert_eq!(
        Cursor::from_bytes(&bytes[..bytes.len() - 1]),
        Err(InvalidCursor::ChecksumMismatch)
    );
    let mut changed = bytes.clone();
    changed[12] ^= 1;
    assert_eq!(
        Cursor::from_bytes(&changed),
        Err(InvalidCursor::ChecksumMismatch)
    );
    changed = bytes.clone();
    changed[0] = 9;
    assert_eq!(
        Cursor::from_bytes(&changed),
        Err(InvalidCursor::UnknownVersion { version: 9 })
    );
    let huge = vec![VERSION; MAX_TOKEN + 1];
    assert_eq!(
        Cursor::from_bytes(&huge),
        Err(InvalidCursor::TooLong {
            len: MAX_TOKEN + 1,
            max: MAX_TOKEN
        })
    );
    let long_text = "A".repeat(base64url::encoded_len(MAX_TOKEN) + 1);
    assert!(matches!(
        long_text.parse::<Cursor>(),
        Err(InvalidCursor::TooLong { .. })
    ));
    assert_eq!(
        format!("{text}=").parse::<Cursor>(),
        Err(InvalidCursor::NotBase64Url { offset: text.len() })
    );
    // Cut by a character: the bytes left fail their checksum, or the new
    // last character sets bits no cursor sets.
    assert!(matches!(
        text[..text.len() - 1].parse::<Cursor>(),
        Err(InvalidCursor::ChecksumMismatch | InvalidCursor::NotCanonical { .. })
    ));
    assert_eq!(
        "A".parse::<Cursor>(),
        Err(InvalidCursor::Truncated { len: 1, min: 34 })
    );
    let e = InvalidCursor::ImpossibleCount {
        delivered: 9,
        limit: Some(5),
    };
    assert_eq!(
        e.to_string(),
        "invalid cursor: no page counts 9 rows delivered (at least 1, under the plan's limit of 5)"
    );
}

#[test]
fn counts_that_would_overflow_are_errors() {
    assert_eq!(
        Cursor::following(0, b"k", u64::MAX, 1),
        Err(InvalidCursor::ImpossibleCount {
            delivered: u64::MAX,
            limit: None
        })
    );
    let c = Cursor::following(0, b"k", u64::MAX - 1, 1).unwrap();
    assert_eq!(c.delivered(), u64::MAX);
}

/// A token changed in the unused low bits of its last character once
/// parsed to the same cursor: every byte string now has one text.
#[test]
fn a_token_changed_in_its_unused_bits_is_refused() {
    let c = Cursor::new(&plan(), b"b".to_vec(), 1);
    let text = c.to_string();
    // 26 bytes: 35 characters, the last carrying 4 bits of the 26th
    // byte and 2 unused ones.
    assert_eq!((c.to_bytes().len(), text.len()), (26, 35));
    let last = text.len() - 1;
    let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let at = alphabet.find(&text[last..]).unwrap();
    let mut changed = 0;
    for flip in 1..4 {
        let other = &alphabet[(at ^ flip)..=(at ^ flip)];
        let token = format!("{}{other}", &text[..last]);
        assert_eq!(
            token.parse::<Cursor>(),
            Err(InvalidCursor::NotCanonical { offset: last }),
            "{token}"
        );
        changed += 1;
    }
    assert_eq!(changed, 3);
    assert_eq!(text.parse::<Cursor>(), Ok(c));
    let e = InvalidCursor::NotCanonical { offset: last }.to_string();
    assert!(e.contains("it was changed or cut"), "{e}");
}

/// Errors speak of the token as the client holds it: a string's length
/// in characters, whether it is empty or 13 characters; a changed first
/// character says the token was changed, not that it needs an upgrade.
#[test]
fn cursor_errors_speak_of_the_token_as_the_client_holds_it() {
    let min = base64url::encoded_len(HEADER + CHECKSUM);
    assert_eq!(min, 34);
    for text in [
        "",
        "AQ",
        "AAAAAAAAAAAAA",
        "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ] {
        assert_eq!(
            text.parse::<Cursor>(),
            Err(InvalidCursor::Truncated {
                len: text.len(),
                min
            }),
            "{text:?}"
        );
    }
    assert_eq!(
        "".parse::<Cursor>().unwrap_err().to_string(),
        "invalid cursor: 0 long, shorter than any cursor (34): cut short?"
    );
    let text = Cursor::new(&plan(), b"b".to_vec(), 1).to_string();
    // `A` -> `F`: the first byte 0x01 becomes 0x15.
    let changed = format!("F{}", &text[1..]);
    let e = changed.parse::<Cursor>().unwrap_err();
    assert_eq!(e, InvalidCursor::UnknownVersion { version: 0x15 });
    assert_eq!(
        e.to_string(),
        "invalid cursor: it was changed, or is not one of ours: it reads as format 21, and \
         cursors are format 1"
    );
}
