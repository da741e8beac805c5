//! [`Filter`]s as the `Filter` messages HBase's region servers run: each
//! its Java class name and its own serialized message, as HBase's Java
//! client serializes it.

use crate::proto;
use crate::types::Filter;
use prost::Message;

const FUZZY: &str = "org.apache.hadoop.hbase.filter.FuzzyRowFilter";
const ROW_RANGES: &str = "org.apache.hadoop.hbase.filter.MultiRowRangeFilter";
const COLUMN_RANGE: &str = "org.apache.hadoop.hbase.filter.ColumnRangeFilter";
const FIRST_KEY_ONLY: &str = "org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter";
const LIST: &str = "org.apache.hadoop.hbase.filter.FilterList";
const ROW: &str = "org.apache.hadoop.hbase.filter.RowFilter";
const REGEX: &str = "org.apache.hadoop.hbase.filter.RegexStringComparator";
/// `java.util.regex.Pattern.DOTALL`: `.` matches every byte, `\n` too.
const DOTALL: i32 = 32;

/// `FuzzyRowFilter`'s "processed" mask bytes (its V2 form, what the Java
/// client sends): a fixed byte is 0xFF, a free one 2, and the key's free
/// bytes are zero.
const FIXED: u8 = 0xff;
const FREE: u8 = 2;

/// The message a filter is sent as.
pub(crate) fn to_proto(filter: &Filter) -> proto::Filter {
    let (name, bytes) = match filter {
        Filter::Fuzzy(pairs) => (
            FUZZY,
            proto::FuzzyRowFilter {
                fuzzy_keys_data: pairs
                    .iter()
                    .map(|(key, mask)| {
                        let mask: Vec<u8> = mask
                            .iter()
                            .map(|&m| if m == 0 { FIXED } else { FREE })
                            .collect();
                        let key = key
                            .iter()
                            .zip(&mask)
                            .map(|(&k, &m)| if m == FIXED { k } else { 0 })
                            .collect();
                        proto::BytesBytesPair {
                            first: key,
                            second: mask,
                        }
                    })
                    .collect(),
                is_mask_v2: Some(true),
            }
            .encode_to_vec(),
        ),
        Filter::RowRanges(ranges) => (
            ROW_RANGES,
            proto::MultiRowRangeFilter {
                row_range_list: ranges
                    .iter()
                    .map(|(start, stop)| proto::RowRange {
                        start_row: Some(start.clone()),
                        start_row_inclusive: Some(true),
                        stop_row: Some(stop.clone()),
                        stop_row_inclusive: Some(false),
                    })
                    .collect(),
            }
            .encode_to_vec(),
        ),
        Filter::KeyRegex(pattern) => (
            ROW,
            proto::RowFilter {
                compare_filter: proto::CompareFilter {
                    compare_op: proto::CompareType::Equal as i32,
                    comparator: Some(proto::Comparator {
                        name: REGEX.to_owned(),
                        serialized_comparator: Some(
                            proto::RegexStringComparator {
                                pattern: pattern.clone(),
                                pattern_flags: DOTALL,
                                charset: "ISO-8859-1".to_owned(),
                            }
                            .encode_to_vec(),
                        ),
                    }),
                },
            }
            .encode_to_vec(),
        ),
        Filter::FirstKeyOnly => (FIRST_KEY_ONLY, Vec::new()),
        Filter::ColumnRanges(ranges) if ranges.len() == 1 => {
            let (start, stop) = &ranges[0];
            (COLUMN_RANGE, column_range(start, stop.as_deref()))
        }
        Filter::ColumnRanges(ranges) => (
            LIST,
            proto::FilterList {
                operator: proto::filter_list::Operator::MustPassOne as i32,
                filters: ranges
                    .iter()
                    .map(|(start, stop)| proto::Filter {
                        name: COLUMN_RANGE.to_owned(),
                        serialized_filter: Some(column_range(start, stop.as_deref())),
                    })
                    .collect(),
            }
            .encode_to_vec(),
        ),
        Filter::All(filters) => (
            LIST,
            proto::FilterList {
                operator: proto::filter_list::Operator::MustPassAll as i32,
                filters: filters.iter().map(to_proto).collect(),
            }
            .encode_to_vec(),
        ),
    };
    proto::Filter {
        name: name.to_owned(),
        serialized_filter: Some(bytes),
    }
}

/// A `ColumnRangeFilter` of `[start, stop)`; no stop: to the row's end.
fn column_range(start: &[u8], stop: Option<&[u8]>) -> Vec<u8> {
    proto::ColumnRangeFilter {
        min_column: Some(start.to_vec()),
        min_column_inclusive: Some(true),
        max_column: stop.map(<[u8]>::to_vec),
        max_column_inclusive: Some(false),
    }
    .encode_to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzzy_keys_go_out_in_the_java_clients_processed_form() {
        let f = to_proto(&Filter::Fuzzy(vec![(b"ab?d".to_vec(), vec![0, 0, 1, 0])]));
        assert_eq!(f.name, FUZZY);
        let sent = proto::FuzzyRowFilter::decode(f.serialized_filter.unwrap().as_slice()).unwrap();
        assert_eq!(sent.fuzzy_keys_data[0].first, b"ab\0d");
        assert_eq!(sent.fuzzy_keys_data[0].second, [0xff, 0xff, 2, 0xff]);
        assert_eq!(sent.is_mask_v2, Some(true));
    }
}
