//! `Authentication.proto` (in HBase's `hbase-protocol` jar): delegation
//! tokens from the `TokenProvider` coprocessor's `AuthenticationService`.

/// `TokenIdentifier`: what a token's identifier bytes hold.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TokenIdentifier {
    #[prost(enumeration = "token_identifier::Kind", required, tag = "1")]
    pub kind: i32,
    #[prost(bytes = "vec", required, tag = "2")]
    pub username: Vec<u8>,
    #[prost(int32, required, tag = "3")]
    pub key_id: i32,
    #[prost(int64, optional, tag = "4")]
    pub issue_date: Option<i64>,
    #[prost(int64, optional, tag = "5")]
    pub expiration_date: Option<i64>,
    #[prost(int64, optional, tag = "6")]
    pub sequence_number: Option<i64>,
}

pub mod token_identifier {
    /// `TokenIdentifier.Kind`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
    #[repr(i32)]
    pub enum Kind {
        HbaseAuthToken = 0,
    }
}

/// `Token`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Token {
    #[prost(bytes = "vec", optional, tag = "1")]
    pub identifier: Option<Vec<u8>>,
    #[prost(bytes = "vec", optional, tag = "2")]
    pub password: Option<Vec<u8>>,
    #[prost(bytes = "vec", optional, tag = "3")]
    pub service: Option<Vec<u8>>,
}

/// `GetAuthenticationTokenRequest`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetAuthenticationTokenRequest {}

/// `GetAuthenticationTokenResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetAuthenticationTokenResponse {
    #[prost(message, optional, tag = "1")]
    pub token: Option<Token>,
}
