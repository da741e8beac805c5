//! A `#[tokio::main]` service answering the spending ledger's queries from
//! Bigtable: the async store shared by every connection (clones are
//! handles to one client), each request served in its own task, rows
//! streamed back as the store merges the buckets.
//!
//! It listens on a loopback port for lines of a tiny protocol:
//! - `user <name> <yyyy-MM>`: one user's spending in a month (one range);
//! - `month <yyyy-MM> <n>`: the first `n` rows of everyone in a month (ten
//!   buckets, merged in key order);
//! - `page <yyyy-MM> <size> [<cursor>]`: keyset pages;
//!
//! and answers each with one line per row and `end <rows>` (or `error ..`).
//! To show itself, it then connects three clients at once and prints their
//! answers.
//!
//! Run: `cargo run --example ledger_service --features bigtable`
//! (the emulator at `BIGTABLE_EMULATOR_HOST`, or one it starts).

use futures::StreamExt;
use rowkey::bigtable::{BigtableAdmin, BigtableStore, TableSpec};
use rowkey::store::{Cell, Row, Store, StoreExt};
use rowkey::{KeyDisplay, RowKey};
use rowkey_fixtures::layouts::Ledger;
use std::error::Error;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

type BoxError = Box<dyn Error + Send + Sync>;

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let (host, _emulator) = match std::env::var("BIGTABLE_EMULATOR_HOST") {
        Ok(host) => (host, None),
        Err(_) => {
            let e = rowkey_fixtures::emulator::Emulator::start();
            (e.host.clone(), Some(e))
        }
    };
    let admin = BigtableAdmin::connect_emulator(&host, "demo", "demo")?;
    let splits = Ledger::split_keys();
    admin
        .create_table(&TableSpec::new("ledger", &["d"]).splits(&splits))
        .await?;
    let store = BigtableStore::connect_emulator(&host, "demo", "demo", "ledger").await?;
    let rows = Ledger::rows(10_000);
    let load: Result<Vec<Row>, _> = rows
        .iter()
        .map(|r| {
            r.to_vec()
                .map(|k| Row::new(k, vec![Cell::new("d", "amount", "12.50")]))
        })
        .collect();
    store.write_rows(load?).await?;
    println!(
        "ledger: 10,000 rows in {} regions on the emulator at {host}",
        splits.len() + 1
    );

    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let server = tokio::spawn(serve(listener, store));
    println!("serving on {addr}");

    let user = rows[0].user.clone();
    let requests = [
        format!("user {user} 2021-12"),
        "month 2021-12 5".to_string(),
        "page 2021-12 3".to_string(),
    ];
    // Three clients at once, each in its own task.
    let clients: Vec<_> = requests
        .into_iter()
        .map(|line| tokio::spawn(ask(addr, line)))
        .collect();
    for client in clients {
        let (line, answer) = client.await??;
        println!("> {line}\n{answer}");
    }
    server.abort();
    Ok(())
}

/// Accepts connections until aborted; each gets its own task and a clone
/// of the store.
async fn serve(listener: TcpListener, store: BigtableStore) -> Result<(), BoxError> {
    loop {
        let (conn, _) = listener.accept().await?;
        let store = store.clone();
        tokio::spawn(async move {
            if let Err(e) = handle(conn, store).await {
                eprintln!("connection failed: {}", chain(&*e));
            }
        });
    }
}

/// An error and its sources, as one line: a store error's message names
/// the operation, its source says what the client or server said.
fn chain(e: &(dyn Error + 'static)) -> String {
    let mut line = e.to_string();
    let mut next = e.source();
    while let Some(cause) = next {
        line = format!("{line}: {cause}");
        next = cause.source();
    }
    line
}

async fn handle(conn: TcpStream, store: BigtableStore) -> Result<(), BoxError> {
    let (read, mut write) = conn.into_split();
    let mut lines = BufReader::new(read).lines();
    while let Some(line) = lines.next_line().await? {
        let reply = match answer(&store, &line).await {
            Ok(rows) => rows,
            Err(e) => format!("error {e}\n"),
        };
        write.write_all(reply.as_bytes()).await?;
    }
    Ok(())
}

/// One request's reply: a line per row, then `end <rows>`.
async fn answer(store: &BigtableStore, line: &str) -> Result<String, BoxError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut out = String::new();
    let mut n = 0;
    let show = |row: &Row, out: &mut String| -> Result<(), BoxError> {
        let l: Ledger = row.key_as()?;
        out.push_str(&format!(
            "  {:<8} {}{}  {}\n",
            l.user,
            l.month,
            l.rest,
            KeyDisplay(&row.key)
        ));
        Ok(())
    };
    match words.as_slice() {
        ["user", user, month] => {
            let plan = Ledger::scan()
                .month
                .eq(month.to_string())
                .user
                .eq(user)
                .plan()?;
            let mut rows = store.query(&plan);
            while let Some(row) = rows.next().await {
                show(&row?, &mut out)?;
                n += 1;
            }
        }
        ["month", month, count] => {
            let plan = Ledger::scan().month.eq(month.to_string()).plan()?;
            // Ten buckets read concurrently, merged; dropping the stream
            // after `count` rows cancels the reads still in flight.
            let mut rows = store.query(&plan).take(count.parse()?);
            while let Some(row) = rows.next().await {
                show(&row?, &mut out)?;
                n += 1;
            }
        }
        ["page", month, size, resume @ ..] => {
            let plan = Ledger::scan().month.eq(month.to_string()).plan()?;
            // The cursor travels as its URL-safe string; another query's,
            // or a mangled one, is an error, never another page.
            let resume = match resume.first() {
                Some(token) => Some(token.parse::<rowkey::scan::Cursor>()?),
                None => None,
            };
            let page = store.page(&plan, resume.as_ref(), size.parse()?).await?;
            for row in &page.rows {
                show(row, &mut out)?;
                n += 1;
            }
            if let Some(next) = page.next {
                out.push_str(&format!("  next page: page {month} {size} {}\n", next));
            }
        }
        _ => return Err(format!("unknown request {line:?}").into()),
    }
    out.push_str(&format!("end {n}\n"));
    Ok(out)
}

/// Sends one request and reads its reply, up to `end`.
async fn ask(addr: std::net::SocketAddr, line: String) -> Result<(String, String), BoxError> {
    let conn = TcpStream::connect(addr).await?;
    let (read, mut write) = conn.into_split();
    write.write_all(format!("{line}\n").as_bytes()).await?;
    let mut lines = BufReader::new(read).lines();
    let mut answer = String::new();
    while let Some(reply) = lines.next_line().await? {
        let last = reply.starts_with("end ") || reply.starts_with("error ");
        answer.push_str(&reply);
        answer.push('\n');
        if last {
            break;
        }
    }
    Ok((line, answer))
}
