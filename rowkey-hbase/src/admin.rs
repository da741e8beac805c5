//! [`HBaseAdmin`]: tables and their column families, created and deleted
//! natively or through HBase's Thrift 1 server.

use crate::client::{HBaseClient, Transport};
use rowkey_store::admin::{TableMismatch, TableSpec, TableStatus};
use rowkey_store::StoreError;

/// Creates and deletes tables, natively (the master's own calls) or
/// through HBase's Thrift 1 server, as its [`HBaseClient`] connected.
///
/// **Split keys.** Natively a [`TableSpec`] with
/// [`splits`](TableSpec::splits) creates the table pre-split at them, and
/// the create returns once every region is open. Thrift 1's
/// `createTable` takes no split keys, so over Thrift such a spec is
/// refused (nothing is created), with the HBase shell command that
/// creates the table pre-split at them: run it in `hbase shell`, connect
/// natively, or create the table unsplit and let HBase split it as it
/// grows.
///
/// **Retries.** Natively each create, disable and delete carries one
/// nonce for every try, so a retry after a lost answer finds the first
/// try's procedure rather than failing with "table exists".
///
/// ```no_run
/// use rowkey::store::admin::{TableSpec, TableStatus};
/// use rowkey_hbase::HBaseClient;
/// # async fn run() -> Result<(), rowkey::store::StoreError> {
/// // Natively (`zk://` or `hbase://`); a Thrift 1 server's `host:port` works too.
/// let admin = HBaseClient::connect("zk://zk1:2181/hbase").await?.admin();
/// // The first run creates the table; later runs find it as it was.
/// match admin.create_table_if_missing(&TableSpec::new("readings", &["d"])).await? {
///     TableStatus::Created => println!("created readings"),
///     TableStatus::Existed => println!("readings exists, families d"),
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct HBaseAdmin {
    client: HBaseClient,
}

impl HBaseClient {
    /// The admin API: create and delete tables.
    pub fn admin(&self) -> HBaseAdmin {
        HBaseAdmin::new(self.clone())
    }
}

impl HBaseAdmin {
    fn new(client: HBaseClient) -> Self {
        HBaseAdmin { client }
    }

    /// Creates a table with the spec's column families, each keeping one
    /// version of a cell (what the stores read), uncompressed, without a
    /// time to live. A table that exists already is an error; so is a
    /// spec with split keys (see the [type's docs](Self)), whose error
    /// gives the shell command.
    pub async fn create_table(&self, spec: &TableSpec<'_>) -> Result<(), StoreError> {
        if let Transport::Native(native) = &self.client.transport {
            let _changing = self.client.changing_tables();
            return crate::native::admin::create_table(native, spec).await;
        }
        if let Some(splits) = spec.splits {
            let family = spec.families.first().copied().unwrap_or("d");
            return Err(StoreError::backend(
                "create table",
                format!(
                    "HBase's Thrift 1 server cannot create a table pre-split (its createTable \
                     takes no split keys); create it from the HBase shell: {}",
                    splits.hbase_shell(spec.table, family)
                ),
            ));
        }
        if spec.families.is_empty() {
            return Err(StoreError::backend(
                "create table",
                format!("table {} needs at least one column family", spec.table),
            ));
        }
        let table = spec.table.to_owned();
        let families: Vec<String> = spec.families.iter().map(|f| f.to_string()).collect();
        let _changing = self.client.changing_tables();
        let created = self
            .client
            .call("create table", spec.table, move |slot| {
                let families: Vec<&str> = families.iter().map(String::as_str).collect();
                slot.connection()?.create_table(&table, &families)
            })
            .await;
        self.client.unpark();
        created
    }

    /// Creates the table unless it exists. An existing table with exactly
    /// the spec's families is [`TableStatus::Existed`]; one with other
    /// families is an error whose source is a [`TableMismatch`] naming
    /// them.
    pub async fn create_table_if_missing(
        &self,
        spec: &TableSpec<'_>,
    ) -> Result<TableStatus, StoreError> {
        if let Transport::Native(native) = &self.client.transport {
            let _changing = self.client.changing_tables();
            return crate::native::admin::create_table_if_missing(native, spec).await;
        }
        // Look first: HBase's "already exists" comes back as an IOError
        // message, and a create that raced another process's is still
        // compared below.
        if !self.table_names().await?.iter().any(|t| t == spec.table) {
            match self.create_table(spec).await {
                Ok(()) => return Ok(TableStatus::Created),
                Err(e) if e.to_string().contains("exists") || is_exists(&e) => {}
                Err(e) => return Err(e),
            }
        }
        let found = self.families(spec.table).await?;
        match TableMismatch::between(
            spec.table,
            spec.families.iter().copied(),
            found.iter().map(String::as_str),
        ) {
            None => Ok(TableStatus::Existed),
            Some(mismatch) => Err(StoreError::backend("create table", mismatch)),
        }
    }

    /// Disables and deletes the table and its rows. A missing table is
    /// [`StoreError::NoSuchTable`].
    pub async fn delete_table(&self, table: &str) -> Result<(), StoreError> {
        if let Transport::Native(native) = &self.client.transport {
            let _changing = self.client.changing_tables();
            return crate::native::admin::delete_table(native, table).await;
        }
        let name = table.to_owned();
        let _changing = self.client.changing_tables();
        let deleted = self
            .client
            .call("delete table", table, move |slot| {
                slot.connection()?.delete_table(&name)
            })
            .await;
        self.client.unpark();
        deleted
    }

    /// The names of the server's tables.
    pub async fn table_names(&self) -> Result<Vec<String>, StoreError> {
        if let Transport::Native(native) = &self.client.transport {
            return crate::native::admin::table_names(native).await;
        }
        self.client
            .call("list tables", self.client.address(), |slot| {
                slot.connection()?.table_names()
            })
            .await
    }

    /// The column families of `table`, sorted.
    pub async fn families(&self, table: &str) -> Result<Vec<String>, StoreError> {
        if let Transport::Native(native) = &self.client.transport {
            return crate::native::admin::families(native, table).await;
        }
        use crate::gateway::Connection;
        let name = table.to_owned();
        let mut families = self
            .client
            .call("get column families", table, move |slot| {
                slot.connection()?.families(&name)
            })
            .await?;
        families.sort();
        Ok(families)
    }
}

/// Whether a failed create said the table exists.
fn is_exists(e: &StoreError) -> bool {
    e.backend_source()
        .is_some_and(|s| s.to_string().contains("TableExistsException"))
}
