//! Where a re-key records how far it got, so that a re-key stopped by a
//! crash resumes after the last batch it finished.

use rowkey_core::key_text::{hex, parse_hex};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

/// How far a re-key got: saved before each batch is written (with
/// [`writing`](Self::writing)) and after (new rows, then index rows, then,
/// in place, the old rows deleted).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RekeyCheckpoint {
    /// The last source key of the last finished batch: the next batch
    /// reads after it.
    pub last_key: Option<Vec<u8>>,
    /// Source rows read.
    pub read: u64,
    /// New rows written.
    pub written: u64,
    /// Index rows written.
    pub indexed: u64,
    /// Old rows the mapping dropped.
    pub dropped: u64,
    /// Rows that are not keys of the old layout, left as they are (in
    /// place: the new rows among them).
    pub not_old: u64,
    /// Every row was read: the re-key is done.
    pub done: bool,
    /// The last source key whose new row may be in the target already,
    /// written by a run that stopped: saved before a batch is written (its
    /// last key), `None` once every batch up to it is done. The counts do
    /// not include those rows. A run that resumes takes a row of the
    /// target whose new key came from a source key up to this one, and
    /// which is equal in every cell to the row it would write, for the
    /// stopped run's own write rather than a collision.
    pub writing: Option<Vec<u8>>,
}

impl RekeyCheckpoint {
    /// One line of text: `done read written indexed dropped not_old
    /// last_key_hex writing_hex` (`-` for none).
    pub fn to_line(&self) -> String {
        format!(
            "{} {} {} {} {} {} {} {}",
            u8::from(self.done),
            self.read,
            self.written,
            self.indexed,
            self.dropped,
            self.not_old,
            self.last_key.as_deref().map_or("-".to_string(), hex),
            self.writing.as_deref().map_or("-".to_string(), hex)
        )
    }

    /// Reads [`to_line`](Self::to_line)'s text back (and the 7 fields of
    /// a line saved before `writing` was kept: between batches).
    ///
    /// ```
    /// use rowkey::store::RekeyCheckpoint;
    /// let c = RekeyCheckpoint { last_key: Some(vec![0, 0xFF]), read: 3, written: 2, ..Default::default() };
    /// assert_eq!(RekeyCheckpoint::from_line(&c.to_line()), Ok(c.clone()));
    /// let writing = RekeyCheckpoint { writing: Some(vec![1]), ..c };
    /// assert_eq!(RekeyCheckpoint::from_line(&writing.to_line()), Ok(writing));
    /// assert_eq!(RekeyCheckpoint::from_line("1 3 2 0 0 0 -").unwrap().writing, None);
    /// assert!(RekeyCheckpoint::from_line("1 2").is_err());
    /// ```
    pub fn from_line(line: &str) -> Result<RekeyCheckpoint, String> {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let (done, read, written, indexed, dropped, not_old, key, writing) = match parts[..] {
            [a, b, c, d, e, f, g] => (a, b, c, d, e, f, g, "-"),
            [a, b, c, d, e, f, g, h] => (a, b, c, d, e, f, g, h),
            _ => return Err(format!("`{line}` is not a re-key checkpoint (8 fields)")),
        };
        let key_of = |k: &str| match k {
            "-" => Ok(None),
            k => parse_hex(k)
                .map(Some)
                .map_err(|e| format!("checkpoint key `{k}`: {e}")),
        };
        let n = |s: &str| {
            s.parse::<u64>()
                .map_err(|_| format!("`{s}` in checkpoint `{line}` is not a count"))
        };
        Ok(RekeyCheckpoint {
            done: n(done)? == 1,
            read: n(read)?,
            written: n(written)?,
            indexed: n(indexed)?,
            dropped: n(dropped)?,
            not_old: n(not_old)?,
            last_key: key_of(key)?,
            writing: key_of(writing)?,
        })
    }
}

/// Where checkpoints are kept.
pub trait Checkpoint: Send + Sync {
    /// The last checkpoint saved, if any.
    fn load(&self) -> Result<Option<RekeyCheckpoint>, String>;
    /// Saves `c`, replacing the last one whole (a crash while saving
    /// leaves the last one).
    fn save(&self, c: &RekeyCheckpoint) -> Result<(), String>;
}

/// Checkpoints in memory, shared by clones: for tests, and for re-keys
/// that restart in the same process.
///
/// ```
/// use rowkey::store::{Checkpoint, MemCheckpoint, RekeyCheckpoint};
/// let c = MemCheckpoint::default();
/// c.clone().save(&RekeyCheckpoint { done: true, ..Default::default() }).unwrap();
/// assert!(c.load().unwrap().unwrap().done);
/// ```
#[derive(Debug, Clone, Default)]
pub struct MemCheckpoint(Arc<Mutex<Option<RekeyCheckpoint>>>);

impl Checkpoint for MemCheckpoint {
    fn load(&self) -> Result<Option<RekeyCheckpoint>, String> {
        Ok(self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone())
    }

    fn save(&self, c: &RekeyCheckpoint) -> Result<(), String> {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(c.clone());
        Ok(())
    }
}

/// Checkpoints in a file: one line, written to `FILE.tmp` and renamed
/// over `FILE`, so a crash leaves the old line or the new, never half.
///
/// ```
/// use rowkey::store::{Checkpoint, FileCheckpoint, RekeyCheckpoint};
/// let path = std::env::temp_dir().join(format!("rowkey-doc-ckpt-{}", std::process::id()));
/// let file = FileCheckpoint::new(&path);
/// assert_eq!(file.load()?, None);
/// let c = RekeyCheckpoint { read: 10, ..Default::default() };
/// file.save(&c)?;
/// assert_eq!(file.load()?, Some(c));
/// # std::fs::remove_file(&path).unwrap();
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone)]
pub struct FileCheckpoint {
    path: PathBuf,
}

impl FileCheckpoint {
    /// Checkpoints in the file at `path` (none until the first save).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        FileCheckpoint { path: path.into() }
    }
}

impl Checkpoint for FileCheckpoint {
    fn load(&self) -> Result<Option<RekeyCheckpoint>, String> {
        match std::fs::read_to_string(&self.path) {
            Ok(text) => RekeyCheckpoint::from_line(text.trim())
                .map(Some)
                .map_err(|e| format!("{}: {e}", self.path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("cannot read {}: {e}", self.path.display())),
        }
    }

    fn save(&self, c: &RekeyCheckpoint) -> Result<(), String> {
        let mut tmp = self.path.clone().into_os_string();
        tmp.push(".tmp");
        std::fs::write(&tmp, c.to_line() + "\n")
            .and_then(|()| std::fs::rename(&tmp, &self.path))
            .map_err(|e| format!("cannot save checkpoint {}: {e}", self.path.display()))
    }
}
