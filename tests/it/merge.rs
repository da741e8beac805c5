//! The k-way merge of per-bucket scans, over iterators and over async
//! streams (`rowkey::store::merge_sorted_stream`), including sources that
//! are not ready.

use proptest::prelude::*;
use rowkey::scan::merge_sorted;

/// Sorted per-bucket sources: keys `<bucket byte><logical bytes>`.
fn buckets() -> impl Strategy<Value = Vec<Vec<Vec<u8>>>> {
    proptest::collection::vec(
        proptest::collection::btree_set(proptest::collection::vec(any::<u8>(), 0..4), 0..8),
        0..20,
    )
    .prop_map(|sets| {
        sets.into_iter()
            .enumerate()
            .map(|(b, set)| {
                set.into_iter()
                    .map(|logical| {
                        let mut k = vec![b as u8];
                        k.extend(logical);
                        k
                    })
                    .collect()
            })
            .collect()
    })
}

fn expected(sources: &[Vec<Vec<u8>>], limit: Option<usize>) -> Vec<Vec<u8>> {
    let mut all: Vec<Vec<u8>> = sources.iter().flatten().cloned().collect();
    // Logical order, ties by bucket: what the merge promises.
    all.sort_by(|a, b| (&a[1..], a[0]).cmp(&(&b[1..], b[0])));
    all.truncate(limit.unwrap_or(usize::MAX));
    all
}

/// Each source read last key first.
fn backwards(sources: &[Vec<Vec<u8>>]) -> Vec<Vec<Vec<u8>>> {
    sources
        .iter()
        .map(|s| s.iter().rev().cloned().collect())
        .collect()
}

/// Largest logical key first; equal logical keys (in different buckets)
/// in bucket order.
fn expected_back(sources: &[Vec<Vec<u8>>], limit: Option<usize>) -> Vec<Vec<u8>> {
    let mut all: Vec<Vec<u8>> = sources.iter().flatten().cloned().collect();
    all.sort_by(|a, b| (&b[1..], a[0]).cmp(&(&a[1..], b[0])));
    all.truncate(limit.unwrap_or(usize::MAX));
    all
}

/// Ordered by the bytes from `offset` of the whole key on, then by the
/// logical key, as a plan ordered after its IN-lists merges.
fn expected_from(sources: &[Vec<Vec<u8>>], offset: usize, back: bool) -> Vec<Vec<u8>> {
    let mut all: Vec<Vec<u8>> = sources.iter().flatten().cloned().collect();
    let key = |k: &Vec<u8>| {
        (
            k.get(offset..).unwrap_or_default().to_vec(),
            k[1..].to_vec(),
        )
    };
    all.sort_by(|a, b| {
        if back {
            key(b).cmp(&key(a))
        } else {
            key(a).cmp(&key(b))
        }
        .then(a[0].cmp(&b[0]))
    });
    all
}

/// Sources sorted by their bytes from `offset` (each source shares its
/// bytes up to there, as one IN-list combination's range does).
fn combination_sources() -> impl Strategy<Value = Vec<Vec<Vec<u8>>>> {
    let tail = proptest::collection::vec(prop_oneof![Just(0u8), Just(0xFF), any::<u8>()], 0..4);
    proptest::collection::vec(proptest::collection::btree_set(tail, 0..6), 0..8).prop_map(|sets| {
        sets.into_iter()
            .enumerate()
            .map(|(b, set)| {
                set.into_iter()
                    .map(|t| [&[0u8, b as u8][..], &t].concat())
                    .collect()
            })
            .collect()
    })
}

/// Like [`buckets`], with long keys that share their first bytes and end
/// in `0x00`/`0xFF` runs: the merge's 16-byte integer prefixes tie and
/// must fall back to the keys (`ab` against `ab\0`, 16 equal bytes and a
/// different 17th).
fn long_buckets() -> impl Strategy<Value = Vec<Vec<Vec<u8>>>> {
    let byte = prop_oneof![Just(0u8), Just(0xFF), Just(b'a'), any::<u8>()];
    let tail = proptest::collection::vec(byte, 0..6);
    let logical = (0usize..24, tail).prop_map(|(shared, tail)| {
        let mut k = vec![0xFFu8; shared];
        k.extend(tail);
        k
    });
    proptest::collection::vec(proptest::collection::btree_set(logical, 0..8), 0..12).prop_map(
        |sets| {
            sets.into_iter()
                .enumerate()
                .map(|(b, set)| {
                    set.into_iter()
                        .map(|logical| [&[b as u8][..], &logical].concat())
                        .collect()
                })
                .collect()
        },
    )
}

proptest! {
    #[test]
    fn long_keys_merge_in_logical_order(sources in long_buckets(), limit in proptest::option::of(0usize..40)) {
        let got: Vec<Vec<u8>> = merge_sorted(sources.clone(), 1, limit).collect();
        prop_assert_eq!(got, expected(&sources, limit));
    }

    #[test]
    fn iterator_merge_is_logical_order(sources in buckets(), limit in proptest::option::of(0usize..20)) {
        let got: Vec<Vec<u8>> = merge_sorted(sources.clone(), 1, limit).collect();
        prop_assert_eq!(got, expected(&sources, limit));
    }

    #[test]
    fn reversed_iterator_merge_is_largest_first(sources in long_buckets(), limit in proptest::option::of(0usize..40)) {
        let got: Vec<Vec<u8>> = merge_sorted(backwards(&sources), 1, limit).reversed().collect();
        prop_assert_eq!(got, expected_back(&sources, limit));
    }

    #[test]
    fn iterator_merge_from_an_offset(sources in combination_sources(), back: bool) {
        let input = if back { backwards(&sources) } else { sources.clone() };
        let merge = rowkey::scan::merge_sorted_by_offset(input, 0, 2, None);
        let got: Vec<Vec<u8>> = if back { merge.reversed().collect() } else { merge.collect() };
        prop_assert_eq!(got, expected_from(&sources, 2, back));
    }
}

mod stream {
    use super::*;
    use futures::executor::block_on;
    use futures::stream::{self, Stream, StreamExt};
    use rowkey::store::merge_sorted_stream;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    /// A stream that is not ready every other poll, as a network scan is.
    struct Stutter<S> {
        inner: S,
        ready: bool,
    }

    impl<S: Stream + Unpin> Stream for Stutter<S> {
        type Item = S::Item;
        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
            if !self.ready {
                self.ready = true;
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            self.ready = false;
            Pin::new(&mut self.inner).poll_next(cx)
        }
    }

    proptest! {
        #[test]
        fn stream_merge_is_logical_order(sources in buckets(), limit in proptest::option::of(0usize..20)) {
            let streams = sources.clone().into_iter().map(|s| Stutter { inner: stream::iter(s), ready: false });
            let got: Vec<Vec<u8>> = block_on(merge_sorted_stream(streams, 1, limit).collect());
            prop_assert_eq!(got, expected(&sources, limit));
        }

        #[test]
        fn reversed_stream_merge_is_largest_first(sources in long_buckets(), limit in proptest::option::of(0usize..40)) {
            let streams = backwards(&sources).into_iter().map(|s| Stutter { inner: stream::iter(s), ready: false });
            let got: Vec<Vec<u8>> = block_on(merge_sorted_stream(streams, 1, limit).reversed().collect());
            prop_assert_eq!(got, expected_back(&sources, limit));
        }

        #[test]
        fn stream_merge_from_an_offset(sources in combination_sources(), back: bool) {
            let input = if back { backwards(&sources) } else { sources.clone() };
            let streams = input.into_iter().map(|s| Stutter { inner: stream::iter(s), ready: false });
            let merge = rowkey::store::merge_sorted_stream_by_offset(streams, 0, 2, None);
            let merge = if back { merge.reversed() } else { merge };
            let got: Vec<Vec<u8>> = block_on(merge.collect());
            prop_assert_eq!(got, expected_from(&sources, 2, back));
        }
    }
}
