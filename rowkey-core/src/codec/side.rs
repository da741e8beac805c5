//! [`Side`]: which side of a value a pad fills. A leaf of its own: the
//! errors name it, and the codecs that pad import the errors.

use core::fmt;

/// Which side of a value a pad fills.
///
/// ```
/// assert_eq!(rowkey::codec::framing::Side::Left.to_string(), "left");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Side {
    /// Fill bytes before the value (Java's `StringUtils.leftPad`).
    Left,
    /// Fill bytes after the value (`StringUtils.rightPad`).
    Right,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Left => "left",
            Side::Right => "right",
        })
    }
}
