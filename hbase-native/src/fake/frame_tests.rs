//! Frames: an honest server first (the fake is faithful), then garbage,
//! huge and cut lengths, wrong call ids, silence and closed connections.

use super::*;
use crate::connection::read_frame;
use crate::RowMutation;
use std::io::ErrorKind;

/// The fake answers as HBase does: a scan, gets, a write and an
/// increment all come back right, so what fails below fails for the mode.
#[tokio::test(flavor = "multi_thread")]
async fn an_honest_server_is_read_rightly() {
    let fake = Fake::start(Mode::Honest).await;
    let client = fake.client().await;
    let (rows, error) = scan(&client, Scan::all()).await;
    assert_eq!(
        (rows, error),
        (vec![b"a".to_vec(), b"b".to_vec(), b"c".to_vec()], None)
    );
    let (rows, _) = scan(&client, Scan::range(b"b".to_vec(), b"c".to_vec())).await;
    assert_eq!(rows, [b"b"]);
    let (rows, _) = scan(&client, Scan::all().reversed()).await;
    assert_eq!(rows, [b"c", b"b", b"a"]);
    let got = client
        .get(TABLE, vec![b"b".to_vec(), b"z".to_vec()], vec![])
        .await
        .unwrap();
    assert_eq!(got[0].as_ref().unwrap().cells[0].value, b"v-b");
    assert!(got[1].is_none());
    let put = RowMutation::put(b"a".to_vec()).set(b"d", b"q", b"1");
    client.mutate(TABLE, vec![put]).await.unwrap();
    let counted = client
        .read_modify_write(
            TABLE,
            b"a".to_vec(),
            crate::Modify::Increment(vec![(b"d".to_vec(), b"n".to_vec(), 1)]),
        )
        .await
        .unwrap();
    assert_eq!(counted.cells[0].value, 1i64.to_be_bytes());
    assert_eq!(fake.stats.meta_scans(), 1, "the regions are cached");
}

/// Mode 2, the reader itself: a frame's buffer grows with the bytes that
/// arrive, never to what the length claims. (It was `BytesMut::zeroed` of
/// the claimed length, up to 512 MiB, before a byte came.)
#[tokio::test]
async fn a_frame_buffer_grows_with_the_bytes_not_the_claim() {
    const CLAIM: usize = 400 << 20;
    let mut frame = Vec::new();
    // 400 MiB claimed, 10 bytes sent, then the end of the stream.
    let mut sent: &[u8] = &[7; 10];
    let e = read_frame(&mut sent, CLAIM, &mut frame).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(frame.len(), 10);
    assert!(frame.capacity() <= 64 << 10, "{}", frame.capacity());
    // 3 MiB sent: the buffer at most doubles what came.
    let big = vec![1u8; 3 << 20];
    let e = read_frame(&mut big.as_slice(), CLAIM, &mut frame)
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(frame.len(), 3 << 20);
    assert!(frame.capacity() <= 6 << 20, "{}", frame.capacity());
    // A whole frame: its bytes, none of the next, no room past its length.
    let mut stream: &[u8] = b"0123456789next";
    read_frame(&mut stream, 10, &mut frame).await.unwrap();
    assert_eq!(
        (frame.as_slice(), stream),
        (&b"0123456789"[..], &b"next"[..])
    );
    let (mut stream, mut frame) = (big.as_slice(), Vec::new());
    read_frame(&mut stream, (3 << 20) - 1, &mut frame)
        .await
        .unwrap();
    assert_eq!(
        (frame.len(), frame.capacity(), stream.len()),
        ((3 << 20) - 1, (3 << 20) - 1, 1)
    );
    read_frame(&mut stream, 0, &mut frame).await.unwrap();
    assert!(frame.is_empty());
}

/// Mode 2, end to end: 400 MiB claimed and 10 bytes sent is a call that
/// times out (each try), not an allocation of 400 MiB; a length past the
/// largest frame is refused at once.
#[tokio::test(flavor = "multi_thread")]
async fn a_huge_frame_length_waits_for_its_bytes_and_times_out() {
    let claim = Mode::Claim {
        claim: 400 << 20,
        sent: 10,
        close: false,
    };
    let fake = Fake::start(claim).await;
    let client = fake.client().await;
    let (got, took) = timed(
        "400 MiB claimed",
        client.get(TABLE, vec![b"a".to_vec()], vec![]),
    )
    .await;
    let e = got.unwrap_err();
    assert!(matches!(exhausted(&e), Error::Timeout { .. }), "{e}");
    assert!(took >= TIMEOUT * ATTEMPTS, "{took:?}");
    assert_eq!(fake.stats.calls("Multi"), ATTEMPTS as usize);

    let fake = Fake::start(Mode::Claim {
        claim: u32::MAX,
        sent: 10,
        close: false,
    })
    .await;
    let client = fake.client().await;
    let (got, _) = timed(
        "4 GiB claimed",
        client.get(TABLE, vec![b"a".to_vec()], vec![]),
    )
    .await;
    let e = got.unwrap_err();
    assert!(matches!(e, Error::Protocol { .. }), "{e}");
    says(&e, "a frame of 4294967295 bytes");
}

/// Mode 1: bytes that are no frame (an HTTP answer, whose first bytes
/// read as a length of 1.2 GB; a frame of 0xff; a right header and a
/// message that is no protobuf) are a protocol error, not retried.
#[tokio::test(flavor = "multi_thread")]
async fn garbage_is_a_protocol_error_at_once() {
    let modes = [
        (
            "an HTTP answer",
            Mode::Garbage(b"HTTP/1.1 400 Bad Request\r\n\r\n"),
            "is this HBase's RPC port",
        ),
        (
            "a frame of 0xff",
            Mode::Garbage(b"\x00\x00\x00\x0c\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"),
            "ResponseHeader's length",
        ),
        (
            "a header of 0xff",
            Mode::Garbage(b"\x00\x00\x00\x03\x02\xff\xff"),
            "ResponseHeader",
        ),
        ("a message of 0xff", Mode::BadMessage, "Scan:"),
    ];
    for (what, mode, why) in modes {
        let fake = Fake::start(mode).await;
        let client = fake.client().await;
        let ((rows, error), _) = timed(what, scan(&client, Scan::all())).await;
        let e = error.expect("an error");
        assert!(rows.is_empty());
        assert!(matches!(e, Error::Protocol { .. }), "{what}: {e}");
        says(&e, why);
        assert_eq!(fake.stats.calls("Scan"), 1, "{what} is not retried");
    }
}

/// Mode 3: a frame cut short (100 bytes claimed, 10 sent, then a close)
/// is a broken connection, retried on a new one until the tries run out.
#[tokio::test(flavor = "multi_thread")]
async fn a_truncated_frame_is_a_broken_connection() {
    let fake = Fake::start(Mode::Claim {
        claim: 100,
        sent: 10,
        close: true,
    })
    .await;
    let client = fake.client().await;
    let put = RowMutation::put(b"a".to_vec()).set(b"d", b"q", b"1");
    let (got, _) = timed("truncated frame", client.mutate(TABLE, vec![put])).await;
    let e = got.unwrap_err();
    let last = exhausted(&e);
    assert!(matches!(last, Error::Connection { .. }), "{e}");
    says(last, "closed the connection");
    assert_eq!(fake.stats.calls("Multi"), ATTEMPTS as usize);
    assert_eq!(
        fake.stats.connections.load(Ordering::SeqCst),
        ATTEMPTS as usize
    );
}

/// Mode 4: an answer under another call id is nobody's: the call waits
/// for its own, and times out if it never comes; if it comes, it is read.
#[tokio::test(flavor = "multi_thread")]
async fn an_answer_to_another_call_id_is_not_taken() {
    let fake = Fake::start(Mode::WrongCallId { then_right: false }).await;
    let client = fake.client().await;
    let ((rows, error), took) = timed("wrong call id", scan(&client, Scan::all())).await;
    assert!(rows.is_empty());
    let e = error.expect("an error");
    assert!(matches!(exhausted(&e), Error::Timeout { .. }), "{e}");
    assert!(took >= TIMEOUT * ATTEMPTS, "{took:?}");

    let fake = Fake::start(Mode::WrongCallId { then_right: true }).await;
    let client = fake.client().await;
    let ((rows, error), _) =
        timed("wrong call id, then the right", scan(&client, Scan::all())).await;
    assert_eq!((rows.len(), error), (3, None));
}

/// Mode 12: a server that reads and never answers: each try times out
/// after the call timeout, and the tries run out, in about their sum.
#[tokio::test(flavor = "multi_thread")]
async fn a_silent_server_times_out_within_the_tries() {
    let fake = Fake::start(Mode::Silent).await;
    let client = fake.client().await;
    let (got, took) = timed(
        "silent: get",
        client.get(TABLE, vec![b"a".to_vec()], vec![]),
    )
    .await;
    let e = got.unwrap_err();
    assert!(matches!(exhausted(&e), Error::Timeout { .. }), "{e}");
    assert!(took >= TIMEOUT * ATTEMPTS && took < TIMEOUT * ATTEMPTS + Duration::from_secs(2));
    // An increment that went out and got no answer may have run: its
    // outcome is unknown, never a plain retryable error.
    let increment = crate::Modify::Increment(vec![(b"d".to_vec(), b"n".to_vec(), 1)]);
    let (got, _) = timed(
        "silent: increment",
        client.read_modify_write(TABLE, b"a".to_vec(), increment),
    )
    .await;
    let e = got.unwrap_err();
    let Error::OutcomeUnknown { last } = &e else {
        panic!("{e}");
    };
    assert!(matches!(exhausted(last), Error::Timeout { .. }), "{e}");
}

/// Mode 12 again, with an operation timeout shorter than the tries: the
/// operation ends at its deadline, before its tries run out, saying so;
/// an increment that went out is still of unknown outcome.
#[tokio::test(flavor = "multi_thread")]
async fn a_silent_server_ends_the_operation_at_its_timeout() {
    let fake = Fake::start(Mode::Silent).await;
    let client = fake.client().await;
    let client = client.with_policy(
        client
            .policy()
            .with_operation_timeout(Some(Duration::from_millis(700))),
    );
    let (got, _) = timed(
        "silent, timed: get",
        client.get(TABLE, vec![b"a".to_vec()], vec![]),
    )
    .await;
    let e = got.unwrap_err();
    let Error::OperationTimedOut { attempts, last, .. } = &e else {
        panic!("{e}");
    };
    assert!(*attempts < ATTEMPTS, "{e}");
    assert!(matches!(**last, Error::Timeout { .. }), "{e}");
    assert!(!e.is_retryable());
    assert!(e.to_string().contains("within its timeout of 0.7 s"), "{e}");
    let increment = crate::Modify::Increment(vec![(b"d".to_vec(), b"n".to_vec(), 1)]);
    let (got, _) = timed(
        "silent, timed: increment",
        client.read_modify_write(TABLE, b"a".to_vec(), increment),
    )
    .await;
    let e = got.unwrap_err();
    let Error::OutcomeUnknown { last } = &e else {
        panic!("{e}");
    };
    assert!(matches!(**last, Error::OperationTimedOut { .. }), "{e}");
}

/// Mode 13: a server that closes right after the preamble is a broken
/// connection, retried; one that answers the client's TLS probe as TLS
/// does is a server this client does not support, not retried.
#[tokio::test(flavor = "multi_thread")]
async fn a_server_that_closes_after_the_preamble_fails_the_call() {
    let fake = Fake::start(Mode::CloseAfterPreamble).await;
    let client = fake.client().await;
    let ((_, error), _) = timed("closes after the preamble", scan(&client, Scan::all())).await;
    let e = error.expect("an error");
    assert!(matches!(exhausted(&e), Error::Connection { .. }), "{e}");
    assert_eq!(fake.stats.calls("Scan"), 0, "no call was read");

    let fake = Fake::start(Mode::TlsOnly).await;
    let client = fake.client().await;
    let ((_, error), _) = timed("TLS only", scan(&client, Scan::all())).await;
    let e = error.expect("an error");
    assert!(matches!(e, Error::Unsupported { .. }), "{e}");
    says(&e, "TLS");
}

/// A call dropped while its frame is half written (the caller gave up, a
/// `select!` took another branch) breaks its connection: the next call on
/// it must not follow half a frame, nor, on a sealed connection, leave a
/// gap in the wrap tokens' sequence the server refuses.
#[tokio::test(flavor = "multi_thread")]
async fn a_call_dropped_mid_write_breaks_its_connection() {
    // A server that takes the connection and never reads: the frame
    // below fills the socket's buffers and its write waits.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let _held = tokio::spawn(async move {
        let (socket, _) = listener.accept().await.unwrap();
        tokio::time::sleep(Duration::from_secs(60)).await;
        drop(socket);
    });
    let connection = crate::connection::Connection::open(
        &address,
        &address,
        "ClientService",
        "u",
        Duration::from_secs(5),
        &crate::transport::Security::default(),
    )
    .await
    .unwrap();
    let request = crate::proto::GetRequest::default();
    let cells = vec![0u8; 64 << 20];
    let call = connection.call("Get", &request, &cells, Duration::from_secs(60));
    // Dropped long before the call's own timeout.
    assert!(tokio::time::timeout(Duration::from_millis(300), call)
        .await
        .is_err());
    assert!(connection.is_broken());
}
