//! [`BigtableAdmin`]: tables with column families and split keys, created
//! through Bigtable's table admin API, on the emulator and on Cloud
//! Bigtable alike (no `cbt` binary, so split keys may hold any byte).

use googleapis_tonic_google_bigtable_admin_v2::google::bigtable::admin::v2::{
    bigtable_table_admin_client::BigtableTableAdminClient, create_table_request::Split,
    table::View, ColumnFamily, CreateTableRequest, DeleteTableRequest, GetTableRequest, Table,
};
use rowkey_core::split::SplitKeys;
use rowkey_store::StoreError;
use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;
use tonic::transport::{Channel, ClientTlsConfig, Endpoint};
use tonic::Code;

const ADMIN_HOST: &str = "bigtableadmin.googleapis.com";
const ADMIN_SCOPE: &str = "https://www.googleapis.com/auth/bigtable.admin.table";

/// A table to create: its id, column families and split keys.
///
/// ```
/// use rowkey_bigtable::TableSpec;
/// use rowkey::split::SplitKeys;
/// let splits = SplitKeys::new([b"m".to_vec()]);
/// let spec = TableSpec::new("spend", &["d"]).splits(&splits);
/// assert_eq!(spec.table, "spend");
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct TableSpec<'a> {
    /// The table's id.
    pub table: &'a str,
    /// Column families to create.
    pub families: &'a [&'a str],
    /// Tablet boundaries (from `Key::split_keys()` or [`SplitKeys`]).
    pub splits: Option<&'a SplitKeys>,
}

impl<'a> TableSpec<'a> {
    /// A table with these families and no splits.
    pub fn new(table: &'a str, families: &'a [&'a str]) -> Self {
        TableSpec {
            table,
            families,
            splits: None,
        }
    }

    /// The same table, pre-split at `splits`.
    pub fn splits(mut self, splits: &'a SplitKeys) -> Self {
        self.splits = Some(splits);
        self
    }
}

/// What [`BigtableAdmin::create_table_if_missing`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableStatus {
    /// The table was missing and is now created, with the spec's families
    /// and split keys.
    Created,
    /// The table exists already with exactly the spec's column families.
    /// Its split keys are not known to match: Bigtable cannot report them
    /// (see [`BigtableAdmin::create_table_if_missing`]).
    Existed,
}

/// A table that exists with other column families than its spec: the
/// source of the [`StoreError::Backend`] that
/// [`BigtableAdmin::create_table_if_missing`] returns then.
///
/// ```
/// use rowkey_bigtable::TableMismatch;
/// # fn check(e: &rowkey::store::StoreError) -> Option<Vec<String>> {
/// // Which families the spec asks for and the table lacks:
/// let missing = std::error::Error::source(e)
///     .and_then(|s| s.downcast_ref::<TableMismatch>())
///     .map(|m| m.missing_families.clone());
/// # missing }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TableMismatch {
    /// The table's id.
    pub table: String,
    /// Families in the spec that the table lacks, sorted.
    pub missing_families: Vec<String>,
    /// Families of the table that the spec lacks, sorted.
    pub extra_families: Vec<String>,
}

impl fmt::Display for TableMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "table {} exists with other column families than its spec:",
            self.table
        )?;
        if !self.missing_families.is_empty() {
            write!(
                f,
                " missing {} (in the spec, not the table)",
                self.missing_families.join(", ")
            )?;
        }
        if !self.missing_families.is_empty() && !self.extra_families.is_empty() {
            write!(f, ";")?;
        }
        if !self.extra_families.is_empty() {
            write!(
                f,
                " extra {} (in the table, not the spec)",
                self.extra_families.join(", ")
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for TableMismatch {}

/// The table admin API of one instance.
#[derive(Clone)]
pub struct BigtableAdmin {
    client: BigtableTableAdminClient<Channel>,
    instance: String,
    /// Tokens for Cloud Bigtable; `None` on the emulator.
    tokens: Option<Arc<dyn gcp_auth::TokenProvider>>,
}

impl std::fmt::Debug for BigtableAdmin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BigtableAdmin")
            .field("instance", &self.instance)
            .field("emulator", &self.tokens.is_none())
            .finish()
    }
}

impl BigtableAdmin {
    /// The admin API of `project`/`instance`: the emulator at
    /// `BIGTABLE_EMULATOR_HOST` when that is set, Cloud Bigtable with
    /// application default credentials otherwise.
    pub async fn connect(project: &str, instance: &str) -> Result<Self, StoreError> {
        if let Ok(host) = std::env::var("BIGTABLE_EMULATOR_HOST") {
            return Self::connect_emulator(&host, project, instance);
        }
        let err = |e: &dyn std::fmt::Display| StoreError::backend("connect", e.to_string());
        let tokens = gcp_auth::provider().await.map_err(|e| err(&e))?;
        let endpoint = Endpoint::from_shared(format!("https://{ADMIN_HOST}"))
            .map_err(|e| err(&e))?
            .tls_config(
                ClientTlsConfig::new()
                    .with_webpki_roots()
                    .domain_name(ADMIN_HOST),
            )
            .map_err(|e| err(&e))?;
        Ok(Self::with_channel(
            endpoint.connect_lazy(),
            project,
            instance,
            Some(tokens),
        ))
    }

    /// The admin API of the emulator at `host`. The connection is made on
    /// first use; a tokio runtime must be running.
    pub fn connect_emulator(host: &str, project: &str, instance: &str) -> Result<Self, StoreError> {
        let endpoint = Endpoint::from_shared(format!("http://{host}"))
            .map_err(|e| StoreError::backend("connect", e.to_string()))?;
        Ok(Self::with_channel(
            endpoint.connect_lazy(),
            project,
            instance,
            None,
        ))
    }

    fn with_channel(
        channel: Channel,
        project: &str,
        instance: &str,
        tokens: Option<Arc<dyn gcp_auth::TokenProvider>>,
    ) -> Self {
        BigtableAdmin {
            client: BigtableTableAdminClient::new(channel),
            instance: format!("projects/{project}/instances/{instance}"),
            tokens,
        }
    }

    async fn request<T>(&self, message: T) -> Result<tonic::Request<T>, StoreError> {
        let mut request = tonic::Request::new(message);
        if let Some(tokens) = &self.tokens {
            let token = tokens
                .token(&[ADMIN_SCOPE])
                .await
                .map_err(|e| StoreError::backend("authenticate", e))?;
            let value = format!("Bearer {}", token.as_str())
                .parse()
                .map_err(|e| StoreError::backend("authenticate", e))?;
            request.metadata_mut().insert("authorization", value);
        }
        Ok(request)
    }

    /// Creates the table, with its families, pre-split at its split keys
    /// (any bytes). A table that already exists is an error: see
    /// [`create_table_if_missing`](Self::create_table_if_missing) for
    /// one that is not.
    pub async fn create_table(&self, spec: &TableSpec<'_>) -> Result<(), StoreError> {
        let message = CreateTableRequest {
            parent: self.instance.clone(),
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
                .into_iter()
                .flat_map(|s| s.iter())
                .map(|k| Split { key: k.clone() })
                .collect(),
        };
        // A server just started may accept TCP before it serves gRPC:
        // transport failures are retried for a few seconds; anything the
        // server answers (the table exists, a bad request) is final.
        let mut attempt = 0;
        loop {
            attempt += 1;
            let request = self.request(message.clone()).await?;
            match self.client.clone().create_table(request).await {
                Ok(_) => return Ok(()),
                Err(s) if matches!(s.code(), Code::Unavailable | Code::Unknown) && attempt < 50 => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(s) => return Err(StoreError::backend("create table", s)),
            }
        }
    }

    /// Creates the table as [`create_table`](Self::create_table) does if
    /// it is missing; if it exists, checks it against the spec.
    ///
    /// What is compared: the names of the column families, exactly (the
    /// spec sets no garbage-collection rule, so none is compared). A table
    /// with other families is a [`StoreError::Backend`] whose source is a
    /// [`TableMismatch`] naming the families missing and extra; nothing is
    /// changed.
    ///
    /// What is not compared: the split keys. Bigtable has no call that
    /// reports them. The admin API's `Table` has no field for them, and
    /// `SampleRowKeys` returns other keys: on the emulator, sampled row
    /// keys, and in an empty table only its end whatever its splits
    /// (`tests/it/admin.rs` checks this); on Cloud Bigtable, the current
    /// tablet boundaries, which Bigtable changes as it rebalances tablets
    /// by size and load, so a healthy table's would not match its initial
    /// splits. A table that [`Existed`] keeps the splits it was created
    /// with, whatever the spec says now.
    ///
    /// [`Existed`]: TableStatus::Existed
    ///
    /// ```no_run
    /// use rowkey::RowKey;
    /// use rowkey_bigtable::{BigtableAdmin, TableSpec, TableStatus};
    ///
    /// #[derive(RowKey)]
    /// struct Reading {
    ///     #[salt(buckets = 8, binary)]
    ///     device: u32,
    ///     #[desc_ts]
    ///     at_ms: i64,
    /// }
    ///
    /// # async fn run() -> Result<(), rowkey::store::StoreError> {
    /// let admin = BigtableAdmin::connect_emulator("127.0.0.1:8086", "p", "i")?;
    /// let splits = Reading::split_keys();
    /// let spec = TableSpec::new("readings", &["d"]).splits(&splits);
    /// // The first run creates the table; later runs find it as it was.
    /// match admin.create_table_if_missing(&spec).await? {
    ///     TableStatus::Created => println!("created readings"),
    ///     TableStatus::Existed => println!("readings exists, families d"),
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn create_table_if_missing(
        &self,
        spec: &TableSpec<'_>,
    ) -> Result<TableStatus, StoreError> {
        // Create first, then compare: a table created by another process
        // between a look and a create is still compared, not an error.
        match self.create_table(spec).await {
            Ok(()) => return Ok(TableStatus::Created),
            Err(e) if status_code(&e) == Some(Code::AlreadyExists) => {}
            Err(e) => return Err(e),
        }
        let table = self.get_table(spec.table).await?;
        let wanted: BTreeSet<&str> = spec.families.iter().copied().collect();
        let found: BTreeSet<&str> = table.column_families.keys().map(String::as_str).collect();
        let mismatch = TableMismatch {
            table: spec.table.to_string(),
            missing_families: wanted.difference(&found).map(|f| f.to_string()).collect(),
            extra_families: found.difference(&wanted).map(|f| f.to_string()).collect(),
        };
        if mismatch.missing_families.is_empty() && mismatch.extra_families.is_empty() {
            Ok(TableStatus::Existed)
        } else {
            Err(StoreError::backend("create table", mismatch))
        }
    }

    /// The table's schema: its column families.
    async fn get_table(&self, table: &str) -> Result<Table, StoreError> {
        let request = self
            .request(GetTableRequest {
                name: format!("{}/tables/{table}", self.instance),
                view: View::SchemaView as i32,
            })
            .await?;
        self.client
            .clone()
            .get_table(request)
            .await
            .map(tonic::Response::into_inner)
            .map_err(|s| StoreError::backend("get table", s))
    }

    /// Deletes the table and its rows.
    pub async fn delete_table(&self, table: &str) -> Result<(), StoreError> {
        let request = self
            .request(DeleteTableRequest {
                name: format!("{}/tables/{table}", self.instance),
            })
            .await?;
        self.client
            .clone()
            .delete_table(request)
            .await
            .map(|_| ())
            .map_err(|s| StoreError::backend("delete table", s))
    }
}

/// The gRPC code of a failed admin call, if the server answered.
fn status_code(e: &StoreError) -> Option<Code> {
    match e {
        StoreError::Backend { source, .. } => {
            source.downcast_ref::<tonic::Status>().map(|s| s.code())
        }
        _ => None,
    }
}
