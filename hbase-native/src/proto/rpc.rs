//! `RPC.proto`: the connection header and the header of every call.

/// `UserInformation`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct UserInformation {
    #[prost(string, required, tag = "1")]
    pub effective_user: String,
}

/// `ConnectionHeader`: sent once, after the preamble.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ConnectionHeader {
    #[prost(message, optional, tag = "1")]
    pub user_info: Option<UserInformation>,
    #[prost(string, optional, tag = "2")]
    pub service_name: Option<String>,
    #[prost(string, optional, tag = "3")]
    pub cell_block_codec_class: Option<String>,
}

/// `CellBlockMeta`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct CellBlockMeta {
    #[prost(uint32, optional, tag = "1")]
    pub length: Option<u32>,
}

/// `ExceptionResponse`: what a failed call answers.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ExceptionResponse {
    #[prost(string, optional, tag = "1")]
    pub exception_class_name: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub stack_trace: Option<String>,
    #[prost(string, optional, tag = "3")]
    pub hostname: Option<String>,
    #[prost(int32, optional, tag = "4")]
    pub port: Option<i32>,
    #[prost(bool, optional, tag = "5")]
    pub do_not_retry: Option<bool>,
}

/// `RequestHeader`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RequestHeader {
    #[prost(uint32, optional, tag = "1")]
    pub call_id: Option<u32>,
    #[prost(string, optional, tag = "3")]
    pub method_name: Option<String>,
    #[prost(bool, optional, tag = "4")]
    pub request_param: Option<bool>,
    #[prost(message, optional, tag = "5")]
    pub cell_block_meta: Option<CellBlockMeta>,
    #[prost(uint32, optional, tag = "7")]
    pub timeout: Option<u32>,
}

/// `ResponseHeader`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ResponseHeader {
    #[prost(uint32, optional, tag = "1")]
    pub call_id: Option<u32>,
    #[prost(message, optional, tag = "2")]
    pub exception: Option<ExceptionResponse>,
    #[prost(message, optional, tag = "3")]
    pub cell_block_meta: Option<CellBlockMeta>,
}
