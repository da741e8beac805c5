//! BigtableStore against the emulator: writes, point gets, exact range
//! reads (including bounds next to 0xFF) and a pre-split table.
#![cfg(feature = "bigtable")]

#[path = "common/emulator.rs"]
mod emulator;

use rowkey::split::SplitKeys;
use rowkey::store::{BigtableStore, Cell, MemStore, Row, Store, TableSpec};

#[test]
fn bigtable_reads_ranges_exactly_like_memstore() {
    let emu = emulator::Emulator::start();
    let splits = SplitKeys::new([vec![0x01, 0xFF], b"m".to_vec()]);
    let spec = TableSpec {
        project: "p",
        instance: "i",
        table: "t",
        families: &["d"],
        splits: &splits,
    };
    BigtableStore::create_table(Some(&emu.host), &spec).unwrap();
    let mut bt = BigtableStore::connect_emulator(&emu.host, "p", "i", "t").unwrap();
    let mut mem = MemStore::new();
    let keys: Vec<Vec<u8>> = vec![
        vec![0x01],
        vec![0x01, 0xFF],
        vec![0x01, 0xFF, 0x00],
        vec![0x02],
        vec![0x02, 0x00],
        b"a".to_vec(),
        b"m".to_vec(),
        b"z\xFF\xFF".to_vec(),
    ];
    let rows: Vec<Row> = keys
        .iter()
        .map(|k| Row {
            key: k.clone(),
            cells: vec![Cell::new("d", "v", k)],
        })
        .collect();
    bt.write_rows(rows.clone()).unwrap();
    mem.write_rows(rows).unwrap();
    let bounds: [(&[u8], Option<&[u8]>); 5] = [
        (&[0x01, 0xFF], Some(&[0x02])),
        (&[], None),
        (&[0x01], Some(&[0x01, 0xFF, 0x00])),
        (b"m", None),
        (&[0x02], Some(&[0x02])),
    ];
    for (start, stop) in bounds {
        for limit in [None, Some(1), Some(3)] {
            let a = bt.read_range(start, stop, limit).unwrap();
            let b = mem.read_range(start, stop, limit).unwrap();
            assert_eq!(a, b, "{start:?}..{stop:?} limit {limit:?}");
        }
    }
    assert_eq!(
        bt.read_row(b"m").unwrap().unwrap().value("d", "v"),
        Some(&b"m"[..])
    );
    assert!(bt.read_row(b"nope").unwrap().is_none());
}
