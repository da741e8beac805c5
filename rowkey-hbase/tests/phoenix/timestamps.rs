//! `TIMESTAMP`s below the millisecond, in a key (ascending and `DESC`)
//! and a cell, written natively and read by Phoenix's JDBC
//! `getTimestamp` (`PhoenixSql` prints its milliseconds and the
//! nanoseconds within the millisecond, which SQL literals and
//! `getString` drop), before and after the epoch.

use super::{phoenix, with_sql};
use rowkey::codec::phoenix::PhoenixTimestamp;
use rowkey::store::{Record as _, StoreExt};
use rowkey::{Record, RowKey};
use rowkey_fixtures::layouts::Rng;

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
struct StampKey {
    t: PhoenixTimestamp,
    #[desc]
    d: PhoenixTimestamp,
}

#[derive(Record, Debug, Clone, PartialEq)]
#[record(key = StampKey, phoenix)]
struct Stamp {
    t: PhoenixTimestamp,
    d: PhoenixTimestamp,
    #[cell(qualifier = 11)]
    at: Option<PhoenixTimestamp>,
}

fn stamp(rng: &mut Rng) -> PhoenixTimestamp {
    let millis = rng.below(4_000_000_000_000) as i64 - 2_000_000_000_000;
    PhoenixTimestamp::new(millis, rng.below(1_000_000) as u32).expect("under a millisecond")
}

/// `ts:MILLIS:NANOS` as `PhoenixSql` prints a `TIMESTAMP`.
fn shown(v: &Option<String>) -> Option<PhoenixTimestamp> {
    let v = v.as_deref()?;
    let mut parts = v.strip_prefix("ts:").expect("a TIMESTAMP").split(':');
    let millis = parts.next().unwrap().parse().unwrap();
    let nanos = parts.next().unwrap().parse().unwrap();
    PhoenixTimestamp::new(millis, nanos)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sub_millisecond_timestamps_are_what_phoenix_reads() {
    with_sql(|sql| {
        sql.must(
            "CREATE TABLE STAMPS (T TIMESTAMP NOT NULL, D TIMESTAMP NOT NULL, AT TIMESTAMP \
             CONSTRAINT PK PRIMARY KEY (T, D DESC))",
        )
    });
    let client = rowkey_hbase::HBaseClient::connect(&phoenix().hbase.zk_address())
        .await
        .unwrap();
    let store = client.table("STAMPS");
    let mut rng = Rng(61);
    let mut ours: Vec<Stamp> = (0..120)
        .map(|i| Stamp {
            t: stamp(&mut rng),
            d: stamp(&mut rng),
            at: (i % 4 != 0).then(|| stamp(&mut rng)),
        })
        .collect();
    // Some within one millisecond of each other, and at the epoch.
    ours.push(Stamp {
        t: PhoenixTimestamp::new(-1, 999_999).unwrap(),
        d: PhoenixTimestamp::new(0, 1).unwrap(),
        at: Some(PhoenixTimestamp::new(-1, 0).unwrap()),
    });
    store.put_records(&ours).await.unwrap();
    let theirs = with_sql(|sql| sql.query("SELECT T, D, AT FROM STAMPS").unwrap());
    let mut theirs: Vec<Stamp> = theirs
        .iter()
        .map(|r| Stamp {
            t: shown(&r[0]).unwrap(),
            d: shown(&r[1]).unwrap(),
            at: shown(&r[2]),
        })
        .collect();
    let by_key = |s: &Stamp| s.to_key().unwrap().as_ref().to_vec();
    theirs.sort_by_key(by_key);
    ours.sort_by_key(by_key);
    assert_eq!(theirs, ours);
}
