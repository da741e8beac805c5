//! `Client.proto`: gets, mutations, scans and `Multi`.

use super::{Cell, Comparator, CompareType, Filter, NameBytesPair, RegionSpecifier, TimeRange};

/// `Column`: a family, and some of its qualifiers (none: all).
#[derive(Clone, PartialEq, prost::Message)]
pub struct Column {
    #[prost(bytes = "vec", required, tag = "1")]
    pub family: Vec<u8>,
    #[prost(bytes = "vec", repeated, tag = "2")]
    pub qualifier: Vec<Vec<u8>>,
}

/// `Get`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Get {
    #[prost(bytes = "vec", required, tag = "1")]
    pub row: Vec<u8>,
    #[prost(message, repeated, tag = "2")]
    pub column: Vec<Column>,
    #[prost(message, optional, tag = "4")]
    pub filter: Option<Filter>,
    #[prost(message, optional, tag = "5")]
    pub time_range: Option<TimeRange>,
    #[prost(uint32, optional, tag = "6")]
    pub max_versions: Option<u32>,
    #[prost(uint32, optional, tag = "8")]
    pub store_limit: Option<u32>,
}

/// `Result`: one row's cells (inline, or `associated_cell_count` of them
/// in the response's cell block).
#[derive(Clone, PartialEq, prost::Message)]
pub struct Result {
    #[prost(message, repeated, tag = "1")]
    pub cell: Vec<Cell>,
    #[prost(int32, optional, tag = "2")]
    pub associated_cell_count: Option<i32>,
    #[prost(bool, optional, tag = "3")]
    pub exists: Option<bool>,
    #[prost(bool, optional, tag = "4")]
    pub stale: Option<bool>,
    #[prost(bool, optional, tag = "5")]
    pub partial: Option<bool>,
}

/// `GetRequest`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetRequest {
    #[prost(message, required, tag = "1")]
    pub region: RegionSpecifier,
    #[prost(message, required, tag = "2")]
    pub get: Get,
}

/// `GetResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetResponse {
    #[prost(message, optional, tag = "1")]
    pub result: Option<Result>,
}

/// `Condition`: what a conditional mutation checks of one cell.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Condition {
    #[prost(bytes = "vec", required, tag = "1")]
    pub row: Vec<u8>,
    #[prost(bytes = "vec", optional, tag = "2")]
    pub family: Option<Vec<u8>>,
    #[prost(bytes = "vec", optional, tag = "3")]
    pub qualifier: Option<Vec<u8>>,
    #[prost(enumeration = "CompareType", optional, tag = "4")]
    pub compare_type: Option<i32>,
    #[prost(message, optional, tag = "5")]
    pub comparator: Option<Comparator>,
    #[prost(message, optional, tag = "6")]
    pub time_range: Option<TimeRange>,
}

/// `MutationProto`: one row's put, delete, increment or append.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MutationProto {
    #[prost(bytes = "vec", optional, tag = "1")]
    pub row: Option<Vec<u8>>,
    #[prost(enumeration = "mutation_proto::MutationType", optional, tag = "2")]
    pub mutate_type: Option<i32>,
    #[prost(message, repeated, tag = "3")]
    pub column_value: Vec<mutation_proto::ColumnValue>,
    #[prost(uint64, optional, tag = "4")]
    pub timestamp: Option<u64>,
    #[prost(enumeration = "mutation_proto::Durability", optional, tag = "6")]
    pub durability: Option<i32>,
    #[prost(int32, optional, tag = "8")]
    pub associated_cell_count: Option<i32>,
    #[prost(uint64, optional, tag = "9")]
    pub nonce: Option<u64>,
}

/// `MutationProto`'s nested types.
pub mod mutation_proto {
    /// `MutationProto.Durability`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
    #[repr(i32)]
    pub enum Durability {
        UseDefault = 0,
        SkipWal = 1,
        AsyncWal = 2,
        SyncWal = 3,
        FsyncWal = 4,
    }

    /// `MutationProto.MutationType`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
    #[repr(i32)]
    pub enum MutationType {
        Append = 0,
        Increment = 1,
        Put = 2,
        Delete = 3,
    }

    /// `MutationProto.DeleteType`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
    #[repr(i32)]
    pub enum DeleteType {
        DeleteOneVersion = 0,
        DeleteMultipleVersions = 1,
        DeleteFamily = 2,
        DeleteFamilyVersion = 3,
    }

    /// `MutationProto.ColumnValue`: one family's cells.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct ColumnValue {
        #[prost(bytes = "vec", required, tag = "1")]
        pub family: Vec<u8>,
        #[prost(message, repeated, tag = "2")]
        pub qualifier_value: Vec<column_value::QualifierValue>,
    }

    /// `ColumnValue`'s nested types.
    pub mod column_value {
        /// `MutationProto.ColumnValue.QualifierValue`.
        #[derive(Clone, PartialEq, prost::Message)]
        pub struct QualifierValue {
            #[prost(bytes = "vec", optional, tag = "1")]
            pub qualifier: Option<Vec<u8>>,
            #[prost(bytes = "vec", optional, tag = "2")]
            pub value: Option<Vec<u8>>,
            #[prost(uint64, optional, tag = "3")]
            pub timestamp: Option<u64>,
            #[prost(enumeration = "super::DeleteType", optional, tag = "4")]
            pub delete_type: Option<i32>,
        }
    }
}

/// `MutateRequest`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MutateRequest {
    #[prost(message, required, tag = "1")]
    pub region: RegionSpecifier,
    #[prost(message, required, tag = "2")]
    pub mutation: MutationProto,
    #[prost(message, optional, tag = "3")]
    pub condition: Option<Condition>,
    #[prost(uint64, optional, tag = "4")]
    pub nonce_group: Option<u64>,
}

/// `MutateResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MutateResponse {
    #[prost(message, optional, tag = "1")]
    pub result: Option<Result>,
    #[prost(bool, optional, tag = "2")]
    pub processed: Option<bool>,
}

/// `Scan`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Scan {
    #[prost(message, repeated, tag = "1")]
    pub column: Vec<Column>,
    #[prost(bytes = "vec", optional, tag = "3")]
    pub start_row: Option<Vec<u8>>,
    #[prost(bytes = "vec", optional, tag = "4")]
    pub stop_row: Option<Vec<u8>>,
    #[prost(message, optional, tag = "5")]
    pub filter: Option<Filter>,
    #[prost(message, optional, tag = "6")]
    pub time_range: Option<TimeRange>,
    #[prost(uint32, optional, tag = "7")]
    pub max_versions: Option<u32>,
    #[prost(bool, optional, tag = "8")]
    pub cache_blocks: Option<bool>,
    #[prost(uint64, optional, tag = "10")]
    pub max_result_size: Option<u64>,
    #[prost(uint32, optional, tag = "11")]
    pub store_limit: Option<u32>,
    #[prost(bool, optional, tag = "15")]
    pub reversed: Option<bool>,
    #[prost(uint32, optional, tag = "17")]
    pub caching: Option<u32>,
    #[prost(bool, optional, tag = "18")]
    pub allow_partial_results: Option<bool>,
    #[prost(uint64, optional, tag = "20")]
    pub mvcc_read_point: Option<u64>,
    #[prost(bool, optional, tag = "21")]
    pub include_start_row: Option<bool>,
    #[prost(bool, optional, tag = "22")]
    pub include_stop_row: Option<bool>,
}

/// `ScanRequest`: opens a scanner (`scan`), or goes on with or closes one
/// (`scanner_id`).
#[derive(Clone, PartialEq, prost::Message)]
pub struct ScanRequest {
    #[prost(message, optional, tag = "1")]
    pub region: Option<RegionSpecifier>,
    #[prost(message, optional, tag = "2")]
    pub scan: Option<Scan>,
    #[prost(uint64, optional, tag = "3")]
    pub scanner_id: Option<u64>,
    #[prost(uint32, optional, tag = "4")]
    pub number_of_rows: Option<u32>,
    #[prost(bool, optional, tag = "5")]
    pub close_scanner: Option<bool>,
    #[prost(uint64, optional, tag = "6")]
    pub next_call_seq: Option<u64>,
    #[prost(bool, optional, tag = "7")]
    pub client_handles_partials: Option<bool>,
    #[prost(bool, optional, tag = "8")]
    pub client_handles_heartbeats: Option<bool>,
    #[prost(bool, optional, tag = "10")]
    pub renew: Option<bool>,
    #[prost(uint32, optional, tag = "11")]
    pub limit_of_rows: Option<u32>,
}

/// `ScanResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ScanResponse {
    #[prost(uint32, repeated, packed = "false", tag = "1")]
    pub cells_per_result: Vec<u32>,
    #[prost(uint64, optional, tag = "2")]
    pub scanner_id: Option<u64>,
    #[prost(bool, optional, tag = "3")]
    pub more_results: Option<bool>,
    #[prost(uint32, optional, tag = "4")]
    pub ttl: Option<u32>,
    #[prost(message, repeated, tag = "5")]
    pub results: Vec<Result>,
    #[prost(bool, repeated, packed = "false", tag = "7")]
    pub partial_flag_per_result: Vec<bool>,
    #[prost(bool, optional, tag = "8")]
    pub more_results_in_region: Option<bool>,
    #[prost(bool, optional, tag = "9")]
    pub heartbeat_message: Option<bool>,
    #[prost(uint64, optional, tag = "11")]
    pub mvcc_read_point: Option<u64>,
}

/// `Action`: one mutation or get of a `RegionAction`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Action {
    #[prost(uint32, optional, tag = "1")]
    pub index: Option<u32>,
    #[prost(message, optional, tag = "2")]
    pub mutation: Option<MutationProto>,
    #[prost(message, optional, tag = "3")]
    pub get: Option<Get>,
}

/// `RegionAction`: the actions of one region (`atomic`: all or none).
#[derive(Clone, PartialEq, prost::Message)]
pub struct RegionAction {
    #[prost(message, required, tag = "1")]
    pub region: RegionSpecifier,
    #[prost(bool, optional, tag = "2")]
    pub atomic: Option<bool>,
    #[prost(message, repeated, tag = "3")]
    pub action: Vec<Action>,
    #[prost(message, optional, tag = "4")]
    pub condition: Option<Condition>,
}

/// `ResultOrException`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ResultOrException {
    #[prost(uint32, optional, tag = "1")]
    pub index: Option<u32>,
    #[prost(message, optional, tag = "2")]
    pub result: Option<Result>,
    #[prost(message, optional, tag = "3")]
    pub exception: Option<NameBytesPair>,
}

/// `RegionActionResult`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RegionActionResult {
    #[prost(message, repeated, tag = "1")]
    pub result_or_exception: Vec<ResultOrException>,
    #[prost(message, optional, tag = "2")]
    pub exception: Option<NameBytesPair>,
    #[prost(bool, optional, tag = "3")]
    pub processed: Option<bool>,
}

/// `MultiRequest`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MultiRequest {
    #[prost(message, repeated, tag = "1")]
    pub region_action: Vec<RegionAction>,
    #[prost(uint64, optional, tag = "2")]
    pub nonce_group: Option<u64>,
}

/// `MultiResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MultiResponse {
    #[prost(message, repeated, tag = "1")]
    pub region_action_result: Vec<RegionActionResult>,
}

/// `CoprocessorServiceCall`: a call to a coprocessor's service.
#[derive(Clone, PartialEq, prost::Message)]
pub struct CoprocessorServiceCall {
    #[prost(bytes = "vec", required, tag = "1")]
    pub row: Vec<u8>,
    #[prost(string, required, tag = "2")]
    pub service_name: String,
    #[prost(string, required, tag = "3")]
    pub method_name: String,
    #[prost(bytes = "vec", required, tag = "4")]
    pub request: Vec<u8>,
}

/// `CoprocessorServiceRequest`: `ExecService`'s request.
#[derive(Clone, PartialEq, prost::Message)]
pub struct CoprocessorServiceRequest {
    #[prost(message, required, tag = "1")]
    pub region: RegionSpecifier,
    #[prost(message, required, tag = "2")]
    pub call: CoprocessorServiceCall,
}

/// `CoprocessorServiceResponse`: the coprocessor's answer, as a name and
/// its serialized message.
#[derive(Clone, PartialEq, prost::Message)]
pub struct CoprocessorServiceResponse {
    #[prost(message, required, tag = "1")]
    pub region: RegionSpecifier,
    #[prost(message, required, tag = "2")]
    pub value: NameBytesPair,
}
