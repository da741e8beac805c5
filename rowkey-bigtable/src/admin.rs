//! [`BigtableAdmin`]: tables with column families and split keys, created
//! through Bigtable's table admin API, on the emulator and on Cloud
//! Bigtable alike (no `cbt` binary, so split keys may hold any byte).

use googleapis_tonic_google_bigtable_admin_v2::google::bigtable::admin::v2::{
    bigtable_table_admin_client::BigtableTableAdminClient, create_table_request::Split,
    table::View, ColumnFamily, CreateTableRequest, DeleteTableRequest, GetTableRequest, Table,
};
pub use rowkey_store::admin::{TableMismatch, TableSpec, TableStatus};
use rowkey_store::StoreError;
use std::sync::Arc;
use std::time::Duration;
use tonic::transport::{Channel, ClientTlsConfig, Endpoint};
use tonic::Code;

const ADMIN_HOST: &str = "bigtableadmin.googleapis.com";
const ADMIN_SCOPE: &str = "https://www.googleapis.com/auth/bigtable.admin.table";

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
        let found = table.column_families.keys().map(String::as_str);
        match TableMismatch::between(spec.table, spec.families.iter().copied(), found) {
            None => Ok(TableStatus::Existed),
            Some(mismatch) => Err(StoreError::backend("create table", mismatch)),
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
