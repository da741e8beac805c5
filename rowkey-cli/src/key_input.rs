//! Keys as people hand them to the CLI: arguments or a file (`-` for
//! standard input), one key a line as `toStringBinary` or hex, or what
//! `cbt read` prints (row keys as raw bytes). Every input is bounded: a
//! line, a file and a key count each have a stated maximum.

use crate::progress::{Progress, Units};
use indicatif::{ProgressBar, ProgressStyle};
use rowkey_core::key_text::{parse_binary, parse_hex};
use rowkey_core::HBASE_MAX_KEY_LEN;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// The most keys one command reads.
pub const MAX_KEYS: usize = 10_000_000;
/// The most bytes one command reads from a keys file.
pub const MAX_INPUT_BYTES: u64 = 1 << 30;
/// The longest line a key takes: HBase's longest key as `toStringBinary`
/// (four characters a byte at most), with room for line endings.
pub const MAX_LINE: usize = 4 * HBASE_MAX_KEY_LEN + 16;

/// How keys are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyForm {
    /// HBase's `toStringBinary` (`\x7F\xFF...`), as the HBase shell prints.
    Binary,
    /// Plain hex.
    Hex,
    /// What `cbt read` prints: each row after a line of 40 dashes, its key
    /// as raw bytes on the next line(s), then its cells.
    Cbt,
}

impl KeyForm {
    /// The form's name in errors.
    pub fn describe(self) -> &'static str {
        match self {
            KeyForm::Binary => "toStringBinary (\\xNN)",
            KeyForm::Hex => "hex",
            KeyForm::Cbt => "`cbt read` output",
        }
    }
}

/// One key from its text in `form` (not [`KeyForm::Cbt`], which is read
/// whole by [`cbt_keys`]).
pub fn parse_key(form: KeyForm, text: &str) -> Result<Vec<u8>, String> {
    let parsed = match form {
        KeyForm::Hex => parse_hex(text),
        _ => parse_binary(text),
    };
    parsed.map_err(|e| format!("key `{text}` is not {}: {e}", form.describe()))
}

/// Why a keys file was refused when it holds no key (empty, blank, or
/// not the form asked for): a command given keys to read and none found
/// says so, rather than print nothing and succeed.
pub fn no_keys(path: &Path, form: KeyForm) -> String {
    let name = if path == Path::new("-") {
        "standard input".to_string()
    } else {
        path.display().to_string()
    };
    match form {
        KeyForm::Cbt => format!(
            "{name} holds no keys: `cbt read` prints each row after a line of 40 dashes, and \
             there is none"
        ),
        _ => format!("{name} holds no keys"),
    }
}

/// A reader over `path`, `-` being standard input, with its length when
/// the file says it.
fn open(path: &Path) -> Result<(Box<dyn Read>, Option<u64>), String> {
    if path == Path::new("-") {
        return Ok((Box::new(std::io::stdin().lock()), None));
    }
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if meta.is_dir() {
        return Err(format!(
            "{} is a directory, not a keys file",
            path.display()
        ));
    }
    let len = meta.is_file().then_some(meta.len());
    if let Some(n) = len.filter(|n| *n > MAX_INPUT_BYTES) {
        return Err(format!(
            "{} is {n} bytes, over the {MAX_INPUT_BYTES} a keys file may have: \
             give a sample of the keys",
            path.display()
        ));
    }
    Ok((Box::new(file), len))
}

fn progress(len: Option<u64>) -> Progress {
    Progress::new("reading keys", Units::Bytes, len, || {
        let bar = match len {
            Some(n) => ProgressBar::new(n),
            None => ProgressBar::no_length(),
        };
        if let Ok(style) =
            ProgressStyle::with_template("reading keys {wide_bar} {bytes}/{total_bytes} {msg}")
        {
            bar.set_style(style);
        }
        bar
    })
}

/// Reads the keys in the file at `path` (`-`: standard input) in `form`;
/// blank lines are skipped. A progress bar runs on stderr when it is a
/// terminal, a plain line now and then when it is not. Over [`MAX_KEYS`] keys, [`MAX_INPUT_BYTES`] bytes or a line
/// over [`MAX_LINE`] is an error, before memory grows with it.
pub fn read_keys(path: &Path, form: KeyForm) -> Result<Vec<Vec<u8>>, String> {
    let (reader, len) = open(path)?;
    let bar = progress(len);
    let name = path.display();
    let mut input = BufReader::new(reader.take(MAX_INPUT_BYTES + 1));
    if form == KeyForm::Cbt {
        let keys = read_cbt(&mut input, MAX_KEYS, |n| bar.inc(n))
            .map_err(|e| e.message(&name.to_string()))?;
        bar.finish();
        return Ok(keys);
    }
    let mut keys = Vec::new();
    let mut line = Vec::new();
    let mut read = 0u64;
    for n in 1.. {
        line.clear();
        let got = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("cannot read {name}: {e}"))?;
        if got == 0 {
            break;
        }
        read += got as u64;
        if read > MAX_INPUT_BYTES {
            return Err(format!(
                "{name} is over {MAX_INPUT_BYTES} bytes: give a sample"
            ));
        }
        if line.len() > MAX_LINE {
            return Err(format!(
                "{name} line {n} is over {MAX_LINE} bytes, longer than any key's text"
            ));
        }
        bar.inc(got as u64);
        let text = std::str::from_utf8(&line)
            .map_err(|_| {
                format!(
                    "{name} line {n} is not text: keys are one a line as {}; for raw keys \
                     from `cbt read` use --cbt",
                    form.describe()
                )
            })?
            .trim_end_matches(['\n', '\r']);
        if text.trim().is_empty() {
            continue;
        }
        if keys.len() == MAX_KEYS {
            return Err(format!("{name} holds over {MAX_KEYS} keys: give a sample"));
        }
        keys.push(parse_key(form, text).map_err(|e| format!("{name} line {n}: {e}"))?);
        if keys.len() % 4096 == 0 {
            bar.set_message(format!("{} keys", keys.len()));
        }
    }
    bar.finish();
    Ok(keys)
}

/// The dashes `cbt read` prints before each row.
const ROW_RULE: &[u8] = b"----------------------------------------\n";

/// Whether `line` is one of the cell lines `cbt read` prints under a row:
/// two spaces, the column, ` @ ` and a time `2006/01/02-15:04:05.000000`.
fn is_cell_line(line: &[u8]) -> bool {
    let Some(body) = line.strip_prefix(b"  ") else {
        return false;
    };
    let Some(at) = body.windows(3).rposition(|w| w == b" @ ") else {
        return false;
    };
    let time = &body[at + 3..];
    let shape = b"dddd/dd/dd-dd:dd:dd.dddddd";
    !body.starts_with(b" ")
        && time.len() == shape.len()
        && time.iter().zip(shape).all(|(c, s)| {
            if *s == b'd' {
                c.is_ascii_digit()
            } else {
                c == s
            }
        })
}

/// The row keys in what `cbt read` prints. A key is printed as raw bytes
/// followed by a newline, so it may itself hold newlines: it runs from
/// the line after the dashes to the newline before the row's first cell
/// line.
///
/// ```
/// let out = b"----------------------------------------\n\x00k\ney\n  d:v  @ 2026/11/24-08:22:23.000000\n    \"1\"\n";
/// assert_eq!(rowkey_cli::key_input::cbt_keys(out), vec![b"\x00k\ney".to_vec()]);
/// ```
pub fn cbt_keys(out: &[u8]) -> Vec<Vec<u8>> {
    match read_cbt(&mut &out[..], usize::MAX, |_| {}) {
        Ok(keys) => keys,
        // A slice reads without error, and no count passes usize::MAX.
        Err(_) => unreachable!("reading a slice"),
    }
}

/// Why `cbt read` output was not read.
enum CbtError {
    Io(std::io::Error),
    TooBig,
    TooManyKeys(usize),
}

impl CbtError {
    fn message(&self, name: &str) -> String {
        match self {
            CbtError::Io(e) => format!("cannot read {name}: {e}"),
            CbtError::TooBig => format!("{name} is over {MAX_INPUT_BYTES} bytes: give a sample"),
            CbtError::TooManyKeys(max) => format!("{name} holds over {max} keys: give a sample"),
        }
    }
}

/// The row keys of `cbt read` output, read a line at a time (as
/// [`cbt_keys`] reads them): at most `max_keys` and [`MAX_INPUT_BYTES`],
/// checked as they are read, before memory grows past them. `read`
/// hears of the bytes read.
fn read_cbt(
    input: &mut impl BufRead,
    max_keys: usize,
    mut read: impl FnMut(u64),
) -> Result<Vec<Vec<u8>>, CbtError> {
    /// Where the reader is in `cbt read`'s output.
    enum At {
        /// Before the first row's dashes (cbt prints nothing there).
        Start,
        /// In a row's key: its lines so far.
        Key(Vec<u8>),
        /// In a row's cells, after its key.
        Cells,
    }
    let mut keys = Vec::new();
    let push = |keys: &mut Vec<Vec<u8>>, mut key: Vec<u8>| {
        if keys.len() == max_keys {
            return Err(CbtError::TooManyKeys(max_keys));
        }
        if key.last() == Some(&b'\n') {
            key.pop();
        }
        keys.push(key);
        Ok(())
    };
    let mut at = At::Start;
    let mut line = Vec::new();
    let mut total = 0u64;
    loop {
        line.clear();
        let got = input.read_until(b'\n', &mut line).map_err(CbtError::Io)?;
        if got == 0 {
            break;
        }
        total += got as u64;
        if total > MAX_INPUT_BYTES {
            return Err(CbtError::TooBig);
        }
        read(got as u64);
        if line == ROW_RULE {
            if let At::Key(key) = std::mem::replace(&mut at, At::Key(Vec::new())) {
                push(&mut keys, key)?;
            }
            continue;
        }
        match &mut at {
            At::Start | At::Cells => {}
            At::Key(key) => {
                let text = line.strip_suffix(b"\n").unwrap_or(&line);
                // A key's first line is its own, whatever it looks like.
                if !key.is_empty() && is_cell_line(text) {
                    let key = std::mem::take(key);
                    at = At::Cells;
                    push(&mut keys, key)?;
                } else {
                    key.extend_from_slice(&line);
                }
            }
        }
    }
    if let At::Key(key) = at {
        push(&mut keys, key)?;
    }
    Ok(keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of `cbt read` output with empty keys, without end; counts the
    /// bytes taken.
    struct EmptyRows {
        taken: u64,
    }

    impl Read for EmptyRows {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let row = [ROW_RULE, b"\n"].concat();
            let n = buf.len().min(4096);
            for (i, b) in buf[..n].iter_mut().enumerate() {
                *b = row[(self.taken as usize + i) % row.len()];
            }
            self.taken += n as u64;
            Ok(n)
        }
    }

    /// The cap on keys holds while they are read: 123 MB of empty rows
    /// once took 196 MB before the count was checked. An endless input
    /// stops one buffer past the cap's rows.
    #[test]
    fn the_key_cap_is_checked_as_rows_are_read() {
        let mut rows = EmptyRows { taken: 0 };
        let mut input = BufReader::with_capacity(4096, &mut rows);
        let e = match read_cbt(&mut input, 1000, |_| {}) {
            Err(e) => e.message("in"),
            Ok(keys) => panic!("{} keys", keys.len()),
        };
        assert_eq!(e, "in holds over 1000 keys: give a sample");
        let row_len = ROW_RULE.len() as u64 + 1;
        assert!(
            rows.taken <= 1001 * row_len + 8192,
            "{} bytes read",
            rows.taken
        );
    }

    #[test]
    fn cbt_rows_with_odd_keys() {
        let mut out = Vec::new();
        for key in [&b"plain"[..], b"\x00\x01", b"two\nlines", b"  d:v @ x"] {
            out.extend_from_slice(ROW_RULE);
            out.extend_from_slice(key);
            out.extend_from_slice(b"\n  d:v                                      @ 2026/11/24-08:22:23.000000\n    \"1\"\n");
            out.extend_from_slice(b"  d:w                                      @ 2026/11/24-08:22:23.000000\n    \"2\"\n");
        }
        assert_eq!(
            cbt_keys(&out),
            vec![
                b"plain".to_vec(),
                b"\x00\x01".to_vec(),
                b"two\nlines".to_vec(),
                b"  d:v @ x".to_vec()
            ]
        );
    }
}
