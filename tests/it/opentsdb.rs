//! OpenTSDB 2.4's `tsdb` storage format, byte for byte, against OpenTSDB
//! 2.4.1's own code in the JVM (`testing/hbase`'s `TsdbCodec`, which calls
//! `net.opentsdb.core.Internal`):
//!
//! - 6,000 random points (seconds and milliseconds, the first and last
//!   instant of an hour, integers of every width at their edges, floats
//!   and doubles of any bits, NaN payloads included): the hour, qualifier
//!   and value `rowkey_fixtures::layouts::tsdb_point` writes are exactly
//!   OpenTSDB's, and what OpenTSDB reads back from those bytes (offset,
//!   flags, timestamp, value) is what rowkey's types decode;
//! - 1,000 random compacted cells (2 to 40 points of a row, seconds and
//!   milliseconds mixed, every value form): rowkey's compaction is what
//!   `Internal.extractDataPoints` splits into the same points, and rowkey
//!   splits it into them too;
//! - 500 random row keys (metric, hour, 0 to 8 tag pairs): rowkey's
//!   `TsdbRow` bytes, with the base time where `Internal.setBaseTime`
//!   puts it and read back by `Internal.baseTime`; and 500 more salted
//!   (one byte, 20 buckets): `TsdbSaltedRow`'s bucket is the one
//!   `RowKey.prefixKeyWithSalt` sets.
//!
//! Java and Maven are installed on every machine this project builds on;
//! without them this test fails, loudly, rather than skip.

use rowkey::store::Qualifier;
use rowkey::RowKey;
use rowkey_fixtures::layouts::{
    tsdb_cell_points, tsdb_compact, tsdb_point, Rng, TsdbQualifier, TsdbRow, TsdbSaltedRow,
    TsdbValue, TSDB_ROW_SPAN,
};

fn hex(b: &[u8]) -> String {
    if b.is_empty() {
        return "-".into();
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

/// Every line's answer from one run of `TsdbCodec`.
fn jvm(lines: &[String]) -> Vec<String> {
    rowkey_fixtures::hbase::java_lines("rowkey.testing.TsdbCodec", false, lines)
}

/// A random point: a timestamp (seconds, or milliseconds) and a value.
fn point(rng: &mut Rng) -> (u64, TsdbValue) {
    // 2001 to 2100, at an hour's edges a third of the time.
    let hour = (1_000_000_000 + rng.below(3_100_000_000)) / u64::from(TSDB_ROW_SPAN)
        * u64::from(TSDB_ROW_SPAN);
    let millis = rng.below(2) == 0;
    let within = match rng.below(3) {
        0 => 0,
        1 => u64::from(TSDB_ROW_SPAN) * if millis { 1000 } else { 1 } - 1,
        _ => rng.below(u64::from(TSDB_ROW_SPAN) * if millis { 1000 } else { 1 }),
    };
    let ts = if millis {
        hour * 1000 + within
    } else {
        hour + within
    };
    let edges = [0, 1, -1, 127, 128, -128, -129, 32767, 32768, -32768, -32769];
    let value = match rng.below(5) {
        0 => TsdbValue::Int(edges[rng.below(edges.len() as u64) as usize]),
        1 => {
            let wide = [
                i64::from(i32::MAX),
                i64::from(i32::MAX) + 1,
                i64::from(i32::MIN),
                i64::from(i32::MIN) - 1,
                i64::MAX,
                i64::MIN,
            ];
            TsdbValue::Int(wide[rng.below(wide.len() as u64) as usize])
        }
        2 => TsdbValue::Int(rng.next_u64() as i64 >> rng.below(64)),
        3 => TsdbValue::Float(f32::from_bits(rng.next_u64() as u32)),
        _ => TsdbValue::Double(f64::from_bits(rng.next_u64())),
    };
    (ts, value)
}

fn line(ts: u64, v: TsdbValue) -> String {
    match v {
        TsdbValue::Int(n) => format!("point {ts} long {n}"),
        TsdbValue::Float(f) => format!("point {ts} float {:x}", f.to_bits()),
        TsdbValue::Double(d) => format!("point {ts} double {:x}", d.to_bits()),
    }
}

#[test]
fn points_are_written_and_read_as_opentsdb_does() {
    let mut rng = Rng(0x75DB);
    let points: Vec<(u64, TsdbValue)> = (0..6000).map(|_| point(&mut rng)).collect();
    let lines: Vec<String> = points.iter().map(|&(ts, v)| line(ts, v)).collect();
    for ((&(ts, value), answer), asked) in points.iter().zip(jvm(&lines)).zip(&lines) {
        let f: Vec<&str> = answer.split(' ').collect();
        let (row, q, bytes) = tsdb_point([0, 0, 1], &[], ts, value);
        let what = format!("{asked} -> {answer}");
        // Written as OpenTSDB writes it.
        assert_eq!(
            u64::from(row.base_time),
            f[0].parse::<u64>().unwrap(),
            "{what}: the hour"
        );
        assert_eq!(
            hex(&q.to_qualifier().unwrap()),
            f[1],
            "{what}: the qualifier"
        );
        assert_eq!(hex(&bytes), f[2], "{what}: the value");
        // Read as OpenTSDB reads OpenTSDB's bytes.
        let theirs = TsdbQualifier::from_qualifier(&unhex(f[1])).expect("its qualifier");
        assert_eq!(
            theirs.offset_ms(),
            f[3].parse::<u32>().unwrap(),
            "{what}: the offset"
        );
        assert_eq!(
            u32::from(theirs.flags()),
            f[4].parse::<u32>().unwrap(),
            "{what}: the flags"
        );
        let at_ms = u64::from(row.base_time) * 1000 + u64::from(theirs.offset_ms());
        assert_eq!(at_ms, f[5].parse::<u64>().unwrap(), "{what}: the timestamp");
        let read = TsdbValue::from_bytes(&unhex(f[2]), theirs.flags()).expect("its value");
        let shown = match read {
            TsdbValue::Int(n) => n.to_string(),
            TsdbValue::Float(x) => format!("{:x}", f64::from(x).to_bits()),
            TsdbValue::Double(x) => format!("{:x}", x.to_bits()),
        };
        // A float NaN widens to a double NaN whose payload the JVM may
        // quiet: compare NaN as NaN.
        let nan = |s: &str| u64::from_str_radix(s, 16).is_ok_and(|b| f64::from_bits(b).is_nan());
        if !(nan(&shown) && nan(f[6])) {
            assert_eq!(shown, f[6], "{what}: the value read back");
        }
    }
}

/// 500 random rows (metric, hour, 0 to 8 tag pairs), each as `TsdbCodec`
/// is asked for it with `command` (`row` or `salted`).
fn random_rows(seed: u64, command: &str) -> (Vec<TsdbRow>, Vec<String>) {
    let mut rng = Rng(seed);
    let mut lines = Vec::new();
    let mut rows = Vec::new();
    for _ in 0..500 {
        let (ts, _) = point(&mut rng);
        let uid = |rng: &mut Rng| -> [u8; 3] {
            let b = rng.next_u64().to_be_bytes();
            [b[0], b[1], b[2]]
        };
        let metric = uid(&mut rng);
        let tags: Vec<([u8; 3], [u8; 3])> = (0..rng.below(9))
            .map(|_| (uid(&mut rng), uid(&mut rng)))
            .collect();
        let (row, _, _) = tsdb_point(metric, &tags, ts, TsdbValue::Int(0));
        lines.push(format!(
            "{command} {} {ts} {}",
            hex(&metric),
            hex(&row.tags)
        ));
        rows.push(row);
    }
    (rows, lines)
}

#[test]
fn row_keys_are_opentsdbs() {
    let (rows, lines) = random_rows(0x0401, "row");
    for ((row, answer), asked) in rows.iter().zip(jvm(&lines)).zip(&lines) {
        let (key, base) = answer.split_once(' ').expect("two fields");
        assert_eq!(hex(&row.to_vec().unwrap()), key, "{asked}");
        assert_eq!(
            u64::from(row.base_time),
            base.parse::<u64>().unwrap(),
            "{asked}"
        );
        assert_eq!(TsdbRow::decode(&unhex(key)).unwrap(), *row, "{asked}");
    }
}

#[test]
fn salted_row_keys_are_opentsdbs() {
    let (rows, lines) = random_rows(0x5A17, "salted");
    let mut buckets = std::collections::BTreeSet::new();
    for ((row, answer), asked) in rows.into_iter().zip(jvm(&lines)).zip(&lines) {
        let (key, base) = answer.split_once(' ').expect("two fields");
        let salted = TsdbSaltedRow::from(row);
        assert_eq!(hex(&salted.to_vec().unwrap()), key, "{asked}");
        assert_eq!(
            u64::from(salted.base_time),
            base.parse::<u64>().unwrap(),
            "{asked}"
        );
        assert_eq!(
            TsdbSaltedRow::decode(&unhex(key)).unwrap(),
            salted,
            "{asked}"
        );
        buckets.insert(key[..2].to_string());
    }
    // Every one of the 20 buckets is met: the hash is exercised, not one
    // bucket by chance.
    assert_eq!(buckets.len(), 20);
}

#[test]
fn compacted_cells_are_split_as_opentsdb_splits_them() {
    let mut rng = Rng(0xC0_4AC7);
    let mut cells = Vec::new();
    let mut lines = Vec::new();
    for _ in 0..1000 {
        // Points of one hour, each at a second or millisecond of its own.
        let hour: u64 = 1_356_998_400;
        let mut used = std::collections::BTreeSet::new();
        let mut points = Vec::new();
        for _ in 0..2 + rng.below(39) {
            let (ts, value) = point(&mut rng);
            let millis = ts & rowkey_fixtures::layouts::SECOND_MASK != 0;
            let ts = if millis {
                hour * 1000 + ts % (u64::from(TSDB_ROW_SPAN) * 1000)
            } else {
                hour + ts % u64::from(TSDB_ROW_SPAN)
            };
            let (_, q, bytes) = tsdb_point([0, 0, 1], &[], ts, value);
            if used.insert(q.offset_ms()) {
                points.push((q, bytes));
            }
        }
        // OpenTSDB compacts two points or more (one is left as it is).
        if points.len() < 2 {
            continue;
        }
        let (q, v) = tsdb_compact(&points);
        lines.push(format!("compact {} {}", hex(&q), hex(&v)));
        cells.push((q, v, points));
    }
    for ((q, v, points), answer) in cells.iter().zip(jvm(&lines)) {
        // OpenTSDB's points, in its order (by time), as ours.
        let mut theirs: Vec<(Vec<u8>, Vec<u8>)> = answer
            .split(' ')
            .map(|p| {
                let (q, v) = p.split_once(':').expect("Q:V");
                (unhex(q), unhex(v))
            })
            .collect();
        let mut ours: Vec<(Vec<u8>, Vec<u8>)> = points
            .iter()
            .map(|(q, v)| (q.to_qualifier().unwrap(), v.clone()))
            .collect();
        let by_time =
            |x: &(Vec<u8>, Vec<u8>)| TsdbQualifier::from_qualifier(&x.0).unwrap().offset_ms();
        theirs.sort_by_key(by_time);
        ours.sort_by_key(by_time);
        assert_eq!(theirs, ours, "compact {} {}", hex(q), hex(v));
        // And rowkey splits the same bytes into the same points.
        let split = tsdb_cell_points(q, v).expect("a compacted cell");
        assert_eq!(split.len(), points.len());
        for ((sq, sv), (pq, pv)) in split.iter().zip(points) {
            assert_eq!(sq, pq);
            // By bytes: a NaN is not equal to itself.
            assert_eq!(sv.to_bytes(), *pv);
        }
    }
}
