//! [`BigtableAdmin`]: tables with column families and split keys, created
//! through Bigtable's table admin API, on the emulator and on Cloud
//! Bigtable alike (no `cbt` binary, so split keys may hold any byte).

use googleapis_tonic_google_bigtable_admin_v2::google::bigtable::admin::v2::{
    bigtable_table_admin_client::BigtableTableAdminClient, create_table_request::Split,
    ColumnFamily, CreateTableRequest, DeleteTableRequest, Table,
};
use rowkey_core::split::SplitKeys;
use rowkey_core::store::StoreError;
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
    /// (any bytes). A table that already exists is an error.
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
