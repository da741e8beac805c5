//! `Master.proto` and `ErrorHandling.proto`: the table admin calls of
//! `MasterService`, and the procedures they start.

use super::{TableName, TableSchema};

/// `CreateTableRequest`: a table, pre-split at `split_keys`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct CreateTableRequest {
    #[prost(message, required, tag = "1")]
    pub table_schema: TableSchema,
    #[prost(bytes = "vec", repeated, tag = "2")]
    pub split_keys: Vec<Vec<u8>>,
    #[prost(uint64, optional, tag = "3")]
    pub nonce_group: Option<u64>,
    #[prost(uint64, optional, tag = "4")]
    pub nonce: Option<u64>,
}

/// `CreateTableResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct CreateTableResponse {
    #[prost(uint64, optional, tag = "1")]
    pub proc_id: Option<u64>,
}

/// `DeleteTableRequest`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct DeleteTableRequest {
    #[prost(message, required, tag = "1")]
    pub table_name: TableName,
    #[prost(uint64, optional, tag = "2")]
    pub nonce_group: Option<u64>,
    #[prost(uint64, optional, tag = "3")]
    pub nonce: Option<u64>,
}

/// `DeleteTableResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct DeleteTableResponse {
    #[prost(uint64, optional, tag = "1")]
    pub proc_id: Option<u64>,
}

/// `DisableTableRequest`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct DisableTableRequest {
    #[prost(message, required, tag = "1")]
    pub table_name: TableName,
    #[prost(uint64, optional, tag = "2")]
    pub nonce_group: Option<u64>,
    #[prost(uint64, optional, tag = "3")]
    pub nonce: Option<u64>,
}

/// `DisableTableResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct DisableTableResponse {
    #[prost(uint64, optional, tag = "1")]
    pub proc_id: Option<u64>,
}

/// `GetTableDescriptorsRequest`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetTableDescriptorsRequest {
    #[prost(message, repeated, tag = "1")]
    pub table_names: Vec<TableName>,
    #[prost(string, optional, tag = "2")]
    pub regex: Option<String>,
    #[prost(bool, optional, tag = "3")]
    pub include_sys_tables: Option<bool>,
    #[prost(string, optional, tag = "4")]
    pub namespace: Option<String>,
}

/// `GetTableDescriptorsResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetTableDescriptorsResponse {
    #[prost(message, repeated, tag = "1")]
    pub table_schema: Vec<TableSchema>,
}

/// `GetTableNamesRequest`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetTableNamesRequest {
    #[prost(string, optional, tag = "1")]
    pub regex: Option<String>,
    #[prost(bool, optional, tag = "2")]
    pub include_sys_tables: Option<bool>,
    #[prost(string, optional, tag = "3")]
    pub namespace: Option<String>,
}

/// `GetTableNamesResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetTableNamesResponse {
    #[prost(message, repeated, tag = "1")]
    pub table_names: Vec<TableName>,
}

/// `GetProcedureResultRequest`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetProcedureResultRequest {
    #[prost(uint64, required, tag = "1")]
    pub proc_id: u64,
}

/// `GetProcedureResultResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetProcedureResultResponse {
    #[prost(
        enumeration = "get_procedure_result_response::State",
        required,
        tag = "1"
    )]
    pub state: i32,
    #[prost(message, optional, tag = "5")]
    pub exception: Option<ForeignExceptionMessage>,
}

/// `GetProcedureResultResponse`'s nested types.
pub mod get_procedure_result_response {
    /// `GetProcedureResultResponse.State`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
    #[repr(i32)]
    pub enum State {
        NotFound = 0,
        Running = 1,
        Finished = 2,
    }
}

/// `ForeignExceptionMessage` (`ErrorHandling.proto`): why a procedure failed.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ForeignExceptionMessage {
    #[prost(string, optional, tag = "1")]
    pub source: Option<String>,
    #[prost(message, optional, tag = "2")]
    pub generic_exception: Option<GenericExceptionMessage>,
}

/// `GenericExceptionMessage` (`ErrorHandling.proto`).
#[derive(Clone, PartialEq, prost::Message)]
pub struct GenericExceptionMessage {
    #[prost(string, optional, tag = "1")]
    pub class_name: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub message: Option<String>,
}
