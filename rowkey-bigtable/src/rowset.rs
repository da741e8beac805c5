//! What a `ReadRows` request names: its `RowSet` and its `RowFilter`.

use bigtable_rs::google::bigtable::v2::column_range::{EndQualifier, StartQualifier};
use bigtable_rs::google::bigtable::v2::row_filter::{Chain, Filter, Interleave};
use bigtable_rs::google::bigtable::v2::row_range::{EndKey, StartKey};
use bigtable_rs::google::bigtable::v2::{ColumnRange, RowFilter, RowRange, RowSet};
use rowkey_store::{CellSlice, Columns, ReadRequest};

/// The `RowSet` of a request's ranges (exactly its bounds: start
/// inclusive, stop exclusive), as the adapters give it.
pub(crate) fn row_set(request: &ReadRequest) -> RowSet {
    RowSet {
        row_keys: vec![],
        row_ranges: request
            .ranges()
            .iter()
            .map(|r| RowRange {
                start_key: Some(StartKey::StartKeyClosed(r.start.clone())),
                end_key: r.stop.clone().map(EndKey::EndKeyOpen),
            })
            .collect(),
    }
}

/// The `RowSet` the store sends for a request: the same keys as
/// [`row_set`], in the form Bigtable's own clients send. A range of one
/// key (`[k, k\0)`) is that row key; a range from the first key has no
/// start (the whole table is one range with neither bound, never an empty
/// set: an empty one reads the whole table whatever was asked); and the
/// range a retry resumes, after the last row `resumed` delivered or
/// scanned, starts open after that key. The request must have ranges.
pub(crate) fn request_row_set(request: &ReadRequest, resumed: Option<&[u8]>) -> RowSet {
    let mut set = RowSet::default();
    for r in request.ranges() {
        if r.stop.as_ref().is_some_and(|s| is_successor(s, &r.start)) && !r.start.is_empty() {
            set.row_keys.push(r.start.clone());
            continue;
        }
        let start_key = match resumed {
            // Resumed forwards: `[last\0, ..)` is `(last, ..)`.
            Some(last) if !request.is_reversed() && is_successor(&r.start, last) => {
                Some(StartKey::StartKeyOpen(last.to_vec()))
            }
            _ if r.start.is_empty() => None,
            _ => Some(StartKey::StartKeyClosed(r.start.clone())),
        };
        set.row_ranges.push(RowRange {
            start_key,
            // Resumed backwards, the range ends open at the last key.
            end_key: r.stop.clone().map(EndKey::EndKeyOpen),
        });
    }
    set
}

/// Whether `next` is `key` followed by `0x00`: the first key after it.
fn is_successor(next: &[u8], key: &[u8]) -> bool {
    next.len() == key.len() + 1 && next.last() == Some(&0) && next.starts_with(key)
}

/// The filter a read sends: the request's fuzzy key as a
/// `RowKeyRegexFilter` (a row whose key does not match is dropped whole,
/// and `rows_limit` counts only the rows that pass), then its columns
/// (only their cells are kept, and a row with none of them is not
/// returned), then, when `newest`, the newest version of each cell (as
/// MemStore keeps only that). `None`: no filter, every version of every
/// cell.
pub(crate) fn row_filter(request: &ReadRequest, newest: bool) -> Option<RowFilter> {
    let mut filters = Vec::new();
    if let Some(fuzzy) = request.fuzzy() {
        filters.push(regex_filter(fuzzy.bigtable_regex()));
    }
    if let Some(columns) = request.columns() {
        filters.push(columns_filter(columns));
    }
    if let Some(slice) = request.cells() {
        filters.push(slice_filter(slice));
    }
    if newest {
        filters.push(RowFilter {
            filter: Some(Filter::CellsPerColumnLimitFilter(1)),
        });
    }
    // After the newest version is picked: the cap counts columns.
    if let Some(n) = request.cells().and_then(CellSlice::row_limit) {
        filters.push(RowFilter {
            filter: Some(Filter::CellsPerRowLimitFilter(
                i32::try_from(n).unwrap_or(i32::MAX),
            )),
        });
    }
    match filters.len() {
        0 => None,
        1 => filters.pop(),
        _ => Some(RowFilter {
            filter: Some(Filter::Chain(Chain { filters })),
        }),
    }
}

/// The cells of `columns` only: one `ColumnRangeFilter` per column, from
/// its qualifier to its qualifier, both closed (exact bytes: no regex to
/// escape), interleaved; no column: every cell blocked.
pub(crate) fn columns_filter(columns: &Columns) -> RowFilter {
    let ranges: Vec<RowFilter> = columns
        .iter()
        .map(|(family, qualifier)| RowFilter {
            filter: Some(Filter::ColumnRangeFilter(ColumnRange {
                family_name: family.to_owned(),
                start_qualifier: Some(StartQualifier::StartQualifierClosed(qualifier.to_vec())),
                end_qualifier: Some(EndQualifier::EndQualifierClosed(qualifier.to_vec())),
            })),
        })
        .collect();
    any_of(ranges)
}

/// The cells of a slice's family in its qualifier ranges: one
/// `ColumnRangeFilter` per range (start closed, stop open, exact bytes),
/// interleaved; no range: every cell blocked. The per-row cap is chained
/// apart, after the newest-version filter.
pub(crate) fn slice_filter(slice: &CellSlice) -> RowFilter {
    if slice.is_whole_family() {
        // The family alone: exact, as family names are `[-_.a-zA-Z0-9]+`.
        return RowFilter {
            filter: Some(Filter::FamilyNameRegexFilter(format!(
                "^{}$",
                regex_escape(slice.family_name())
            ))),
        };
    }
    let ranges: Vec<RowFilter> = slice
        .qualifier_ranges()
        .iter()
        .map(|r| RowFilter {
            filter: Some(Filter::ColumnRangeFilter(ColumnRange {
                family_name: slice.family_name().to_owned(),
                start_qualifier: Some(StartQualifier::StartQualifierClosed(r.start.clone())),
                end_qualifier: r.stop.clone().map(EndQualifier::EndQualifierOpen),
            })),
        })
        .collect();
    any_of(ranges)
}

/// The cells any of `filters` passes: one filter as it is, several
/// interleaved; none blocks every cell.
fn any_of(mut filters: Vec<RowFilter>) -> RowFilter {
    match filters.len() {
        0 => RowFilter {
            filter: Some(Filter::BlockAllFilter(true)),
        },
        1 => filters.remove(0),
        _ => RowFilter {
            filter: Some(Filter::Interleave(Interleave { filters })),
        },
    }
}

/// `text` with RE2's metacharacters escaped.
fn regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if !c.is_ascii_alphanumeric() && c != '_' && c != '-' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A `RowKeyRegexFilter` of `regex`.
pub(crate) fn regex_filter(regex: String) -> RowFilter {
    RowFilter {
        filter: Some(Filter::RowKeyRegexFilter(regex.into_bytes())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rowkey_store::KeyRange;

    /// The whole table, as a request: one range from the first key.
    fn whole_table() -> ReadRequest {
        ReadRequest::new([KeyRange::new(Vec::new(), None)])
    }

    /// A column restriction is one exact column range per column (a
    /// qualifier with regex metacharacters and 0xFF as it is), chained
    /// before the newest-version filter; none blocks every cell.
    #[test]
    fn columns_become_exact_column_ranges() {
        let one = columns_filter(&Columns::new([("d", &b"a.*\xFF"[..])]));
        let Some(Filter::ColumnRangeFilter(r)) = one.filter else {
            panic!("{one:?}")
        };
        assert_eq!(r.family_name, "d");
        let q = b"a.*\xFF".to_vec();
        assert_eq!(
            r.start_qualifier,
            Some(StartQualifier::StartQualifierClosed(q.clone()))
        );
        assert_eq!(r.end_qualifier, Some(EndQualifier::EndQualifierClosed(q)));
        let two = columns_filter(&Columns::new([("d", "a"), ("e", "b")]));
        assert!(matches!(two.filter, Some(Filter::Interleave(ref i)) if i.filters.len() == 2));
        let none = columns_filter(&Columns::default());
        assert_eq!(none.filter, Some(Filter::BlockAllFilter(true)));
        let request =
            ReadRequest::new([KeyRange::new("a", None)]).with_columns(Columns::new([("d", "v")]));
        let Some(Filter::Chain(chain)) = row_filter(&request, true).and_then(|f| f.filter) else {
            panic!("a chain")
        };
        assert_eq!(chain.filters.len(), 2);
        assert_eq!(
            chain.filters[1].filter,
            Some(Filter::CellsPerColumnLimitFilter(1))
        );
        // Every version, no restriction: no filter at all.
        assert_eq!(row_filter(&whole_table(), false), None);
    }

    /// A slice is its family alone, or one exact column range per
    /// qualifier range (start closed, stop open or none), chained before
    /// the newest-version filter, with its per-row cap after it.
    #[test]
    fn slices_become_column_ranges_and_a_cap() {
        let whole = slice_filter(&CellSlice::family("d.x"));
        assert_eq!(
            whole.filter,
            Some(Filter::FamilyNameRegexFilter(r"^d\.x$".into()))
        );
        let two = CellSlice::family("d").ranges([
            rowkey_store::KeyRange::new(b"a".to_vec(), Some(b"b\xFF".to_vec())),
            rowkey_store::KeyRange::new(b"q".to_vec(), None),
        ]);
        let Some(Filter::Interleave(i)) = slice_filter(&two).filter else {
            panic!("two ranges interleaved")
        };
        let Some(Filter::ColumnRangeFilter(last)) = &i.filters[1].filter else {
            panic!("a column range")
        };
        assert_eq!(last.end_qualifier, None);
        let request = whole_table().with_cells(two.per_row(3));
        let Some(Filter::Chain(chain)) = row_filter(&request, true).and_then(|f| f.filter) else {
            panic!("a chain")
        };
        assert_eq!(chain.filters.len(), 3);
        assert_eq!(
            chain.filters[2].filter,
            Some(Filter::CellsPerRowLimitFilter(3))
        );
    }

    /// What the store sends: point reads as row keys, the whole table as
    /// one unbounded range, a resumed range open after the last key.
    #[test]
    fn row_sets_in_the_form_bigtable_clients_send() {
        let keys = ReadRequest::new([KeyRange::row(b"a"), KeyRange::row(b"q")]);
        let set = request_row_set(&keys, None);
        assert_eq!(set.row_keys, [b"a".to_vec(), b"q".to_vec()]);
        assert!(set.row_ranges.is_empty());
        let all = request_row_set(&whole_table(), None);
        assert!(all.row_keys.is_empty());
        assert_eq!(all.row_ranges, [RowRange::default()]);
        // Resumed after "qfoo": the rest of the table, open after it.
        let rest = whole_table().after(b"qfoo");
        let set = request_row_set(&rest, Some(b"qfoo"));
        assert_eq!(
            set.row_ranges,
            [RowRange {
                start_key: Some(StartKey::StartKeyOpen(b"qfoo".to_vec())),
                end_key: None
            }]
        );
        // Backwards: below the last key, open.
        let rest = whole_table().reversed().after(b"qfoo");
        let set = request_row_set(&rest, Some(b"qfoo"));
        assert_eq!(
            set.row_ranges,
            [RowRange {
                start_key: None,
                end_key: Some(EndKey::EndKeyOpen(b"qfoo".to_vec()))
            }]
        );
        // A range that merely starts with 0x00 is sent as it is.
        let r = ReadRequest::new([KeyRange::new(vec![0], Some(vec![4]))]);
        let set = request_row_set(&r, None);
        assert_eq!(
            set.row_ranges[0].start_key,
            Some(StartKey::StartKeyClosed(vec![0]))
        );
    }
}
