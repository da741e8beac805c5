//! Answers whose rows are out of place (outside the scan or the region,
//! repeated, going back), `Multi` answers short of what was asked, and
//! scans that go on: heartbeats, a page with more rows and no scanner.

use super::*;
use crate::RowMutation;

/// Rows `rows`, as a scan's pages.
fn pages(pages: &[&[&'static [u8]]]) -> Mode {
    Mode::ScanPages(pages.iter().map(|p| p.to_vec()).collect())
}

/// `scan` against a server answering `mode`: the rows delivered, and the
/// error, which must be a protocol error saying `why`.
async fn scan_fails(meta: Meta, mode: Mode, scan: Scan, why: &str) -> (Vec<Vec<u8>>, Arc<Stats>) {
    let what = format!("{mode:?}{}", if scan.reversed { ", reversed" } else { "" });
    let fake = Fake::with(Zk::Honest, meta, mode).await;
    let client = fake.client().await;
    let ((rows, error), _) = timed(&what, super::scan(&client, scan)).await;
    let e = error.unwrap_or_else(|| panic!("{what}: no error, rows {rows:?}"));
    assert!(matches!(e, Error::Protocol { .. }), "{what}: {e}");
    says(&e, why);
    (rows, fake.stats.clone())
}

/// Mode 8: a row past the scan's stop, before its start, or outside the
/// region asked: a protocol error, and none of that page's rows delivered.
#[tokio::test(flavor = "multi_thread")]
async fn rows_outside_the_scan_or_region_are_protocol_errors() {
    let range = |a: &[u8], b: &[u8]| Scan::range(a.to_vec(), b.to_vec());
    let past = pages(&[&[b"b", b"z"]]);
    let (rows, _) = scan_fails(
        Meta::Whole,
        past,
        range(b"a", b"m"),
        "outside the scan's range",
    )
    .await;
    assert!(rows.is_empty(), "{rows:?}");
    let before = pages(&[&[b"a"]]);
    let (rows, _) = scan_fails(
        Meta::Whole,
        before,
        range(b"b", b"m"),
        "outside the scan's range",
    )
    .await;
    assert!(rows.is_empty(), "{rows:?}");
    let (rows, _) = scan_fails(
        Meta::Whole,
        pages(&[&[b"c"]]),
        range(b"a", b"b").reversed(),
        "outside the scan's range",
    )
    .await;
    assert!(rows.is_empty(), "{rows:?}");
    // Two regions split at m, both answering "a, x" (and more to come):
    // x is not the first's, and the scanner left open there is closed.
    let split = Meta::Regions(vec![(b"", b"m"), (b"m", b"")]);
    let (rows, stats) = scan_fails(
        split,
        pages(&[&[b"a", b"x"], &[]]),
        Scan::all(),
        "outside the region",
    )
    .await;
    assert!(rows.is_empty(), "{rows:?}");
    assert_eq!(
        stats.calls("Scan"),
        2,
        "an open, then the close of the scanner"
    );
    assert_eq!(stats.closed.load(Ordering::SeqCst), 1);
}

/// Mode 9: a row repeated (in a page or across pages) or going back is a
/// protocol error; rows before it are delivered once, never again.
#[tokio::test(flavor = "multi_thread")]
async fn repeated_and_out_of_order_rows_are_protocol_errors() {
    for page in [&[&b"a"[..], b"a"][..], &[b"b", b"a"]] {
        let (rows, _) = scan_fails(Meta::Whole, pages(&[page]), Scan::all(), "out of order").await;
        assert!(rows.is_empty(), "{rows:?}");
    }
    let across = pages(&[&[b"a", b"b"], &[b"b", b"c"], &[b"d"]]);
    let (rows, stats) = scan_fails(Meta::Whole, across, Scan::all(), "out of order").await;
    assert_eq!(rows, [b"a", b"b"]);
    assert_eq!(
        stats.closed.load(Ordering::SeqCst),
        1,
        "the scanner left open is closed"
    );
    // Ascending rows in a reversed scan go back.
    let (rows, _) = scan_fails(
        Meta::Whole,
        pages(&[&[b"a", b"b"]]),
        Scan::all().reversed(),
        "out of order",
    )
    .await;
    assert!(rows.is_empty(), "{rows:?}");
}

/// The gets of rows a, b, c (one region action) against `mode`: must be a
/// protocol error saying `why`, tried once; never rows reported absent.
async fn gets_fail(mode: Mode, why: &str) {
    let fake = Fake::start(mode.clone()).await;
    let client = fake.client().await;
    let rows = vec![b"a".to_vec(), b"b".to_vec(), b"c".to_vec()];
    let (got, _) = timed(&format!("gets: {mode:?}"), client.get(TABLE, rows, vec![])).await;
    let e = got.expect_err("a short answer is no answer");
    assert!(matches!(e, Error::Protocol { .. }), "{mode:?}: {e}");
    says(&e, why);
    assert_eq!(fake.stats.calls("Multi"), 1);
}

/// Mode 10: a `Multi` of gets answered short (a get left out, one
/// answered twice, no region action answered) is a protocol error, never
/// a row reported absent.
#[tokio::test(flavor = "multi_thread")]
async fn short_multi_answers_to_gets_are_protocol_errors() {
    gets_fail(Mode::ShortMulti, "2 of 3 actions answered").await;
    gets_fail(Mode::RepeatedMulti, "answered already").await;
    gets_fail(Mode::EmptyMulti, "another count of region actions").await;
}

/// Mode 11: a `Multi` of puts answered short is an error, never `Ok`.
#[tokio::test(flavor = "multi_thread")]
async fn short_multi_answers_to_puts_are_errors() {
    for (mode, why) in [
        (Mode::ShortMulti, "2 of 3 actions answered"),
        (Mode::RepeatedMulti, "answered already"),
        (Mode::EmptyMulti, "0 results for 1 region actions"),
    ] {
        let fake = Fake::start(mode.clone()).await;
        let client = fake.client().await;
        let puts = [b"a", b"b", b"c"]
            .map(|row| RowMutation::put(row.to_vec()).set(b"d", b"q", b"1"))
            .to_vec();
        let (got, _) = timed(&format!("puts: {mode:?}"), client.mutate(TABLE, puts)).await;
        let e = got.expect_err("a write nobody confirmed is not done");
        assert!(matches!(e, Error::Protocol { .. }), "{mode:?}: {e}");
        says(&e, why);
        assert_eq!(fake.stats.calls("Multi"), 1);
    }
}

/// Mode 11, a row's atomic action (a clear and a set of one row: a
/// delete and a put, all or nothing) answered short or not at all.
#[tokio::test(flavor = "multi_thread")]
async fn short_multi_answers_to_an_atomic_row_are_errors() {
    for mode in [Mode::ShortMulti, Mode::RepeatedMulti] {
        let fake = Fake::start(mode.clone()).await;
        let client = fake.client().await;
        let row = RowMutation::put(b"a".to_vec())
            .clear(b"d", b"old")
            .set(b"d", b"q", b"1")
            .at(5);
        let (got, _) = timed(
            &format!("atomic row: {mode:?}"),
            client.mutate(TABLE, vec![row]),
        )
        .await;
        let e = got.expect_err("a write nobody confirmed is not done");
        assert!(matches!(e, Error::Protocol { .. }), "{mode:?}: {e}");
    }
}

/// Heartbeats (pages of no rows while the server looks for one) are
/// waited through: 200 of them, then the row, read right.
#[tokio::test(flavor = "multi_thread")]
async fn heartbeats_are_waited_through() {
    let fake = Fake::start(Mode::Heartbeats(200)).await;
    let client = fake.client().await;
    let ((rows, error), _) = timed("200 heartbeats", scan(&client, Scan::all())).await;
    assert_eq!((rows, error), (vec![b"a".to_vec()], None));
    assert_eq!(fake.stats.calls("Scan"), 201);
}

/// Heartbeats forever: the scan waits (a real server's heartbeats mean
/// it is still looking), and a consumer that stops (drops the scanner)
/// stops the scan: its calls end and its scanner is closed.
#[tokio::test(flavor = "multi_thread")]
async fn endless_heartbeats_stop_when_the_scanner_is_dropped() {
    let fake = Fake::start(Mode::Heartbeats(usize::MAX)).await;
    let client = fake.client().await;
    let mut scanner = client.scan(TABLE, Scan::all());
    let waited = tokio::time::timeout(Duration::from_millis(300), scanner.next()).await;
    assert!(waited.is_err(), "no row, no end: {waited:?}");
    drop(scanner);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let calls = fake.stats.calls("Scan");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        fake.stats.calls("Scan"),
        calls,
        "the scan goes on after its consumer left"
    );
    assert_eq!(fake.stats.closed.load(Ordering::SeqCst), 1);
}

/// A first page that says the region has more rows, with no scanner to
/// ask for them, is a protocol error: never a scan that ends there, its
/// other rows silently missing.
#[tokio::test(flavor = "multi_thread")]
async fn more_rows_without_a_scanner_is_a_protocol_error() {
    scan_fails(Meta::Whole, Mode::NoScannerId, Scan::all(), "no scanner").await;
}
