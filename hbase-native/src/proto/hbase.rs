//! `HBase.proto` and `Cell.proto`: names, regions, servers, cells.

/// `TableName`.
#[derive(Clone, PartialEq, Eq, Hash, prost::Message)]
pub struct TableName {
    #[prost(bytes = "vec", required, tag = "1")]
    pub namespace: Vec<u8>,
    #[prost(bytes = "vec", required, tag = "2")]
    pub qualifier: Vec<u8>,
}

/// `BytesBytesPair`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct BytesBytesPair {
    #[prost(bytes = "vec", required, tag = "1")]
    pub first: Vec<u8>,
    #[prost(bytes = "vec", required, tag = "2")]
    pub second: Vec<u8>,
}

/// `NameStringPair`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct NameStringPair {
    #[prost(string, required, tag = "1")]
    pub name: String,
    #[prost(string, required, tag = "2")]
    pub value: String,
}

/// `NameBytesPair`: an exception in a `Multi` (class name, message).
#[derive(Clone, PartialEq, prost::Message)]
pub struct NameBytesPair {
    #[prost(string, required, tag = "1")]
    pub name: String,
    #[prost(bytes = "vec", optional, tag = "2")]
    pub value: Option<Vec<u8>>,
}

/// `TableSchema`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TableSchema {
    #[prost(message, optional, tag = "1")]
    pub table_name: Option<TableName>,
    #[prost(message, repeated, tag = "2")]
    pub attributes: Vec<BytesBytesPair>,
    #[prost(message, repeated, tag = "3")]
    pub column_families: Vec<ColumnFamilySchema>,
}

/// `ColumnFamilySchema`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ColumnFamilySchema {
    #[prost(bytes = "vec", required, tag = "1")]
    pub name: Vec<u8>,
    #[prost(message, repeated, tag = "2")]
    pub attributes: Vec<BytesBytesPair>,
}

/// `RegionInfo`: in `hbase:meta`'s `info:regioninfo`, after `PBUF`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RegionInfo {
    #[prost(uint64, required, tag = "1")]
    pub region_id: u64,
    #[prost(message, required, tag = "2")]
    pub table_name: TableName,
    #[prost(bytes = "vec", optional, tag = "3")]
    pub start_key: Option<Vec<u8>>,
    #[prost(bytes = "vec", optional, tag = "4")]
    pub end_key: Option<Vec<u8>>,
    #[prost(bool, optional, tag = "5")]
    pub offline: Option<bool>,
    #[prost(bool, optional, tag = "6")]
    pub split: Option<bool>,
    #[prost(int32, optional, tag = "7")]
    pub replica_id: Option<i32>,
}

/// `RegionSpecifier`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RegionSpecifier {
    #[prost(
        enumeration = "region_specifier::RegionSpecifierType",
        required,
        tag = "1"
    )]
    pub r#type: i32,
    #[prost(bytes = "vec", required, tag = "2")]
    pub value: Vec<u8>,
}

/// `RegionSpecifier`'s nested types.
pub mod region_specifier {
    /// `RegionSpecifier.RegionSpecifierType`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
    #[repr(i32)]
    pub enum RegionSpecifierType {
        RegionName = 1,
        EncodedRegionName = 2,
    }
}

/// `ServerName`.
#[derive(Clone, PartialEq, Eq, Hash, prost::Message)]
pub struct ServerName {
    #[prost(string, required, tag = "1")]
    pub host_name: String,
    #[prost(uint32, optional, tag = "2")]
    pub port: Option<u32>,
    #[prost(uint64, optional, tag = "3")]
    pub start_code: Option<u64>,
}

/// `RegionLocation`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RegionLocation {
    #[prost(message, required, tag = "1")]
    pub region_info: RegionInfo,
    #[prost(message, optional, tag = "2")]
    pub server_name: Option<ServerName>,
    #[prost(int64, required, tag = "3")]
    pub seq_num: i64,
}

/// `TimeRange`: `[from, to)` in milliseconds.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TimeRange {
    #[prost(uint64, optional, tag = "1")]
    pub from: Option<u64>,
    #[prost(uint64, optional, tag = "2")]
    pub to: Option<u64>,
}

/// `CompareType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum CompareType {
    Less = 0,
    LessOrEqual = 1,
    Equal = 2,
    NotEqual = 3,
    GreaterOrEqual = 4,
    Greater = 5,
    NoOp = 6,
}

/// `CellType` (`Cell.proto`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum CellType {
    Minimum = 0,
    Put = 4,
    Delete = 8,
    DeleteFamilyVersion = 10,
    DeleteColumn = 12,
    DeleteFamily = 14,
    Maximum = 255,
}

/// `Cell` (`Cell.proto`): a cell sent inline, without a cell block.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Cell {
    #[prost(bytes = "vec", optional, tag = "1")]
    pub row: Option<Vec<u8>>,
    #[prost(bytes = "vec", optional, tag = "2")]
    pub family: Option<Vec<u8>>,
    #[prost(bytes = "vec", optional, tag = "3")]
    pub qualifier: Option<Vec<u8>>,
    #[prost(uint64, optional, tag = "4")]
    pub timestamp: Option<u64>,
    #[prost(enumeration = "CellType", optional, tag = "5")]
    pub cell_type: Option<i32>,
    #[prost(bytes = "vec", optional, tag = "6")]
    pub value: Option<Vec<u8>>,
}
