//! `Filter.proto`: the server-side filters a scan may carry.

use super::BytesBytesPair;

/// `Filter`: a filter's Java class name and its own message.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Filter {
    #[prost(string, required, tag = "1")]
    pub name: String,
    #[prost(bytes = "vec", optional, tag = "2")]
    pub serialized_filter: Option<Vec<u8>>,
}

/// `FilterList`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct FilterList {
    #[prost(enumeration = "filter_list::Operator", required, tag = "1")]
    pub operator: i32,
    #[prost(message, repeated, tag = "2")]
    pub filters: Vec<Filter>,
}

/// `FilterList`'s nested types.
pub mod filter_list {
    /// `FilterList.Operator`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
    #[repr(i32)]
    pub enum Operator {
        MustPassAll = 1,
        MustPassOne = 2,
    }
}

/// `FuzzyRowFilter`: pairs of (key, mask).
#[derive(Clone, PartialEq, prost::Message)]
pub struct FuzzyRowFilter {
    #[prost(message, repeated, tag = "1")]
    pub fuzzy_keys_data: Vec<BytesBytesPair>,
    #[prost(bool, optional, tag = "2")]
    pub is_mask_v2: Option<bool>,
}

/// `RowRange`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RowRange {
    #[prost(bytes = "vec", optional, tag = "1")]
    pub start_row: Option<Vec<u8>>,
    #[prost(bool, optional, tag = "2")]
    pub start_row_inclusive: Option<bool>,
    #[prost(bytes = "vec", optional, tag = "3")]
    pub stop_row: Option<Vec<u8>>,
    #[prost(bool, optional, tag = "4")]
    pub stop_row_inclusive: Option<bool>,
}

/// `ColumnRangeFilter`: cells whose qualifier is between two bounds
/// (an absent bound: no bound on that side).
#[derive(Clone, PartialEq, prost::Message)]
pub struct ColumnRangeFilter {
    #[prost(bytes = "vec", optional, tag = "1")]
    pub min_column: Option<Vec<u8>>,
    #[prost(bool, optional, tag = "2")]
    pub min_column_inclusive: Option<bool>,
    #[prost(bytes = "vec", optional, tag = "3")]
    pub max_column: Option<Vec<u8>>,
    #[prost(bool, optional, tag = "4")]
    pub max_column_inclusive: Option<bool>,
}

/// `MultiRowRangeFilter`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MultiRowRangeFilter {
    #[prost(message, repeated, tag = "1")]
    pub row_range_list: Vec<RowRange>,
}

/// `CompareFilter`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct CompareFilter {
    #[prost(enumeration = "super::CompareType", required, tag = "1")]
    pub compare_op: i32,
    #[prost(message, optional, tag = "2")]
    pub comparator: Option<Comparator>,
}

/// `RowFilter`: rows whose key compares as asked.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RowFilter {
    #[prost(message, required, tag = "1")]
    pub compare_filter: CompareFilter,
}

/// `Comparator` (`Comparator.proto`): a comparator's Java class name and
/// its own message.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Comparator {
    #[prost(string, required, tag = "1")]
    pub name: String,
    #[prost(bytes = "vec", optional, tag = "2")]
    pub serialized_comparator: Option<Vec<u8>>,
}

/// `RegexStringComparator` (`Comparator.proto`).
#[derive(Clone, PartialEq, prost::Message)]
pub struct RegexStringComparator {
    #[prost(string, required, tag = "1")]
    pub pattern: String,
    #[prost(int32, required, tag = "2")]
    pub pattern_flags: i32,
    #[prost(string, required, tag = "3")]
    pub charset: String,
}

/// `ByteArrayComparable` (`Comparator.proto`).
#[derive(Clone, PartialEq, prost::Message)]
pub struct ByteArrayComparable {
    #[prost(bytes = "vec", optional, tag = "1")]
    pub value: Option<Vec<u8>>,
}

/// `BinaryComparator` (`Comparator.proto`): bytes compared as unsigned.
#[derive(Clone, PartialEq, prost::Message)]
pub struct BinaryComparator {
    #[prost(message, required, tag = "1")]
    pub comparable: ByteArrayComparable,
}
