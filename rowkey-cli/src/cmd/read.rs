//! `rowkey get` and `rowkey scan`: rows of a live table, each key decoded
//! by the layout, each cell shown as HBase's `toStringBinary` shows it.
//! Where the table is: natively from HBase (`zk://QUORUM/PARENT` or
//! `hbase://MASTERS`), through HBase's Thrift 1 server (`HOST:PORT`), or
//! from Bigtable (`bigtable://PROJECT/INSTANCE`, with `@HOST:PORT` for
//! the emulator).

use super::CmdResult;
use crate::out::outln;
use futures::TryStreamExt;
use rowkey_cli::layout_file::load;
use rowkey_core::layout::dynamic::{EncodeValuesError, Value};
use rowkey_core::{KeyDisplay, Layout};
use rowkey_store::{DynStore, KeyRange, ReadRequest, Row, Store};
use std::path::Path;

/// What `rowkey get` and `rowkey scan` were given.
pub struct ReadArgs<'a> {
    pub layout: &'a Path,
    /// Where the table is (see the module's doc).
    pub store: &'a str,
    pub table: &'a str,
    /// `field=value`: every field for `get`, the first ones for `scan`.
    pub values: &'a [String],
    /// The salt bucket, for `get` where a user function picks it.
    pub bucket: Option<u32>,
    /// The most rows `scan` prints.
    pub limit: u64,
}

/// The row whose key the values make: `Ok(false)` when there is none.
pub fn get(a: ReadArgs<'_>) -> Result<bool, String> {
    let layout = load(a.layout)?;
    let values = layout.parse_assignments(a.values)?;
    let key = layout.encode_key(&values, a.bucket).map_err(|e| match e {
        EncodeValuesError::Bucket(why) if why.ends_with("give the bucket") => {
            format!("{why} with --bucket N")
        }
        e => e.to_string(),
    })?;
    let mut stop = key.clone();
    stop.push(0);
    let request = ReadRequest::new([KeyRange::new(key.clone(), Some(stop))]);
    let rows = block_on(async {
        let store = open(a.store, a.table).await?;
        read(&store, request, 1, |_| true).await
    })?;
    match rows.first() {
        Some(row) => {
            print_row(layout, row)?;
            Ok(true)
        }
        None => {
            outln!("no row {} in {}", KeyDisplay(&key), a.table)?;
            Ok(false)
        }
    }
}

/// The rows whose keys start with the values, at most `limit`, in the
/// order the table stores them (salt bucket by salt bucket).
pub fn scan(a: ReadArgs<'_>) -> CmdResult {
    let layout = load(a.layout)?;
    let given = leading_values(layout, a.values)?;
    let ranges = layout.prefix_ranges(&given).map_err(|e| e.to_string())?;
    // Exact ranges can cap the read; the whole table (a hash prefix whose
    // field is not given) is filtered here.
    let exact = ranges != [(Vec::new(), None)] || given.is_empty();
    let mut request = ReadRequest::new(ranges.into_iter().map(|(s, e)| KeyRange::new(s, e)));
    if exact {
        request = request.with_limit(a.limit);
    }
    let keep = |row: &Row| {
        layout
            .decode_key(&row.key)
            .is_ok_and(|d| d.values().get(..given.len()) == Some(&given[..]))
    };
    let rows = block_on(async {
        let store = open(a.store, a.table).await?;
        read(&store, request, a.limit, |row| exact || keep(row)).await
    })?;
    for row in &rows {
        print_row(layout, row)?;
    }
    let plural = if rows.len() == 1 { "" } else { "s" };
    let more = if rows.len() as u64 == a.limit {
        " (the limit: --limit N for more)"
    } else {
        ""
    };
    outln!("{} row{plural}{more}", rows.len())?;
    Ok(())
}

/// The values of `field=value` texts for the first fields, in order.
fn leading_values(layout: &Layout, args: &[String]) -> Result<Vec<Value>, String> {
    let mut values = Vec::with_capacity(args.len());
    for (i, arg) in args.iter().enumerate() {
        let Some((name, text)) = arg.split_once('=') else {
            return Err(format!("`{arg}` is not field=value"));
        };
        let Some(at) = layout.fields.iter().position(|f| f.name == name) else {
            let names: Vec<&str> = layout.fields.iter().map(|f| f.name).collect();
            return Err(format!(
                "{} has no field `{name}` (fields: {})",
                layout.name,
                names.join(", ")
            ));
        };
        if at < i {
            return Err(format!("field `{name}` is given twice"));
        }
        if at != i {
            let want = layout.fields.get(i).map_or("", |f| f.name);
            return Err(format!(
                "scan reads keys that start with the values given, so it takes the first \
                 fields in key order: give `{want}` before `{name}`"
            ));
        }
        values.push(layout.parse_value(name, text)?);
    }
    Ok(values)
}

/// At most `limit` rows of `request` that `keep` keeps.
async fn read(
    store: &DynStore,
    request: ReadRequest,
    limit: u64,
    keep: impl Fn(&Row) -> bool,
) -> Result<Vec<Row>, String> {
    let mut rows = store.read_rows(request);
    let mut out = Vec::new();
    while (out.len() as u64) < limit {
        match rows.try_next().await.map_err(|e| e.to_string())? {
            Some(row) if keep(&row) => out.push(row),
            Some(_) => {}
            None => break,
        }
    }
    Ok(out)
}

fn print_row(layout: &Layout, row: &Row) -> CmdResult {
    outln!("{}", KeyDisplay(&row.key))?;
    match layout.decode_key(&row.key) {
        Ok(d) => {
            let fields: Vec<String> = d
                .fields
                .iter()
                .map(|f| format!("{} = {}", f.name, f.value))
                .collect();
            outln!("  {}", fields.join(", "))?;
        }
        Err(e) => outln!("  does not decode with {}: {e}", layout.name)?,
    }
    for c in &row.cells {
        outln!(
            "  {}:{} = {}",
            c.family,
            KeyDisplay(&c.qualifier),
            KeyDisplay(&c.value)
        )?;
    }
    Ok(())
}

pub(super) fn block_on<T>(
    work: impl std::future::Future<Output = Result<T, String>>,
) -> Result<T, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start a runtime: {e}"))?
        .block_on(work)
}

/// The table `table` of the store at `address`.
pub(super) async fn open(address: &str, table: &str) -> Result<DynStore, String> {
    if let Some(rest) = address.strip_prefix("bigtable://") {
        return open_bigtable(rest, table).await;
    }
    if !address.contains("://") && !address.contains(':') {
        return Err(format!(
            "`{address}` is no store's address: say zk://QUORUM/PARENT or hbase://MASTERS \
             (HBase natively), HOST:PORT (HBase's Thrift 1 server) or \
             bigtable://PROJECT/INSTANCE[@HOST:PORT]"
        ));
    }
    open_hbase(address, table).await
}

#[cfg(feature = "bigtable")]
async fn open_bigtable(rest: &str, table: &str) -> Result<DynStore, String> {
    use rowkey_bigtable::BigtableStore;
    let (path, emulator) = match rest.split_once('@') {
        Some((path, host)) => (path, Some(host)),
        None => (rest, None),
    };
    let Some((project, instance)) = path
        .split_once('/')
        .filter(|(p, i)| !p.is_empty() && !i.is_empty() && !i.contains('/'))
    else {
        return Err(format!(
            "bigtable://{rest}: say bigtable://PROJECT/INSTANCE (and @HOST:PORT for the emulator)"
        ));
    };
    let store = match emulator {
        Some(host) => BigtableStore::connect_emulator(host, project, instance, table).await,
        None => BigtableStore::connect(project, instance, table).await,
    };
    store
        .map(DynStore::new)
        .map_err(|e| format!("{table}: {e}"))
}

#[cfg(not(feature = "bigtable"))]
async fn open_bigtable(_: &str, _: &str) -> Result<DynStore, String> {
    Err("this rowkey was built without Bigtable (its `bigtable` feature)".into())
}

#[cfg(feature = "hbase")]
async fn open_hbase(address: &str, table: &str) -> Result<DynStore, String> {
    let client = rowkey_hbase::HBaseClient::connect(address)
        .await
        .map_err(|e| e.to_string())?;
    Ok(DynStore::new(client.table(table)))
}

#[cfg(not(feature = "hbase"))]
async fn open_hbase(address: &str, _: &str) -> Result<DynStore, String> {
    Err(format!(
        "{address}: this rowkey was built without HBase (its `hbase` feature)"
    ))
}
