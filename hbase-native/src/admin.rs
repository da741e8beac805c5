//! [`Admin`]: tables created (pre-split at split keys), disabled, deleted,
//! listed and described through the active master's `MasterService`;
//! a table's regions read from `hbase:meta`.
//!
//! Create, disable and delete start procedures on the master; each call
//! here waits for its procedure to finish (`getProcedureResult`) and says
//! why it failed if it did.

use crate::client::Client;
use crate::cluster::Cluster;
use crate::error::{Error, Result};
use crate::options::CallPolicy;
use crate::proto;
use crate::regions::Region;
use crate::servers::MASTER_SERVICE;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a procedure may run before the call gives up waiting.
const PROCEDURE_WAIT: Duration = Duration::from_secs(180);

/// The table admin of a [`Client`].
///
/// ```no_run
/// # async fn run() -> Result<(), hbase_native::Error> {
/// let client = hbase_native::Client::connect("zk://127.0.0.1:2181").await?;
/// let admin = client.admin();
/// // Four regions: [.., b), [b, c), [c, d), [d, ..).
/// admin.create_table("events", &["d"], &[b"b".to_vec(), b"c".to_vec(), b"d".to_vec()]).await?;
/// assert_eq!(admin.regions("events").await?.len(), 4);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Admin {
    client: Client,
}

/// `ns:table` as a `TableName` (no namespace: `default`).
fn table_name(table: &str) -> proto::TableName {
    let (namespace, qualifier) = table.split_once(':').unwrap_or(("default", table));
    proto::TableName {
        namespace: namespace.as_bytes().to_vec(),
        qualifier: qualifier.as_bytes().to_vec(),
    }
}

/// A `TableName` as users write it (`default:` left out).
fn name_of(name: &proto::TableName) -> String {
    let qualifier = String::from_utf8_lossy(&name.qualifier);
    if name.namespace == b"default" {
        qualifier.into_owned()
    } else {
        format!("{}:{qualifier}", String::from_utf8_lossy(&name.namespace))
    }
}

impl Admin {
    pub(crate) fn new(client: Client) -> Admin {
        Admin { client }
    }

    /// Creates `table` with `families` (one version each), split before
    /// each of `split_keys` (sorted or not; none: one region), and waits
    /// until every region is open.
    pub async fn create_table(
        &self,
        table: &str,
        families: &[&str],
        split_keys: &[Vec<u8>],
    ) -> Result<()> {
        if families.is_empty() {
            return Err(Error::Procedure {
                what: format!("create table {table}"),
                why: "a table needs at least one column family".into(),
            });
        }
        let mut splits = split_keys.to_vec();
        splits.sort();
        splits.dedup();
        if splits.first().is_some_and(|k| k.is_empty()) {
            return Err(Error::Procedure {
                what: format!("create table {table}"),
                why: "an empty split key (the table's start is no split)".into(),
            });
        }
        let request = proto::CreateTableRequest {
            table_schema: proto::TableSchema {
                table_name: Some(table_name(table)),
                attributes: vec![],
                column_families: families
                    .iter()
                    .map(|f| proto::ColumnFamilySchema {
                        name: f.as_bytes().to_vec(),
                        attributes: vec![proto::BytesBytesPair {
                            first: b"VERSIONS".to_vec(),
                            second: b"1".to_vec(),
                        }],
                    })
                    .collect(),
            },
            split_keys: splits,
            // One nonce for every try: the master runs a procedure of one
            // nonce once, and answers a retry with the first one's id.
            nonce_group: Some(crate::nonce::group()),
            nonce: Some(crate::nonce::next()),
        };
        let what = format!("create table {table}");
        let table = table.to_owned();
        self.client.forget_table(&table);
        self.client
            .run(move |cluster, policy| async move {
                let (answer, _) = master_call::<proto::CreateTableResponse>(
                    &cluster,
                    &policy,
                    "CreateTable",
                    &request,
                    &table,
                )
                .await?;
                wait_for(&cluster, &policy, answer.proc_id, &what, &table).await?;
                // The regions are open once the procedure is done; looking
                // them up now fills the cache and checks it.
                cluster.forget_table(&table);
                cluster
                    .retrying(&policy, Some(&table), || cluster.regions(&table))
                    .await?;
                Ok(())
            })
            .await
    }

    /// Disables `table` (a table already disabled is fine).
    pub async fn disable_table(&self, table: &str) -> Result<()> {
        let request = proto::DisableTableRequest {
            table_name: table_name(table),
            // One nonce for every try: the master runs a procedure of one
            // nonce once, and answers a retry with the first one's id.
            nonce_group: Some(crate::nonce::group()),
            nonce: Some(crate::nonce::next()),
        };
        let what = format!("disable table {table}");
        let table = table.to_owned();
        self.client.forget_table(&table);
        self.client
            .run(move |cluster, policy| async move {
                match master_call::<proto::DisableTableResponse>(
                    &cluster,
                    &policy,
                    "DisableTable",
                    &request,
                    &table,
                )
                .await
                {
                    Ok((answer, _)) => {
                        wait_for(&cluster, &policy, answer.proc_id, &what, &table).await
                    }
                    Err(e) if is(&e, "TableNotEnabledException") => Ok(()),
                    Err(e) => Err(e),
                }
            })
            .await
    }

    /// Disables and deletes `table`.
    pub async fn delete_table(&self, table: &str) -> Result<()> {
        self.disable_table(table).await?;
        let request = proto::DeleteTableRequest {
            table_name: table_name(table),
            // One nonce for every try: the master runs a procedure of one
            // nonce once, and answers a retry with the first one's id.
            nonce_group: Some(crate::nonce::group()),
            nonce: Some(crate::nonce::next()),
        };
        let what = format!("delete table {table}");
        let table = table.to_owned();
        let forget = table.clone();
        let deleted = self
            .client
            .run(move |cluster, policy| async move {
                let (answer, _) = master_call::<proto::DeleteTableResponse>(
                    &cluster,
                    &policy,
                    "DeleteTable",
                    &request,
                    &table,
                )
                .await?;
                wait_for(&cluster, &policy, answer.proc_id, &what, &table).await
            })
            .await;
        self.client.forget_table(&forget);
        deleted
    }

    /// The tables of every namespace but the system's, `ns:table` or, in
    /// the default namespace, `table`; sorted.
    pub async fn table_names(&self) -> Result<Vec<String>> {
        self.client
            .run(|cluster, policy| async move {
                let request = proto::GetTableNamesRequest {
                    regex: None,
                    include_sys_tables: Some(false),
                    namespace: None,
                };
                let (answer, _) = master_call::<proto::GetTableNamesResponse>(
                    &cluster,
                    &policy,
                    "GetTableNames",
                    &request,
                    "",
                )
                .await?;
                let mut names: Vec<String> = answer.table_names.iter().map(name_of).collect();
                names.sort();
                Ok(names)
            })
            .await
    }

    /// `table`'s column families, sorted.
    pub async fn families(&self, table: &str) -> Result<Vec<String>> {
        let table = table.to_owned();
        self.client
            .run(move |cluster, policy| async move {
                let request = proto::GetTableDescriptorsRequest {
                    table_names: vec![table_name(&table)],
                    regex: None,
                    include_sys_tables: Some(true),
                    namespace: None,
                };
                let (answer, _) = master_call::<proto::GetTableDescriptorsResponse>(
                    &cluster,
                    &policy,
                    "GetTableDescriptors",
                    &request,
                    &table,
                )
                .await?;
                let schema = answer
                    .table_schema
                    .into_iter()
                    .next()
                    .ok_or(Error::TableNotFound { table })?;
                let mut families: Vec<String> = schema
                    .column_families
                    .iter()
                    .map(|f| String::from_utf8_lossy(&f.name).into_owned())
                    .collect();
                families.sort();
                Ok(families)
            })
            .await
    }

    /// `table`'s regions in key order, as `hbase:meta` has them now.
    pub async fn regions(&self, table: &str) -> Result<Vec<Region>> {
        let table = table.to_owned();
        self.client
            .run(move |cluster, policy| async move {
                cluster.forget_table(&table);
                let regions = cluster
                    .retrying(&policy, Some(&table), || cluster.regions(&table))
                    .await?;
                Ok(regions.regions().iter().map(|r| Region::clone(r)).collect())
            })
            .await
    }
}

fn is(e: &Error, class: &str) -> bool {
    e.remote().is_some_and(|r| r.simple_class() == class)
}

/// A call to the active master, retried while the master is starting or
/// moving; HBase's table exceptions as this crate's errors.
async fn master_call<R: prost::Message + Default>(
    cluster: &Arc<Cluster>,
    policy: &CallPolicy,
    method: &'static str,
    request: &impl prost::Message,
    table: &str,
) -> Result<(R, bytes::Bytes)> {
    let answer = cluster
        .retrying(policy, None, || async {
            let master = cluster.master().await?;
            cluster
                .call::<R>(&master, MASTER_SERVICE, method, request, policy.timeout())
                .await
        })
        .await;
    answer.map_err(|e| {
        if is(&e, "TableNotFoundException") {
            Error::TableNotFound {
                table: table.to_owned(),
            }
        } else if is(&e, "TableExistsException") {
            Error::TableExists {
                table: table.to_owned(),
            }
        } else {
            e
        }
    })
}

/// Waits for procedure `id` (none: nothing to wait for) to finish.
async fn wait_for(
    cluster: &Arc<Cluster>,
    policy: &CallPolicy,
    id: Option<u64>,
    what: &str,
    table: &str,
) -> Result<()> {
    let Some(id) = id else {
        return Ok(());
    };
    let began = Instant::now();
    let mut pause = Duration::from_millis(20);
    loop {
        let request = proto::GetProcedureResultRequest { proc_id: id };
        let (answer, _) = master_call::<proto::GetProcedureResultResponse>(
            cluster,
            policy,
            "getProcedureResult",
            &request,
            table,
        )
        .await?;
        use proto::get_procedure_result_response::State;
        match State::try_from(answer.state) {
            Ok(State::Running) => {}
            // Done, or done long enough ago to be forgotten.
            Ok(State::Finished) | Ok(State::NotFound) | Err(_) => {
                return match answer.exception {
                    None => Ok(()),
                    Some(e) => {
                        let generic = e.generic_exception.unwrap_or_default();
                        let class = generic.class_name.unwrap_or_default();
                        let message = generic.message.unwrap_or_default();
                        if class.ends_with("TableExistsException") {
                            return Err(Error::TableExists {
                                table: table.to_owned(),
                            });
                        }
                        if class.ends_with("TableNotFoundException") {
                            return Err(Error::TableNotFound {
                                table: table.to_owned(),
                            });
                        }
                        Err(Error::Procedure {
                            what: what.to_owned(),
                            why: format!("{class}: {message}"),
                        })
                    }
                };
            }
        }
        if began.elapsed() > PROCEDURE_WAIT {
            return Err(Error::Procedure {
                what: what.to_owned(),
                why: format!(
                    "procedure {id} still running after {} s",
                    PROCEDURE_WAIT.as_secs()
                ),
            });
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_millis(500));
    }
}
