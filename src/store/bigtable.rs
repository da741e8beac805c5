//! [`BigtableStore`]: Cloud Bigtable, or its emulator when
//! `BIGTABLE_EMULATOR_HOST` is set, through `bigtable_rs`. Calls block on
//! a private single-threaded runtime, so the [`Store`] trait stays sync.

use super::{Cell, Row, Store, StoreError};
use crate::split::SplitKeys;
use bigtable_rs::bigtable::{BigTable, BigTableConnection};
use bigtable_rs::google::bigtable::v2::mutate_rows_request::Entry;
use bigtable_rs::google::bigtable::v2::mutation::{Mutation as Op, SetCell};
use bigtable_rs::google::bigtable::v2::row_filter::Filter;
use bigtable_rs::google::bigtable::v2::row_range::{EndKey, StartKey};
use bigtable_rs::google::bigtable::v2::{
    MutateRowsRequest, Mutation, ReadRowsRequest, RowFilter, RowRange, RowSet,
};
use std::process::Command;
use std::time::Duration;

/// Rows per `MutateRows` call: well under Bigtable's 100,000 mutations.
const BATCH: usize = 1000;

/// A table to create: where, its column families and its split keys.
#[derive(Debug, Clone, Copy)]
pub struct TableSpec<'a> {
    /// The Google Cloud project.
    pub project: &'a str,
    /// The Bigtable instance.
    pub instance: &'a str,
    /// The table's id.
    pub table: &'a str,
    /// Column families to create.
    pub families: &'a [&'a str],
    /// Tablet boundaries (from `Key::split_keys()` or `SplitKeys`).
    pub splits: &'a SplitKeys,
}

/// A table of Cloud Bigtable (or the emulator).
pub struct BigtableStore {
    runtime: tokio::runtime::Runtime,
    client: BigTable,
    table: String,
}

impl BigtableStore {
    /// Connects to `table` of `project`/`instance`: the emulator at
    /// `BIGTABLE_EMULATOR_HOST` when that is set, Cloud Bigtable (with
    /// application default credentials) otherwise.
    pub fn connect(project: &str, instance: &str, table: &str) -> Result<Self, StoreError> {
        let runtime = runtime()?;
        let connection = runtime
            .block_on(BigTableConnection::new(
                project,
                instance,
                false,
                1,
                Some(Duration::from_secs(30)),
            ))
            .map_err(|e| StoreError::backend("connect", e))?;
        Ok(Self::with(runtime, connection, table))
    }

    /// Connects to the emulator at `host` (`127.0.0.1:8086`), whatever the
    /// environment says.
    pub fn connect_emulator(
        host: &str,
        project: &str,
        instance: &str,
        table: &str,
    ) -> Result<Self, StoreError> {
        let runtime = runtime()?;
        let connection = {
            let _guard = runtime.enter();
            BigTableConnection::new_with_emulator(
                host,
                project,
                instance,
                false,
                1,
                Some(Duration::from_secs(30)),
            )
            .map_err(|e| StoreError::backend("connect", e))?
        };
        Ok(Self::with(runtime, connection, table))
    }

    fn with(runtime: tokio::runtime::Runtime, connection: BigTableConnection, table: &str) -> Self {
        let client = connection.client();
        let table = client.get_full_table_name(table);
        BigtableStore {
            runtime,
            client,
            table,
        }
    }

    /// Creates `table` with column `families`, pre-split at `splits`. On
    /// the emulator (`emulator`: its host) this calls the table admin API
    /// directly, so split keys may hold any bytes; on Cloud Bigtable
    /// (`None`) it runs the `cbt` tool with your gcloud credentials, which
    /// cannot pass split keys containing `0x00` or `,` (a precise error
    /// says so).
    pub fn create_table(emulator: Option<&str>, spec: &TableSpec<'_>) -> Result<(), StoreError> {
        match emulator {
            Some(host) => runtime()?.block_on(admin_create(host, spec)),
            None => cbt_create(spec),
        }
    }

    fn read(&mut self, rows: RowSet, limit: Option<usize>) -> Result<Vec<Row>, StoreError> {
        let request = ReadRowsRequest {
            table_name: self.table.clone(),
            rows: Some(rows),
            // The newest version of each cell, as MemStore keeps only that.
            filter: Some(RowFilter {
                filter: Some(Filter::CellsPerColumnLimitFilter(1)),
            }),
            rows_limit: limit.map_or(0, |l| i64::try_from(l).unwrap_or(i64::MAX)),
            ..ReadRowsRequest::default()
        };
        let rows = self
            .runtime
            .block_on(self.client.read_rows(request))
            .map_err(|e| StoreError::backend("read rows", e))?;
        Ok(rows
            .into_iter()
            .map(|(key, cells)| Row {
                key,
                cells: cells
                    .into_iter()
                    .map(|c| Cell {
                        family: c.family_name,
                        qualifier: c.qualifier,
                        value: c.value,
                    })
                    .collect(),
            })
            .collect())
    }
}

async fn admin_create(host: &str, spec: &TableSpec<'_>) -> Result<(), StoreError> {
    use googleapis_tonic_google_bigtable_admin_v2::google::bigtable::admin::v2::{
        bigtable_table_admin_client::BigtableTableAdminClient, create_table_request::Split,
        ColumnFamily, CreateTableRequest, Table,
    };
    let err = |e: &dyn std::fmt::Display| StoreError::backend("create table", e.to_string());
    let endpoint =
        tonic::transport::Channel::from_shared(format!("http://{host}")).map_err(|e| err(&e))?;
    let request = CreateTableRequest {
        parent: format!("projects/{}/instances/{}", spec.project, spec.instance),
        table_id: spec.table.to_string(),
        table: Some(Table {
            column_families: spec
                .families
                .iter()
                .map(|f| (f.to_string(), ColumnFamily::default()))
                .collect(),
            ..Table::default()
        }),
        initial_splits: spec
            .splits
            .iter()
            .map(|k| Split { key: k.clone() })
            .collect(),
    };
    // A freshly started emulator may accept TCP before it serves gRPC:
    // transport failures are retried for a few seconds; anything the
    // server answers (the table exists, a bad request) is final.
    let mut attempt = 0;
    loop {
        attempt += 1;
        let failure = match endpoint.connect().await {
            Err(e) => e.to_string(),
            Ok(channel) => match BigtableTableAdminClient::new(channel)
                .create_table(request.clone())
                .await
            {
                Ok(_) => return Ok(()),
                Err(status)
                    if matches!(
                        status.code(),
                        tonic::Code::Unavailable | tonic::Code::Unknown
                    ) =>
                {
                    status.to_string()
                }
                Err(status) => return Err(err(&status)),
            },
        };
        if attempt >= 50 {
            return Err(err(&failure));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn cbt_create(spec: &TableSpec<'_>) -> Result<(), StoreError> {
    use std::ffi::OsString;
    use std::os::unix::ffi::OsStringExt;
    let mut cmd = Command::new("cbt");
    cmd.args([
        "-project",
        spec.project,
        "-instance",
        spec.instance,
        "createtable",
        spec.table,
    ]);
    if !spec.families.is_empty() {
        cmd.arg(format!("families={}", spec.families.join(",")));
    }
    if !spec.splits.is_empty() {
        let mut arg = b"splits=".to_vec();
        for (i, key) in spec.splits.iter().enumerate() {
            if key.contains(&b',') || key.contains(&0) {
                return Err(StoreError::backend(
                    "create table",
                    format!(
                        "split key {} contains ',' or 0x00, which cbt's command line cannot \
                         carry; create the table with the admin API",
                        crate::KeyDisplay(key)
                    ),
                ));
            }
            if i > 0 {
                arg.push(b',');
            }
            arg.extend_from_slice(key);
        }
        cmd.arg(OsString::from_vec(arg));
    }
    let out = cmd
        .output()
        .map_err(|e| StoreError::backend("create table (running cbt)", e))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(StoreError::backend(
            "create table",
            String::from_utf8_lossy(&out.stderr).trim().to_string(),
        ))
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, StoreError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| StoreError::backend("start the client runtime", e))
}

impl Store for BigtableStore {
    fn write_rows(&mut self, rows: Vec<Row>) -> Result<(), StoreError> {
        super::check_rows(&rows)?;
        let mut rows = rows.into_iter().peekable();
        while rows.peek().is_some() {
            let entries: Vec<Entry> = rows
                .by_ref()
                .take(BATCH)
                .map(|row| Entry {
                    row_key: row.key,
                    mutations: row
                        .cells
                        .into_iter()
                        .map(|c| Mutation {
                            mutation: Some(Op::SetCell(SetCell {
                                family_name: c.family,
                                column_qualifier: c.qualifier,
                                // -1: the server's time, as HBase's default.
                                timestamp_micros: -1,
                                value: c.value,
                            })),
                        })
                        .collect(),
                    idempotency: None,
                })
                .collect();
            let request = MutateRowsRequest {
                table_name: self.table.clone(),
                entries,
                ..MutateRowsRequest::default()
            };
            let client = &mut self.client;
            self.runtime.block_on(async {
                let mut stream = client
                    .mutate_rows(request)
                    .await
                    .map_err(|e| StoreError::backend("mutate rows", e))?;
                // Every entry reports its own status: a batch can fail in part.
                while let Some(response) = stream
                    .message()
                    .await
                    .map_err(|e| StoreError::backend("mutate rows", e))?
                {
                    for entry in response.entries {
                        if let Some(status) = entry.status.filter(|s| s.code != 0) {
                            return Err(StoreError::backend(
                                "mutate rows",
                                format!(
                                    "entry {}: code {}: {}",
                                    entry.index, status.code, status.message
                                ),
                            ));
                        }
                    }
                }
                Ok(())
            })?;
        }
        Ok(())
    }

    fn read_row(&mut self, key: &[u8]) -> Result<Option<Row>, StoreError> {
        let rows = RowSet {
            row_keys: vec![key.to_vec()],
            row_ranges: vec![],
        };
        Ok(self.read(rows, Some(1))?.into_iter().next())
    }

    fn read_range(
        &mut self,
        start: &[u8],
        stop: Option<&[u8]>,
        limit: Option<usize>,
    ) -> Result<Vec<Row>, StoreError> {
        if stop.is_some_and(|s| s <= start) || limit == Some(0) {
            return Ok(Vec::new());
        }
        // Our own bounds: [start, stop) exactly, never a prefix rewrite.
        let range = RowRange {
            start_key: Some(StartKey::StartKeyClosed(start.to_vec())),
            end_key: stop.map(|s| EndKey::EndKeyOpen(s.to_vec())),
        };
        let rows = RowSet {
            row_keys: vec![],
            row_ranges: vec![range],
        };
        self.read(rows, limit)
    }
}
