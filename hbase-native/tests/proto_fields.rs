//! Every wire message this crate defines (`src/proto/`) against HBase
//! 2.6.1's own `.proto` files, read from the `hbase-protocol-shaded` jar
//! the test harness resolves with Maven: each message and enum exists
//! there under the same name, each field has HBase's number, type and
//! label, and each enum value HBase's number. A wrong number would
//! otherwise be a silent misread of the server's answers.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use syn::{Fields, Item, Type};

/// A field as a `.proto` file declares it.
#[derive(Debug, Clone, PartialEq)]
struct ProtoField {
    label: String,
    ty: String,
    number: u32,
}

/// What HBase's `.proto` files declare: message fields and enum values,
/// by `Message.Nested` path.
#[derive(Default, Debug)]
struct Declared {
    fields: HashMap<String, HashMap<String, ProtoField>>,
    values: HashMap<String, HashMap<String, i32>>,
}

/// The `.proto` files of HBase's protocol jars: `hbase-protocol` (whose
/// `Authentication.proto` the shaded jar lacks), then
/// `hbase-protocol-shaded`, whose definitions win where both have one.
fn hbase_protos() -> Vec<(String, String)> {
    let mut out = jar_protos("hbase-protocol-2.6.1.jar");
    out.extend(jar_protos("hbase-protocol-shaded-2.6.1.jar"));
    out
}

/// One jar's `.proto` files, unpacked into a temporary directory.
fn jar_protos(name: &str) -> Vec<(String, String)> {
    let classpath = rowkey_fixtures::hbase::classpath().expect("the harness's Maven classpath");
    let jar = classpath
        .split(':')
        .find(|p| p.ends_with(&format!("/{name}")))
        .unwrap_or_else(|| panic!("{name} on the harness's classpath"));
    let dir =
        std::env::temp_dir().join(format!("hbase-native-protos-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let status = Command::new("jar")
        .arg("xf")
        .arg(jar)
        .current_dir(&dir)
        .status()
        .expect("the JDK's `jar` tool");
    assert!(status.success(), "jar xf {jar}");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "proto") {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            out.push((name, std::fs::read_to_string(&path).unwrap()));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.len() >= 30, "only {} .proto files in {jar}", out.len());
    out
}

/// Reads messages, enums, fields and values out of proto2 text: enough
/// of the grammar for HBase's files (nested blocks, options, comments).
fn parse(text: &str, declared: &mut Declared) {
    // Comments out, then one statement per `;`, `{` or `}`.
    let mut clean = String::new();
    let mut block = false;
    for line in text.lines() {
        let mut line = line.to_owned();
        if block {
            match line.find("*/") {
                Some(i) => {
                    line = line[i + 2..].to_owned();
                    block = false;
                }
                None => continue,
            }
        }
        while let Some(i) = line.find("/*") {
            match line[i..].find("*/") {
                Some(j) => line.replace_range(i..i + j + 2, " "),
                None => {
                    line.truncate(i);
                    block = true;
                }
            }
        }
        if let Some(i) = line.find("//") {
            line.truncate(i);
        }
        clean.push_str(&line);
        clean.push('\n');
    }
    let mut stack: Vec<(String, bool)> = Vec::new(); // (name, is_enum)
    let mut statement = String::new();
    for c in clean.chars() {
        match c {
            '{' => {
                let words: Vec<&str> = statement.split_whitespace().collect();
                match words.as_slice() {
                    ["message", name] => stack.push((name.to_string(), false)),
                    ["enum", name] => stack.push((name.to_string(), true)),
                    _ => stack.push((String::new(), false)), // service, oneof, option block
                }
                statement.clear();
            }
            '}' => {
                stack.pop();
                statement.clear();
            }
            ';' => {
                let path: Vec<&str> = stack.iter().map(|(n, _)| n.as_str()).collect();
                let path = path.join(".");
                let is_enum = stack.last().is_some_and(|(_, e)| *e);
                let s = statement.split('[').next().unwrap().replace('=', " = ");
                let words: Vec<&str> = s.split_whitespace().collect();
                if is_enum {
                    if let [name, "=", number] = words.as_slice() {
                        declared
                            .values
                            .entry(path)
                            .or_default()
                            .insert(name.to_string(), number.parse().unwrap());
                    }
                } else if let [label @ ("optional" | "required" | "repeated"), ty, name, "=", number] =
                    words.as_slice()
                {
                    declared.fields.entry(path).or_default().insert(
                        snake(name),
                        ProtoField {
                            label: label.to_string(),
                            ty: ty.rsplit('.').next().unwrap().to_string(),
                            number: number.parse().unwrap(),
                        },
                    );
                }
                statement.clear();
            }
            _ => statement.push(c),
        }
    }
}

/// `regionActionResult` and `inKey` as prost names them.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `mutation_proto` as the message it nests in: `MutationProto`.
fn camel(name: &str) -> String {
    name.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// `DELETE_ONE_VERSION` as a Rust variant: `DeleteOneVersion`.
fn variant(name: &str) -> String {
    camel(&name.to_ascii_lowercase())
}

/// The last identifier of a field's type, inside `Option` and `Vec`.
fn type_name(ty: &Type) -> String {
    let Type::Path(path) = ty else {
        return String::new();
    };
    let last = path.path.segments.last().unwrap();
    if let syn::PathArguments::AngleBracketed(args) = &last.arguments {
        if let Some(syn::GenericArgument::Type(inner)) = args.args.first() {
            if matches!(last.ident.to_string().as_str(), "Option" | "Vec") {
                return type_name(inner);
            }
        }
    }
    last.ident.to_string()
}

/// Checks the items of one module (nested messages' modules included),
/// collecting every disagreement.
fn check_items(
    items: &[Item],
    parent: &str,
    declared: &Declared,
    problems: &mut Vec<String>,
    checked: &mut usize,
) {
    for item in items {
        match item {
            Item::Mod(m) => {
                if let Some((_, items)) = &m.content {
                    let path = if parent.is_empty() {
                        camel(&m.ident.to_string())
                    } else {
                        format!("{parent}.{}", camel(&m.ident.to_string()))
                    };
                    check_items(items, &path, declared, problems, checked);
                }
            }
            Item::Struct(s) => {
                let name = if parent.is_empty() {
                    s.ident.to_string()
                } else {
                    format!("{parent}.{}", s.ident)
                };
                let Some(fields) = declared.fields.get(&name).or_else(|| {
                    // A message of no fields has no entry.
                    matches!(&s.fields, Fields::Named(f) if f.named.is_empty()).then_some(&EMPTY)
                }) else {
                    problems.push(format!("message {name}: not in HBase's .proto files"));
                    continue;
                };
                let Fields::Named(named) = &s.fields else {
                    continue;
                };
                for field in &named.named {
                    let ident = field.ident.as_ref().unwrap().to_string();
                    let ident = ident.trim_start_matches("r#").to_owned();
                    let attr = field
                        .attrs
                        .iter()
                        .find(|a| a.path().is_ident("prost"))
                        .unwrap_or_else(|| panic!("{name}.{ident} has no #[prost]"));
                    let tokens = attr.meta.require_list().unwrap().tokens.to_string();
                    let parts: Vec<String> =
                        tokens.split(',').map(|p| p.replace(' ', "")).collect();
                    let mut kind = String::new();
                    let mut label = String::new();
                    let mut tag = 0u32;
                    for part in &parts {
                        match part.split_once('=') {
                            Some(("tag", v)) => tag = v.trim_matches('"').parse().unwrap(),
                            Some(("bytes", _)) => kind = "bytes".into(),
                            Some(("enumeration", v)) => {
                                kind = v.trim_matches('"').rsplit("::").next().unwrap().to_owned()
                            }
                            Some(_) => {}
                            None if matches!(
                                part.as_str(),
                                "optional" | "required" | "repeated"
                            ) =>
                            {
                                label = part.clone()
                            }
                            None if part == "message" => kind = type_name(&field.ty),
                            None => kind = part.clone(),
                        }
                    }
                    *checked += 1;
                    match fields.get(&ident) {
                        None => problems
                            .push(format!("{name}.{ident}: no such field in HBase's {name}")),
                        Some(p) => {
                            let ours = ProtoField {
                                label: label.clone(),
                                ty: kind.clone(),
                                number: tag,
                            };
                            if *p != ours {
                                problems.push(format!(
                                    "{name}.{ident}: HBase has {p:?}, here {ours:?}"
                                ));
                            }
                        }
                    }
                }
            }
            Item::Enum(e) => {
                let name = if parent.is_empty() {
                    e.ident.to_string()
                } else {
                    format!("{parent}.{}", e.ident)
                };
                let Some(values) = declared.values.get(&name) else {
                    problems.push(format!("enum {name}: not in HBase's .proto files"));
                    continue;
                };
                let by_variant: HashMap<String, i32> =
                    values.iter().map(|(k, v)| (variant(k), *v)).collect();
                for v in &e.variants {
                    let (_, expr) = v.discriminant.as_ref().expect("explicit discriminants");
                    let ours: i32 = quote::quote!(#expr)
                        .to_string()
                        .replace(' ', "")
                        .parse()
                        .unwrap();
                    *checked += 1;
                    match by_variant.get(&v.ident.to_string()) {
                        Some(&n) if n == ours => {}
                        other => problems.push(format!(
                            "{name}::{}: HBase has {other:?}, here {ours}",
                            v.ident
                        )),
                    }
                }
            }
            _ => {}
        }
    }
}

static EMPTY: std::sync::LazyLock<HashMap<String, ProtoField>> =
    std::sync::LazyLock::new(HashMap::new);

#[test]
fn every_wire_field_has_hbases_name_number_type_and_label() {
    let mut declared = Declared::default();
    for (_, text) in hbase_protos() {
        parse(&text, &mut declared);
    }
    assert!(declared
        .fields
        .contains_key("MutationProto.ColumnValue.QualifierValue"));
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/proto");
    let mut problems = Vec::new();
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|n| n == "mod.rs") {
            continue;
        }
        let file = syn::parse_file(&std::fs::read_to_string(&path).unwrap()).unwrap();
        check_items(&file.items, "", &declared, &mut problems, &mut checked);
    }
    assert!(checked > 150, "only {checked} fields and values checked");
    assert!(
        problems.is_empty(),
        "{} disagreements:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_parser_reads_nested_messages_and_camel_case_fields() {
    let mut d = Declared::default();
    parse(
        "message A { /* x */ optional uint32 a = 1; // c\n message B { repeated bytes regionAction = 3 [deprecated=true]; }\n enum E { X_Y = 2; } }",
        &mut d,
    );
    assert_eq!(d.fields["A"]["a"].number, 1);
    assert_eq!(d.fields["A.B"]["region_action"].label, "repeated");
    assert_eq!(d.values["A.E"]["X_Y"], 2);
    assert_eq!(variant("X_Y"), "XY");
}
