//! `#[rowkey(index_of = Main)]`: the key this one indexes.

use super::set_once;
use crate::ctxt::Ctxt;
use syn::meta::ParseNestedMeta;
use syn::Type;

/// Reads `index_of = Type` (a type, such as `Reading` or `Spend<'a>`).
pub(super) fn parse_index_of(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    slot: &mut Option<Type>,
) -> syn::Result<()> {
    let ty: Type = meta.value()?.parse().map_err(|e| {
        syn::Error::new(
            e.span(),
            "write the main key's type: #[rowkey(index_of = Reading)]",
        )
    })?;
    set_once(cx, slot, ty, meta, "index_of");
    Ok(())
}
