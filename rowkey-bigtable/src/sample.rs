//! `SampleRowKeys`: where a table's tablets end, with the bytes before
//! each, for splitting a scan of the whole table into parts of about
//! equal size.

use crate::call::Call;
use crate::status::store_error;
use crate::target::Target;
use bigtable_rs::google::bigtable::v2::SampleRowKeysRequest;
use rowkey_store::StoreError;

/// One sample of a table's keys.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct KeySample {
    /// A key that ends a tablet (or a part of one): the rows before it
    /// hold about `offset_bytes`. The last sample of a table has an empty
    /// key: the end of the table.
    pub key: Vec<u8>,
    /// The bytes of the table's rows that sort before `key`, roughly.
    pub offset_bytes: i64,
}

/// The samples, in key order, retried whole (reading is idempotent) on
/// transient failures.
pub(crate) async fn sample_row_keys(target: &Target) -> Result<Vec<KeySample>, StoreError> {
    let op = "sample row keys";
    let mut call = Call::start(target, op);
    let idle = target.retry.idle_timeout;
    loop {
        let error = match attempt(&mut call, target, idle).await {
            Ok(samples) => return Ok(samples),
            Err(e) => e,
        };
        call.retry_after(error).await?;
    }
}

/// One attempt: the whole stream, or why not (the samples of a broken
/// stream are dropped: the retry reads them all again).
async fn attempt(
    call: &mut Call,
    target: &Target,
    idle: std::time::Duration,
) -> Result<Vec<KeySample>, StoreError> {
    let op = "sample row keys";
    let request = call.request(
        target,
        SampleRowKeysRequest {
            table_name: target.table.to_string(),
            app_profile_id: target.app_profile.to_string(),
            ..SampleRowKeysRequest::default()
        },
    );
    let mut client = target.client.clone();
    let response = call
        .within(
            idle,
            "the request",
            client.get_client().sample_row_keys(request),
        )
        .await?
        .map_err(|s| store_error(op, s))?;
    call.keep_cookies(response.metadata());
    let mut stream = response.into_inner();
    let mut samples = Vec::new();
    loop {
        match call
            .within(idle, "the stream stalled", stream.message())
            .await?
            .map_err(|s| store_error(op, s))?
        {
            Some(m) => samples.push(KeySample {
                key: m.row_key,
                offset_bytes: m.offset_bytes,
            }),
            None => return Ok(samples),
        }
    }
}
