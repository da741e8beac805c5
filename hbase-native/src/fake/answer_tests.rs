//! Answers that are frames but lie: odd exceptions, a region too busy
//! forever, and cell counts the cell block does not hold.

use super::*;
use crate::{Modify, RowMutation};

const TOO_BUSY: &str = "org.apache.hadoop.hbase.RegionTooBusyException";

fn increment() -> Modify {
    Modify::Increment(vec![(b"d".to_vec(), b"n".to_vec(), 1)])
}

fn put() -> Vec<RowMutation> {
    vec![RowMutation::put(b"a".to_vec()).set(b"d", b"q", b"1")]
}

/// The exception a call ended with, which was not retried.
#[track_caller]
fn remote(e: &Error) -> &crate::RemoteException {
    assert!(matches!(e, Error::Remote { .. }), "{e:?}");
    e.remote().expect("an exception")
}

/// Mode 5: exceptions no client knows (an unknown class, an empty
/// message, no class at all) are a clear `Error::Remote`, tried once.
#[tokio::test(flavor = "multi_thread")]
async fn odd_exceptions_are_remote_errors_tried_once() {
    let odd = [
        (
            "unknown class",
            Some("com.example.WeirdException"),
            None,
            "com.example.WeirdException",
            "",
        ),
        (
            "empty message",
            Some("com.example.WeirdException"),
            Some(&b"com.example.WeirdException: \n\tat nowhere"[..]),
            "com.example.WeirdException",
            "",
        ),
        (
            "no class",
            None,
            Some(&b"something broke\n\tat nowhere"[..]),
            "",
            "something broke",
        ),
        ("nothing at all", None, None, "", ""),
    ];
    for (what, class, trace, want_class, want_message) in odd {
        let mode = Mode::Exception {
            class,
            trace,
            do_not_retry: false,
        };
        let fake = Fake::start(mode.clone()).await;
        let client = fake.client().await;
        let ((_, error), _) = timed(what, scan(&client, Scan::all())).await;
        let e = error.expect("an error");
        let exception = remote(&e);
        assert_eq!(
            (exception.class.as_str(), exception.message.as_str()),
            (want_class, want_message)
        );
        assert_eq!(fake.stats.calls("Scan"), 1, "{mode:?} is not retried");
    }
}

/// Mode 5: a message that is no UTF-8. In the response header (a proto
/// `string`) it breaks HBase's protocol; in a `Multi`'s per-region
/// exception (bytes) it is read as far as it is text.
#[tokio::test(flavor = "multi_thread")]
async fn an_exception_message_that_is_no_utf8_is_a_clear_error() {
    let fake = Fake::start(Mode::Exception {
        class: Some("com.example.WeirdException"),
        trace: Some(b"com.example.WeirdException: \xff\xfe broken"),
        do_not_retry: false,
    })
    .await;
    let client = fake.client().await;
    let (got, _) = timed("non-UTF-8 trace", client.mutate(TABLE, put())).await;
    let e = got.unwrap_err();
    assert!(matches!(e, Error::Protocol { .. }), "{e}");
    says(&e, "UTF-8");
    assert_eq!(fake.stats.calls("Multi"), 1);

    let fake = Fake::start(Mode::RegionException {
        class: "com.example.WeirdException",
        message: b"com.example.WeirdException: \xff\xfe broken\n\tat nowhere",
    })
    .await;
    let client = fake.client().await;
    let (got, _) = timed("non-UTF-8 region exception", client.mutate(TABLE, put())).await;
    let e = got.unwrap_err();
    let exception = remote(&e);
    assert_eq!(exception.message, "\u{fffd}\u{fffd} broken");
    assert_eq!(fake.stats.calls("Multi"), 1);
}

/// Mode 6: a region too busy forever: every call is retried until the
/// tries run out, then `RetriesExhausted` with HBase's exception, quickly
/// (the pauses are the policy's); whether the server throws it for the
/// whole call or for the region's actions of a `Multi`.
#[tokio::test(flavor = "multi_thread")]
async fn a_region_too_busy_forever_exhausts_the_retries() {
    let busy = Mode::Exception {
        class: Some(TOO_BUSY),
        trace: Some(b"org.apache.hadoop.hbase.RegionTooBusyException: Above memstore limit"),
        do_not_retry: false,
    };
    let fake = Fake::start(busy).await;
    let client = fake.client().await;
    let ((_, error), _) = timed("too busy: scan", scan(&client, Scan::all())).await;
    let e = error.expect("an error");
    assert_eq!(remote(exhausted(&e)).message, "Above memstore limit");
    let (got, _) = timed(
        "too busy: get",
        client.get(TABLE, vec![b"a".to_vec()], vec![]),
    )
    .await;
    assert_eq!(
        remote(exhausted(&got.unwrap_err())).simple_class(),
        "RegionTooBusyException"
    );
    // Refused each time, so surely not run: retried, and never "unknown".
    let (got, _) = timed(
        "too busy: increment",
        client.read_modify_write(TABLE, b"a".to_vec(), increment()),
    )
    .await;
    assert_eq!(
        remote(exhausted(&got.unwrap_err())).simple_class(),
        "RegionTooBusyException"
    );
    for method in ["Scan", "Multi", "Mutate"] {
        assert_eq!(fake.stats.calls(method), ATTEMPTS as usize, "{method}");
    }

    let fake = Fake::start(Mode::RegionException {
        class: TOO_BUSY,
        message: b"",
    })
    .await;
    let client = fake.client().await;
    let (got, _) = timed("too busy: Multi's region", client.mutate(TABLE, put())).await;
    let e = got.unwrap_err();
    assert_eq!(
        remote(exhausted(&e)).simple_class(),
        "RegionTooBusyException"
    );
    assert_eq!(fake.stats.calls("Multi"), ATTEMPTS as usize);
}

/// A retryable exception the server marks "do not retry" is not retried.
#[tokio::test(flavor = "multi_thread")]
async fn do_not_retry_is_heeded() {
    let fake = Fake::start(Mode::Exception {
        class: Some(TOO_BUSY),
        trace: None,
        do_not_retry: true,
    })
    .await;
    let client = fake.client().await;
    let (got, _) = timed(
        "do not retry",
        client.get(TABLE, vec![b"a".to_vec()], vec![]),
    )
    .await;
    let e = got.unwrap_err();
    assert!(remote(&e).do_not_retry);
    assert_eq!(fake.stats.calls("Multi"), 1);
}

/// Mode 7: a scan's results counting more cells than the cell block
/// holds (a few more, or 4 billion: nothing is allocated for a count), a
/// `Multi`'s gets counting a million, an increment counting cells it does
/// not send: each a protocol error, tried once.
#[tokio::test(flavor = "multi_thread")]
async fn lying_cell_counts_are_protocol_errors() {
    for claimed in [2, u32::MAX] {
        let fake = Fake::start(Mode::LyingScanCells { claimed }).await;
        let client = fake.client().await;
        let ((rows, error), _) = timed(
            &format!("{claimed} cells claimed"),
            scan(&client, Scan::all()),
        )
        .await;
        let e = error.expect("an error");
        assert!(rows.is_empty());
        assert!(matches!(e, Error::Protocol { .. }), "{e}");
        says(&e, "fewer cells than the answer counts");
        assert_eq!(fake.stats.calls("Scan"), 1);
    }

    let fake = Fake::start(Mode::LyingGetCells).await;
    let client = fake.client().await;
    let (got, _) = timed(
        "a million cells claimed",
        client.get(TABLE, vec![b"a".to_vec()], vec![]),
    )
    .await;
    let e = got.unwrap_err();
    assert!(matches!(e, Error::Protocol { .. }), "{e}");
    assert_eq!(fake.stats.calls("Multi"), 1);

    // The increment's answer came but cannot be read: it ran, or may
    // have, so its outcome is unknown, and it is not sent again.
    let fake = Fake::start(Mode::LyingMutateCells).await;
    let client = fake.client().await;
    let (got, _) = timed(
        "increment cells claimed",
        client.read_modify_write(TABLE, b"a".to_vec(), increment()),
    )
    .await;
    let e = got.unwrap_err();
    let Error::OutcomeUnknown { last } = &e else {
        panic!("{e}");
    };
    assert!(matches!(**last, Error::Protocol { .. }), "{e}");
    assert_eq!(fake.stats.calls("Mutate"), 1);
}

/// Mode 7: a cell block shorter than its header says (1,000 bytes more
/// than the frame holds) is a protocol error, for every kind of call.
#[tokio::test(flavor = "multi_thread")]
async fn a_cell_block_shorter_than_claimed_is_a_protocol_error() {
    let fake = Fake::start(Mode::ShortCellBlock).await;
    let client = fake.client().await;
    let ((_, error), _) = timed("short cell block: scan", scan(&client, Scan::all())).await;
    let e = error.expect("an error");
    assert!(matches!(e, Error::Protocol { .. }), "{e}");
    says(&e, "a cell block of");
    let (got, _) = timed(
        "short cell block: get",
        client.get(TABLE, vec![b"a".to_vec()], vec![]),
    )
    .await;
    assert!(matches!(got, Err(Error::Protocol { .. })), "{got:?}");
    let (got, _) = timed(
        "short cell block: increment",
        client.read_modify_write(TABLE, b"a".to_vec(), increment()),
    )
    .await;
    // The answer came, unreadable: the increment may have run.
    let e = got.unwrap_err();
    let Error::OutcomeUnknown { last } = &e else {
        panic!("{e}");
    };
    assert!(matches!(**last, Error::Protocol { .. }), "{e}");
    for method in ["Scan", "Multi", "Mutate"] {
        assert_eq!(fake.stats.calls(method), 1, "{method}");
    }
}
