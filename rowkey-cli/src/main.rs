//! `rowkey`: explain, decode and encode row keys from a layout exported as
//! JSON (`serde_json::to_string(&Key::layout())`), print pre-split
//! commands, draw how a sample of keys falls over regions, say what a
//! layout change does to stored rows (`diff`), and read rows of a live
//! HBase or Bigtable table with their keys decoded (`get`, `scan`).

mod cmd;
mod out;

use clap::{Args, Parser, Subcommand};
use rowkey_cli::key_input::KeyForm;
use std::path::PathBuf;
use std::process::ExitCode;

/// Row keys from a layout exported as JSON.
#[derive(Parser)]
#[command(name = "rowkey", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The layout file every command reads.
#[derive(Args)]
struct LayoutArg {
    /// The layout: JSON of `Key::layout()` (rowkey's `serde` feature).
    #[arg(long, value_name = "L.json")]
    layout: PathBuf,
}

/// Where `get` and `scan` read.
#[cfg(any(feature = "bigtable", feature = "hbase"))]
#[derive(Args)]
struct TableArg {
    /// The store: HBase natively (`zk://QUORUM/PARENT`, `hbase://MASTERS`),
    /// HBase's Thrift 1 server (`HOST:PORT`), or Bigtable
    /// (`bigtable://PROJECT/INSTANCE`, `bigtable://PROJECT/INSTANCE@HOST:PORT`
    /// for the emulator).
    #[arg(long, value_name = "ADDRESS")]
    store: String,
    /// The table.
    #[arg(long)]
    table: String,
}

#[derive(Subcommand)]
enum Command {
    /// What changed between two layouts of one table's keys, and what
    /// each change does to rows stored under the old one. Exit 0 when
    /// they read as before, 1 when they do not, 2 on bad input.
    Diff {
        /// The layout the stored rows were written with.
        #[arg(value_name = "OLD.json")]
        old: PathBuf,
        /// The layout to read them with.
        #[arg(value_name = "NEW.json")]
        new: PathBuf,
        /// Stored keys (old layout), one a line as toStringBinary (or hex
        /// with --hex, `cbt read` output with --cbt; `-` for standard
        /// input): counts what each does under the new layout, and the
        /// share a salt change moves.
        #[arg(long, value_name = "FILE")]
        keys: Option<PathBuf>,
        /// The keys are plain hex.
        #[arg(long, conflicts_with = "cbt", requires = "keys")]
        hex: bool,
        /// The keys are what `cbt read` prints.
        #[arg(long, requires = "keys")]
        cbt: bool,
        /// Compare layouts that share no name and no field.
        #[arg(long)]
        force: bool,
    },
    /// Move a Bigtable table's rows from OLD.json's layout to NEW.json's,
    /// into a new table (--to) or in place (--in-place); resumable with
    /// --checkpoint. Exit 0 when done (and verified), 1 when not, 2 on
    /// bad input.
    #[cfg(feature = "bigtable")]
    Rekey {
        /// The layout the rows were written with.
        #[arg(long, value_name = "OLD.json")]
        old: PathBuf,
        /// The layout to move them to.
        #[arg(long, value_name = "NEW.json")]
        new: PathBuf,
        /// Where each new field's value comes from:
        /// `{"new_field": "old_field", "other": {"value": "text"}}`; a
        /// field it does not name takes the old field of its name.
        #[arg(long, value_name = "MAP.json")]
        map: Option<PathBuf>,
        /// The Bigtable emulator (`127.0.0.1:8086`); Cloud Bigtable with
        /// application default credentials when not given.
        #[arg(long, value_name = "HOST:PORT")]
        emulator: Option<String>,
        /// The Bigtable project.
        #[arg(long)]
        project: String,
        /// The Bigtable instance.
        #[arg(long)]
        instance: String,
        /// The table the rows are in.
        #[arg(long, value_name = "TABLE")]
        from: String,
        /// The table to write the new rows to (created beforehand).
        #[arg(
            long,
            value_name = "TABLE",
            required_unless_present = "in_place",
            conflicts_with = "in_place"
        )]
        to: Option<String>,
        /// Rewrite the rows in their own table, deleting the old ones.
        #[arg(long)]
        in_place: bool,
        /// A file recording how far the re-key got: a run stopped by a
        /// crash resumes from it.
        #[arg(long, value_name = "FILE")]
        checkpoint: Option<PathBuf>,
        /// Rows read and written per batch.
        #[arg(long, default_value_t = 500, value_parser = parse_batch)]
        batch: u32,
        /// Read and map every row, write nothing: print the counts.
        #[arg(long)]
        dry_run: bool,
        /// Then compare counts and spot-check rows.
        #[arg(long)]
        verify: bool,
        /// An index table to rebuild from the new keys: the index key's
        /// layout and its (new, empty) table; each index field takes the
        /// new key's field of its name. Repeat for several indexes. Needs
        /// --to and --registry; always verified.
        #[arg(long, value_name = "INDEX.json=TABLE", requires_all = ["to", "registry"])]
        index: Vec<String>,
        /// The layout registry table (column family `l`): the target
        /// tables' recorded layouts are checked before anything is
        /// written, and the new ones recorded once verified.
        #[arg(long, value_name = "TABLE")]
        registry: Option<String>,
    },
    /// Read one row of a live table by its key's field values: the key
    /// decoded, and each cell. Exit 0 when the row is there, 1 when it is
    /// not, 2 on bad input or a store that cannot be read.
    #[cfg(any(feature = "bigtable", feature = "hbase"))]
    Get {
        #[command(flatten)]
        layout: LayoutArg,
        #[command(flatten)]
        table: TableArg,
        /// The salt bucket, for a salt whose bucket or group a user
        /// function picks.
        #[arg(long, value_name = "N")]
        bucket: Option<u32>,
        /// `field=value` for every field, as `rowkey encode` takes them.
        #[arg(required = true, value_name = "FIELD=VALUE")]
        values: Vec<String>,
    },
    /// Read the rows of a live table whose keys start with the values of
    /// their first fields (none: every row), each key decoded, with its
    /// cells; in the order the table stores them.
    #[cfg(any(feature = "bigtable", feature = "hbase"))]
    Scan {
        #[command(flatten)]
        layout: LayoutArg,
        #[command(flatten)]
        table: TableArg,
        /// The most rows to print.
        #[arg(long, default_value_t = 20, value_parser = parse_limit)]
        limit: u64,
        /// `field=value` for the key's first fields, in key order.
        #[arg(value_name = "FIELD=VALUE")]
        values: Vec<String>,
    },
    /// Print the `#[rowkey(phoenix)]` struct of an Apache Phoenix table's
    /// primary key, from Phoenix's own SYSTEM.CATALOG, and how its cells
    /// are stored: what to paste into a program that reads or writes it.
    #[cfg(feature = "hbase")]
    Phoenix {
        /// The HBase the table is in: `zk://QUORUM/PARENT`,
        /// `hbase://MASTERS` or a Thrift 1 server's `HOST:PORT`.
        #[arg(long, value_name = "ADDRESS")]
        store: String,
        /// The table, as Phoenix names it (upper case unless quoted).
        #[arg(long)]
        table: String,
        /// Its schema (none: the default schema).
        #[arg(long)]
        schema: Option<String>,
    },
    /// Print the layout: fields, offsets, widths, codecs, order, salt.
    Explain {
        #[command(flatten)]
        layout: LayoutArg,
    },
    /// Print each field of keys pasted from the HBase shell, as hex, or
    /// as `cbt read` prints them.
    Decode {
        #[command(flatten)]
        layout: LayoutArg,
        /// Keys are plain hex, not `toStringBinary` (`\x7F\xFF...`).
        #[arg(long, conflicts_with = "cbt")]
        hex: bool,
        /// Read what `cbt read` prints (row keys as raw bytes), from
        /// --keys FILE or standard input.
        #[arg(long)]
        cbt: bool,
        /// A file of keys, one a line (`-`: standard input); with --cbt,
        /// `cbt read` output.
        #[arg(long, value_name = "FILE")]
        keys: Option<PathBuf>,
        /// The keys.
        #[arg(value_name = "KEY")]
        key: Vec<String>,
    },
    /// Build a key from its field values.
    Encode {
        #[command(flatten)]
        layout: LayoutArg,
        /// The salt bucket, for a salt whose bucket or group a user
        /// function picks (checked when the CLI can compute it).
        #[arg(long, value_name = "N")]
        bucket: Option<u32>,
        /// The table the HBase shell `get` reads.
        #[arg(long, default_value = "TABLE")]
        table: String,
        /// `field=value` for every field (`None` / `Some(v)` for options,
        /// `toStringBinary` for bytes, hex for types the layout cannot
        /// describe).
        #[arg(required = true, value_name = "FIELD=VALUE")]
        values: Vec<String>,
    },
    /// Print the command that creates a table pre-split for these keys.
    Splits {
        #[command(flatten)]
        layout: LayoutArg,
        /// HBase shell `create` for TABLE with column family CF.
        #[arg(long, num_args = 2, value_names = ["TABLE", "CF"], required_unless_present = "cbt", conflicts_with = "cbt")]
        hbase: Option<Vec<String>>,
        /// `cbt createtable` for TABLE with column family CF.
        #[arg(long, num_args = 2, value_names = ["TABLE", "CF"])]
        cbt: Option<Vec<String>>,
        /// Regions, for keys with a hash prefix (hex or binary splits) or
        /// none (binary splits); a salted key splits once per bucket.
        #[arg(long, value_name = "N", value_parser = parse_regions)]
        regions: Option<u32>,
    },
    /// Count a sample of keys per region, name what fills each hot region,
    /// and draw it.
    ///
    /// Prints one line per region (its start key, keys, a bar), then, for
    /// each hot region (over 1.5x the mean), its cause (the field values
    /// holding at least 20% of its keys and more of them than elsewhere,
    /// as `rowkey decode` shows them: `workspace = megacorp: 95%; channel
    /// = sales: 48%, hiring: 48%`) and each field's top three values with
    /// their shares of the region's keys. Keys that do not decode are
    /// counted as such. Values are counted in bounded memory (64 counters
    /// a field a region, Space-Saving): a field of more distinct values
    /// says so, and a share known only within a range is shown as the
    /// range (`60–61%`, never wider than 1/64 of the region's keys). The
    /// picture writes the causes under the plot.
    Hotspot {
        #[command(flatten)]
        layout: LayoutArg,
        /// The sample: one key a line, `toStringBinary` (or hex with
        /// --hex, or `cbt read` output with --cbt); `-` for standard input.
        #[arg(long, value_name = "FILE")]
        keys: PathBuf,
        /// Split keys, one a line like the keys; the layout's own by default.
        #[arg(long, value_name = "FILE")]
        splits: Option<PathBuf>,
        /// Regions when the layout has no split keys of its own.
        #[arg(long, value_name = "N", value_parser = parse_regions)]
        regions: Option<u32>,
        /// The keys and split keys are plain hex.
        #[arg(long, conflicts_with = "cbt")]
        hex: bool,
        /// The keys are what `cbt read` prints (split keys stay one a line).
        #[arg(long)]
        cbt: bool,
        /// Draw a heatmap of regions over this (time) field instead of bars.
        #[arg(long, value_name = "FIELD")]
        time: Option<String>,
        /// Time bins of the heatmap (1 to 1000).
        #[arg(long, default_value_t = 24, value_parser = parse_bins)]
        bins: u32,
        /// The SVG picture to write: bars (or the heatmap), the hot
        /// regions' causes under them.
        #[arg(long, value_name = "heat.svg")]
        out: PathBuf,
        /// Name the rows listed more than N times, the sample being a key
        /// a line for each cell (as `hbase shell`'s scan prints rows):
        /// wide rows over a size, which HBase cannot split.
        #[arg(long, value_name = "N")]
        max_row_cells: Option<u64>,
    },
}

/// The most time bins a heatmap draws: more than a picture shows.
const MAX_BINS: u32 = 1000;

/// A count in `1..=max`, its bound stated when refused (clap's own
/// ranged parsers say only "too large" past the type's width).
fn count(text: &str, max: u32) -> Result<u32, String> {
    match text.parse::<u64>() {
        Ok(n) if (1..=u64::from(max)).contains(&n) => Ok(n as u32),
        _ => Err(format!("takes a count in 1..={max}")),
    }
}

/// Regions: 1 to 65536 (the most salt buckets; more than any table
/// pre-splits into).
fn parse_regions(text: &str) -> Result<u32, String> {
    count(text, rowkey_core::salt::MAX_BUCKETS)
}

/// Rows per re-key batch: 1 to 100000.
#[cfg(feature = "bigtable")]
fn parse_batch(text: &str) -> Result<u32, String> {
    count(text, 100_000)
}

/// Time bins: 1 to 1000, more than a picture shows.
#[cfg(any(feature = "bigtable", feature = "hbase"))]
fn parse_limit(text: &str) -> Result<u64, String> {
    count(text, 1_000_000).map(u64::from)
}

fn parse_bins(text: &str) -> Result<u32, String> {
    count(text, MAX_BINS)
}

fn form(hex: bool, cbt: bool) -> KeyForm {
    match (hex, cbt) {
        (true, _) => KeyForm::Hex,
        (_, true) => KeyForm::Cbt,
        _ => KeyForm::Binary,
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Diff {
            old,
            new,
            keys,
            hex,
            cbt,
            force,
        } => {
            // 0: stored rows read as before; 1: they do not; 2: bad input.
            let args = cmd::DiffArgs {
                old: &old,
                new: &new,
                keys: keys.as_deref(),
                form: form(hex, cbt),
                force,
            };
            return match cmd::diff(args) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::from(1),
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            };
        }
        #[cfg(feature = "bigtable")]
        Command::Rekey {
            old,
            new,
            map,
            emulator,
            project,
            instance,
            from,
            to,
            in_place: _,
            checkpoint,
            batch,
            dry_run,
            verify,
            index,
            registry,
        } => {
            let args = cmd::RekeyArgs {
                old: &old,
                new: &new,
                map: map.as_deref(),
                emulator: emulator.as_deref(),
                project: &project,
                instance: &instance,
                from: &from,
                to: to.as_deref(),
                checkpoint: checkpoint.as_deref(),
                batch: batch as usize,
                dry_run,
                verify,
                indexes: &index,
                registry: registry.as_deref(),
            };
            // 0: done; 1: the verification failed; 2: bad input or a stop.
            return match cmd::rekey(args) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::from(1),
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            };
        }
        Command::Explain { layout } => cmd::explain(&layout.layout),
        Command::Decode {
            layout,
            hex,
            cbt,
            keys,
            key,
        } => cmd::decode(
            &layout.layout,
            cmd::KeySource {
                form: form(hex, cbt),
                args: &key,
                file: keys.as_deref(),
            },
        ),
        #[cfg(any(feature = "bigtable", feature = "hbase"))]
        Command::Get {
            layout,
            table,
            bucket,
            values,
        } => {
            // 0: the row is there; 1: it is not; 2: bad input or a store
            // that cannot be read.
            let args = cmd::ReadArgs {
                layout: &layout.layout,
                store: &table.store,
                table: &table.table,
                values: &values,
                bucket,
                limit: 1,
            };
            return match cmd::get(args).and_then(|found| out::flush().map(|()| found)) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::from(1),
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            };
        }
        #[cfg(any(feature = "bigtable", feature = "hbase"))]
        Command::Scan {
            layout,
            table,
            limit,
            values,
        } => cmd::scan(cmd::ReadArgs {
            layout: &layout.layout,
            store: &table.store,
            table: &table.table,
            values: &values,
            bucket: None,
            limit,
        }),
        Command::Encode {
            layout,
            bucket,
            table,
            values,
        } => cmd::encode(&layout.layout, bucket, &table, &values),
        #[cfg(feature = "hbase")]
        Command::Phoenix {
            store,
            table,
            schema,
        } => cmd::phoenix(&store, schema.as_deref(), &table),
        Command::Splits {
            layout,
            hbase,
            cbt,
            regions,
        } => cmd::splits(&layout.layout, hbase, cbt, regions),
        Command::Hotspot {
            layout,
            keys,
            splits,
            regions,
            hex,
            cbt,
            time,
            bins,
            out,
            max_row_cells,
        } => cmd::hotspot(cmd::HotspotArgs {
            layout: &layout.layout,
            keys: &keys,
            splits: splits.as_deref(),
            regions,
            hex,
            form: form(hex, cbt),
            time: time.as_deref(),
            bins: bins as usize,
            out: &out,
            max_row_cells,
        }),
    };
    match result.and_then(|()| out::flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
