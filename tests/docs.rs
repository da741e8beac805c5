//! The docs a reader follows say one thing: the field attribute table in
//! rustdoc (docs/attributes.md, included by src/lib.rs) is README.md's.

#[test]
fn the_attribute_table_is_the_readmes() {
    let root = env!("CARGO_MANIFEST_DIR");
    let read = |path: &str| std::fs::read_to_string(format!("{root}/{path}")).unwrap();
    let table = read("docs/attributes.md");
    let readme = read("README.md");
    assert!(
        table.lines().count() > 10,
        "docs/attributes.md is the attribute table"
    );
    assert!(
        readme.contains(&table),
        "README.md's attribute table differs from docs/attributes.md (rustdoc's): keep them one text"
    );
    // Every attribute the derive takes has a row.
    for attribute in [
        "#[text",
        "#[pad(",
        "#[max_len(",
        "#[reverse",
        "#[desc_ts]",
        "#[desc]",
        "#[salt(",
        "#[hash_prefix(",
    ] {
        assert!(table.contains(attribute), "no row for {attribute}");
    }
}
