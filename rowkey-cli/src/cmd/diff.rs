//! `rowkey diff OLD.json NEW.json`: what changed between two layouts of
//! one table's keys, and what each change does to the rows stored under
//! the old one; with `--keys`, what it does to those stored keys.

use rowkey_cli::key_input::{self, KeyForm};
use rowkey_cli::layout_file::load;
use rowkey_core::layout::{diff as layout_diff, Verdict};
use rowkey_core::Layout;
use std::path::Path;

/// What `rowkey diff` was given.
pub struct DiffArgs<'a> {
    pub old: &'a Path,
    pub new: &'a Path,
    /// Sample keys stored under the old layout.
    pub keys: Option<&'a Path>,
    pub form: KeyForm,
    /// Compare layouts that share no field and no name.
    pub force: bool,
}

/// Prints the diff. `Ok(true)` when stored rows read as before under the
/// new layout, `Ok(false)` when they do not; `Err` for bad input.
pub fn diff(args: DiffArgs<'_>) -> Result<bool, String> {
    let old = load(args.old)?;
    let new = load(args.new)?;
    if !args.force && unrelated(old, new) {
        return Err(format!(
            "{} is {} and {} is {}: no field and no name in common, so these look like \
             layouts of different keys, not two versions of one (--force compares them anyway)",
            args.old.display(),
            old.name,
            args.new.display(),
            new.name
        ));
    }
    let mut d = layout_diff(old, new);
    if let Some(path) = args.keys {
        let keys = key_input::read_keys(path, args.form)?;
        if keys.is_empty() {
            return Err(format!("{} holds no keys", path.display()));
        }
        d = d.with_sample(old, new, &keys);
    }
    println!("{} -> {}", args.old.display(), args.new.display());
    print!("{d}");
    Ok(d.verdict() == Verdict::ReadsAsBefore)
}

/// Two layouts with different names and no field name in common: a
/// struct renamed with every field at once is rarer than a wrong file.
fn unrelated(old: &Layout, new: &Layout) -> bool {
    old.name != new.name
        && !old
            .fields
            .iter()
            .any(|f| new.fields.iter().any(|g| g.name == f.name))
}
