//! Exports a seed layout (or an IoT one: `ReadingKey`, `Invoice`) as the JSON `rowkey --layout` reads:
//! `serde_json::to_string_pretty(&Key::layout())` (rowkey's `serde`
//! feature). In your own crate it is the same one line on your key type.
//!
//! Run: `cargo run -p rowkey-cli --example export_layout -- OrderStatus > order_status.json`
//! (no argument lists the layouts; `--all DIR` writes every one).

use rowkey_fixtures::layouts::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut layouts = seed_layouts();
    layouts.extend(iot_layouts());
    match args.as_slice() {
        [flag, dir] if flag == "--all" => {
            for l in layouts {
                let path = std::path::Path::new(dir).join(format!("{}.json", l.name));
                std::fs::write(&path, serde_json::to_string_pretty(l)? + "\n")?;
                println!("{}", path.display());
            }
        }
        [name] => {
            let l = layouts
                .into_iter()
                .find(|l| l.name == name)
                .ok_or_else(|| format!("no seed layout {name}"))?;
            println!("{}", serde_json::to_string_pretty(l)?);
        }
        _ => {
            let names: Vec<&str> = layouts.iter().map(|l| l.name).collect();
            eprintln!(
                "usage: export_layout NAME | --all DIR\nlayouts: {}",
                names.join(", ")
            );
        }
    }
    Ok(())
}
