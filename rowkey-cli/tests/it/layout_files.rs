//! Layout files edited by hand or damaged: each number of every seed
//! layout's JSON changed at random. The file is refused with a reason, or
//! it loads and then decodes and encodes any bytes without a panic.

use proptest::prelude::*;
use serde_json::Value;

fn seed_files() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/layouts");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    files.sort();
    files
}

/// Sets the `n`-th number (in document order, wrapping) to `to`.
fn set_number(v: &mut Value, n: &mut usize, to: u64) -> bool {
    match v {
        Value::Number(_) => {
            if *n == 0 {
                *v = Value::from(to);
                return true;
            }
            *n -= 1;
            false
        }
        Value::Array(items) => items.iter_mut().any(|x| set_number(x, n, to)),
        Value::Object(map) => map.values_mut().any(|x| set_number(x, n, to)),
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn damaged_layouts_never_panic(file: prop::sample::Index, which in 0usize..40,
                                   to in prop_oneof![0u64..40, Just(255), Just(256), Just(65_536), Just(u64::from(u32::MAX)), Just(u64::MAX)],
                                   keys in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..48), 1..8)) {
        let files = seed_files();
        let mut json: Value = serde_json::from_str(&files[file.index(files.len())]).unwrap();
        let mut n = which;
        set_number(&mut json, &mut n, to);
        let Ok(layout) = rowkey::Layout::from_json(&json.to_string()) else { return Ok(()) };
        let _ = layout.explain();
        for key in keys {
            if let Ok(d) = layout.decode_key(&key) {
                let _ = layout.encode_key(&d.values(), None);
                let _ = layout.encode_key(&d.values(), Some(3));
            }
        }
    }
}

#[test]
fn refused_files_say_why() {
    let files = seed_files();
    let mut json: Value = serde_json::from_str(&files[0]).unwrap();
    json["max_len"] = Value::from(1u64 << 40);
    let e = rowkey::Layout::from_json(&json.to_string()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "it is not a layout rowkey writes: it allows keys over HBase's 32767-byte limit"
    );
    json["fields"] = Value::Array(vec![]);
    let e = rowkey::Layout::from_json(&json.to_string()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "it is not a layout rowkey writes: it has no fields"
    );
    let e = rowkey::Layout::from_json("[1, 2]").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("it is not the JSON of a rowkey layout"),
        "{e}"
    );
}
