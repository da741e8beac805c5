//! The lengths a derived layout computes at compile time from its fields:
//! each field's offset, the key's most bytes and its fixed length. Const
//! functions, so the derive emits one array of fields and no per-field
//! constants (each constant is a body the compiler checks and evaluates).

use super::FieldLayout;

/// `a + b` for optional lengths: `None` (a variable length) stays `None`.
pub const fn add_fixed(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.saturating_add(b)),
        _ => None,
    }
}

/// `fields` with each one's offset filled in: after `prefix_len` bytes of
/// salt or hash prefix, each field starts where the one before ends (and
/// its `sep_len`-byte separator), while every field before it is
/// fixed-width; `None` from the first field after a variable one.
pub const fn with_offsets<const F: usize>(
    mut fields: [FieldLayout; F],
    prefix_len: usize,
    sep_len: usize,
) -> [FieldLayout; F] {
    let mut offset = Some(prefix_len);
    let mut i = 0;
    while i < F {
        fields[i].offset = offset;
        offset = add_fixed(add_fixed(offset, fields[i].fixed_len), Some(sep_len));
        i += 1;
    }
    fields
}

/// The most bytes a key takes: `fixed` (prefix and separators) plus each
/// field's most, saturating (a hand-written part may claim a huge
/// `MAX_LEN`, which the layout's HBase assertion then reports).
pub const fn max_len(fields: &[FieldLayout], fixed: usize) -> usize {
    let mut n = fixed;
    let mut i = 0;
    while i < fields.len() {
        n = n.saturating_add(fields[i].max_len);
        i += 1;
    }
    n
}

/// The length of every key when every field is fixed-width: `fixed`
/// (prefix and separators) plus each field's.
pub const fn fixed_len(fields: &[FieldLayout], fixed: usize) -> Option<usize> {
    let mut n = Some(fixed);
    let mut i = 0;
    while i < fields.len() {
        n = add_fixed(n, fields[i].fixed_len);
        i += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{FieldCodec, Order};

    fn field(max_len: usize, fixed_len: Option<usize>) -> FieldLayout {
        FieldLayout {
            name: "f",
            rust_type: "u32",
            value: crate::ValueKind::Int {
                bytes: 4,
                signed: false,
            },
            codec: FieldCodec::Binary,
            offset: None,
            max_len,
            fixed_len,
            order: Order::Ascending,
            optional: false,
            desc: false,
        }
    }

    #[test]
    fn offsets_stop_at_the_first_variable_field() {
        let f = with_offsets([field(4, Some(4)), field(8, None), field(2, Some(2))], 1, 1);
        let offsets: Vec<_> = f.iter().map(|f| f.offset).collect();
        assert_eq!(offsets, [Some(1), Some(6), None]);
        assert_eq!(max_len(&f, 1 + 2), 17);
        assert_eq!(fixed_len(&f, 1 + 2), None);
        let g = [field(4, Some(4)), field(2, Some(2))];
        assert_eq!(fixed_len(&g, 3), Some(9));
        assert_eq!(max_len(&[field(usize::MAX, None)], 3), usize::MAX);
    }
}
