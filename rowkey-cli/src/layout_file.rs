//! The layout file every command reads: JSON of `Key::layout()`, refused
//! unread past [`MAX_LAYOUT_JSON_LEN`] bytes (a device or a huge file
//! never grows memory), then checked by [`Layout::from_json`].

use rowkey_core::layout::MAX_LAYOUT_JSON_LEN;
use rowkey_core::Layout;
use std::io::Read;
use std::path::Path;

/// Reads the layout at `path`; the error says which file and why.
pub fn load(path: &Path) -> Result<&'static Layout, String> {
    let at = |why: String| format!("layout {}: {why}", path.display());
    let file = std::fs::File::open(path).map_err(|e| at(format!("cannot read it: {e}")))?;
    let mut text = Vec::new();
    file.take(MAX_LAYOUT_JSON_LEN as u64 + 1)
        .read_to_end(&mut text)
        .map_err(|e| at(format!("cannot read it: {e}")))?;
    if text.len() > MAX_LAYOUT_JSON_LEN {
        return Err(at(format!(
            "over {MAX_LAYOUT_JSON_LEN} bytes, more than any layout takes"
        )));
    }
    let text = String::from_utf8(text).map_err(|_| at("it is not UTF-8 text".into()))?;
    Layout::from_json(&text).map_err(|e| at(e.to_string()))
}
