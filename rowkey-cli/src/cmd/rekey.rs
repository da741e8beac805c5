//! `rowkey rekey`: a Bigtable table's rows moved from the layout OLD.json
//! to NEW.json, for changes a JSON map of fields can express (the rest
//! take the API, `rowkey::store::Rekey`): into a new table or in place,
//! resumable from a checkpoint file, with a progress bar, a dry run and a
//! verification.

use indicatif::{ProgressBar, ProgressStyle};
use rowkey_bigtable::BigtableStore;
use rowkey_cli::layout_file::load;
use rowkey_cli::progress::{Progress, Units};
use rowkey_core::layout::{diff, dynamic::Value};
use rowkey_core::Layout;
use rowkey_store::{
    Checkpoint, FileCheckpoint, LayoutRegistry, MemCheckpoint, Rekey, RekeyCheckpoint, RekeyIndex,
    RekeyTables, Row, ValueMapping,
};
use std::path::Path;

/// What `rowkey rekey` was given.
pub struct RekeyArgs<'a> {
    pub old: &'a Path,
    pub new: &'a Path,
    pub map: Option<&'a Path>,
    pub emulator: Option<&'a str>,
    pub project: &'a str,
    pub instance: &'a str,
    pub from: &'a str,
    /// `None`: in place.
    pub to: Option<&'a str>,
    pub checkpoint: Option<&'a Path>,
    pub batch: usize,
    pub dry_run: bool,
    pub verify: bool,
    /// `INDEX.json=TABLE` each: index tables rebuilt from the new keys.
    pub indexes: &'a [String],
    /// The layout registry's table.
    pub registry: Option<&'a str>,
}

/// Where a new field's value comes from.
enum Source {
    Old(usize),
    Fixed(Value),
}

/// The JSON map: `{"new_field": "old_field", "other": {"value": "42"}}`;
/// a new field it does not name takes the old field of its name.
fn mapping(
    old: &'static Layout,
    new: &'static Layout,
    map: Option<&Path>,
) -> Result<ValueMapping, String> {
    let json: serde_json::Map<String, serde_json::Value> = match map {
        None => serde_json::Map::new(),
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            serde_json::from_str(&text).map_err(|e| {
                format!("{} is not a field map ({{\"new_field\": \"old_field\" | {{\"value\": \"text\"}}}}): {e}", p.display())
            })?
        }
    };
    for name in json.keys() {
        if new.field(name).is_none() {
            return Err(format!(
                "the map names `{name}`, which is not a field of {}",
                new.name
            ));
        }
    }
    let old_field = |name: &str| {
        old.fields
            .iter()
            .position(|f| f.name == name)
            .ok_or_else(|| format!("{} has no field `{name}`", old.name))
    };
    let mut sources = Vec::new();
    for f in new.fields {
        sources.push(match json.get(f.name) {
            None => Source::Old(
                old_field(f.name).map_err(|e| format!("{e} for new field `{}`: map it", f.name))?,
            ),
            Some(serde_json::Value::String(from)) => Source::Old(old_field(from)?),
            Some(serde_json::Value::Object(o)) => match o.get("value") {
                Some(serde_json::Value::String(text)) => {
                    Source::Fixed(new.parse_value(f.name, text)?)
                }
                _ => {
                    return Err(format!(
                        "map entry `{}`: give {{\"value\": \"text\"}}",
                        f.name
                    ))
                }
            },
            Some(_) => {
                return Err(format!(
                    "map entry `{}`: an old field's name or {{\"value\": \"text\"}}",
                    f.name
                ))
            }
        });
    }
    Ok(ValueMapping::new(old, new, move |values| {
        sources
            .iter()
            .map(|s| match s {
                Source::Old(i) => values
                    .get(*i)
                    .cloned()
                    .ok_or_else(|| "a value is missing".to_string()),
                Source::Fixed(v) => Ok(v.clone()),
            })
            .collect()
    }))
}

fn bar() -> Progress {
    Progress::new("re-keying", Units::None, None, || {
        let bar = ProgressBar::new_spinner();
        if let Ok(style) = ProgressStyle::with_template("re-keying {spinner} {msg}") {
            bar.set_style(style);
        }
        bar
    })
}

fn counts(c: &RekeyCheckpoint) -> String {
    format!(
        "{} rows read, {} written, {} dropped, {} not of the old layout",
        c.read, c.written, c.dropped, c.not_old
    )
}

/// An index to rebuild: its layout, its table, and where each of its
/// fields is among the new key's.
struct IndexSpec {
    layout: &'static Layout,
    table: String,
    from: Vec<usize>,
}

/// `INDEX.json=TABLE`, each index field taken from the new key's field of
/// its name.
fn index_spec(arg: &str, new: &'static Layout) -> Result<IndexSpec, String> {
    let (path, table) = arg
        .rsplit_once('=')
        .filter(|(p, t)| !p.is_empty() && !t.is_empty())
        .ok_or_else(|| format!("--index {arg}: give INDEX.json=TABLE"))?;
    let layout = load(Path::new(path))?;
    let from = layout
        .fields
        .iter()
        .map(|f| {
            new.fields
                .iter()
                .position(|n| n.name == f.name)
                .ok_or_else(|| {
                    format!(
                        "--index {arg}: field `{}` of {} is not a field of the new key {}: \
                     an index of cells needs the API (`Rekey::to_indexed_table`)",
                        f.name, layout.name, new.name
                    )
                })
        })
        .collect::<Result<_, _>>()?;
    Ok(IndexSpec {
        layout,
        table: table.to_string(),
        from,
    })
}

/// The index key of a new row under `spec`.
fn index_key(spec: &IndexSpec, new: &'static Layout, row: &Row) -> Result<Option<Vec<u8>>, String> {
    let values = new
        .decode_key(&row.key)
        .map_err(|e| e.to_string())?
        .values();
    let fields: Vec<_> = spec.from.iter().map(|&i| values[i].clone()).collect();
    spec.layout
        .encode_key(&fields, None)
        .map(Some)
        .map_err(|e| e.to_string())
}

/// Runs the re-key. `Ok(true)`: done (and verified, with --verify).
pub fn rekey(a: RekeyArgs<'_>) -> Result<bool, String> {
    let (old, new) = (load(a.old)?, load(a.new)?);
    let m = mapping(old, new, a.map)?;
    let specs: Vec<IndexSpec> = a
        .indexes
        .iter()
        .map(|arg| index_spec(arg, new))
        .collect::<Result<_, _>>()?;
    println!("{}", diff(old, new));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start a runtime: {e}"))?;
    runtime.block_on(async {
        let connect = |table: &str| {
            let table = table.to_string();
            async move {
                match a.emulator {
                    Some(host) => {
                        BigtableStore::connect_emulator(host, a.project, a.instance, &table).await
                    }
                    None => BigtableStore::connect(a.project, a.instance, &table).await,
                }
                .map_err(|e| format!("table {table}: {e}"))
            }
        };
        let source = connect(a.from).await?;
        let target = match a.to {
            Some(t) => Some(connect(t).await?),
            None => None,
        };
        let file;
        let memory = MemCheckpoint::default();
        let checkpoint: &dyn Checkpoint = match a.checkpoint {
            Some(p) => {
                file = FileCheckpoint::new(p);
                &file
            }
            None => &memory,
        };
        let rekey = Rekey::new(&m).batch(a.batch).dry_run(a.dry_run);
        let bar = bar();
        let progress = |c: &RekeyCheckpoint| bar.set_message(counts(c));
        if let (Some(target), Some(registry), false) = (&target, a.registry, specs.is_empty()) {
            let mut stores = Vec::new();
            for spec in &specs {
                stores.push(connect(&spec.table).await?);
            }
            let indexes: Vec<RekeyIndex<'_, BigtableStore>> = specs
                .iter()
                .zip(&stores)
                .map(|(spec, store)| {
                    RekeyIndex::new(store, spec.layout, move |row: &Row| {
                        index_key(spec, new, row)
                    })
                })
                .collect();
            let mut tables = RekeyTables::new(a.to.unwrap_or_default());
            for spec in &specs {
                tables = tables.index_named(spec.layout.name, spec.table.clone());
            }
            let registry = LayoutRegistry::new(connect(registry).await?);
            let done = rekey
                .to_table_with_indexes(
                    &source, target, new, &indexes, &registry, &tables, checkpoint, progress,
                )
                .await
                .map_err(|e| e.to_string())?;
            bar.finish();
            let what = if a.dry_run {
                "dry run (nothing written)"
            } else {
                "re-keyed"
            };
            println!(
                "{what}: {}, {} index rows",
                counts(&done.counts),
                done.counts.indexed
            );
            if !a.dry_run {
                let v = &done.verification;
                println!(
                    "verify: {} rows expected, {} found, {} index rows expected, {} found, \
                     {} spot-checked, {} mismatched; layouts recorded in {registry}",
                    v.expected,
                    v.found,
                    v.index_rows_expected,
                    v.index_rows_found,
                    v.checked,
                    v.mismatched.len(),
                    registry = a.registry.unwrap_or_default()
                );
            }
            return Ok(true);
        }
        let done = match &target {
            Some(t) => rekey.to_table(&source, t, checkpoint, progress).await,
            None => {
                rekey
                    .in_place(&source, None::<&BigtableStore>, checkpoint, progress)
                    .await
            }
        }
        .map_err(|e| e.to_string())?;
        bar.finish();
        let what = if a.dry_run {
            "dry run (nothing written)"
        } else {
            "re-keyed"
        };
        println!("{what}: {}", counts(&done));
        if !a.verify || a.dry_run {
            return Ok(true);
        }
        let v = match &target {
            Some(t) => rekey.verify_table(&source, t, 10).await,
            None => rekey.verify_in_place(&source, done.written).await,
        }
        .map_err(|e| e.to_string())?;
        println!(
            "verify: {} rows expected, {} found, {} old rows left, {} spot-checked, {} mismatched",
            v.expected,
            v.found,
            v.old_left,
            v.checked,
            v.mismatched.len()
        );
        Ok(v.is_ok())
    })
}
