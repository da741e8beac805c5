//! `ZooKeeper.proto` and `Registry.proto`: where `hbase:meta` and the
//! active master are, as ZooKeeper's znodes and the masters' connection
//! registry say.

use super::{RegionLocation, ServerName};

/// `MetaRegionServer`: the data of `/hbase/meta-region-server`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MetaRegionServer {
    #[prost(message, required, tag = "1")]
    pub server: ServerName,
    #[prost(uint32, optional, tag = "2")]
    pub rpc_version: Option<u32>,
}

/// `Master`: the data of `/hbase/master`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Master {
    #[prost(message, required, tag = "1")]
    pub master: ServerName,
    #[prost(uint32, optional, tag = "2")]
    pub rpc_version: Option<u32>,
}

/// `GetClusterIdRequest`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetClusterIdRequest {}

/// `GetClusterIdResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetClusterIdResponse {
    #[prost(string, optional, tag = "1")]
    pub cluster_id: Option<String>,
}

/// `GetActiveMasterRequest`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetActiveMasterRequest {}

/// `GetActiveMasterResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetActiveMasterResponse {
    #[prost(message, optional, tag = "1")]
    pub server_name: Option<ServerName>,
}

/// `GetMetaRegionLocationsRequest`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetMetaRegionLocationsRequest {}

/// `GetMetaRegionLocationsResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetMetaRegionLocationsResponse {
    #[prost(message, repeated, tag = "1")]
    pub meta_locations: Vec<RegionLocation>,
}
