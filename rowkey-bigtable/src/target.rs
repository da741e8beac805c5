//! [`Target`]: where a store's calls go, and the headers each carries.

use crate::status::url_encode;
use bigtable_rs::bigtable::BigTable;
use rowkey_store::WriteClock;
use rowkey_store::{RetryPolicy, WriteEpoch};
use std::sync::Arc;
use std::time::Duration;
use tonic::metadata::MetadataValue;

/// The largest response message the client accepts: Bigtable cells go up
/// to 100 MB and rows to 256 MB; tonic's default of 4 MiB would refuse a
/// 5 MiB cell ("decoded message length too large").
pub const MAX_MESSAGE_BYTES: usize = 256 << 20;

/// `google.bigtable.v2.FeatureFlags` as this client sends it on every
/// request: `reverse_scans` (1), `last_scanned_row_responses` (4),
/// `routing_cookie` (6) and `retry_info` (7), each `true`; the message's
/// bytes base64url-encoded. Without `reverse_scans`, Bigtable (and the
/// emulator) refuse a reversed read as UNIMPLEMENTED; the others tell
/// Cloud Bigtable it may send what this client honours.
pub(crate) const FEATURE_FLAGS: &str = "CAEgATABOAE=";

/// Where calls go: the client, the full table name, the app profile, the
/// retry policy and the operation timeout.
#[derive(Clone)]
pub(crate) struct Target {
    pub(crate) client: BigTable,
    pub(crate) table: Arc<str>,
    pub(crate) app_profile: Arc<str>,
    pub(crate) retry: RetryPolicy,
    /// How long an operation may take, retries included.
    pub(crate) timeout: Option<Duration>,
    /// The most rows one request asks for.
    pub(crate) page_rows: u64,
    /// The client's writes, moved around every mutation sent: a page's
    /// walk parked before one is not gone on with after it (the stores
    /// of every table of the client share it).
    pub(crate) epoch: Arc<WriteEpoch>,
    /// The client's write timestamps (the stores of every table of the
    /// client share it): strictly increasing, so a later write beats an
    /// earlier one's late copy.
    pub(crate) clock: Arc<WriteClock>,
}

impl Target {
    /// A tonic request with Bigtable's routing headers: the table and app
    /// profile (`x-goog-request-params`, which Cloud Bigtable routes by)
    /// and the client's feature flags (`bigtable-features`).
    pub(crate) fn request<T>(&self, message: T) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        let params = format!(
            "table_name={}&app_profile_id={}",
            url_encode(&self.table),
            url_encode(&self.app_profile)
        );
        if let Ok(value) = MetadataValue::try_from(params) {
            request
                .metadata_mut()
                .insert("x-goog-request-params", value);
        }
        request.metadata_mut().insert(
            "bigtable-features",
            MetadataValue::from_static(FEATURE_FLAGS),
        );
        request
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bigtable_rs::google::bigtable::v2::FeatureFlags;

    #[test]
    fn feature_flags_say_what_the_client_honours() {
        let flags = FeatureFlags {
            reverse_scans: true,
            last_scanned_row_responses: true,
            routing_cookie: true,
            retry_info: true,
            ..FeatureFlags::default()
        };
        let bytes = prost::Message::encode_to_vec(&flags);
        assert_eq!(bytes, [0x08, 0x01, 0x20, 0x01, 0x30, 0x01, 0x38, 0x01]);
        // base64url of those 8 bytes.
        assert_eq!(FEATURE_FLAGS, "CAEgATABOAE=");
    }
}
