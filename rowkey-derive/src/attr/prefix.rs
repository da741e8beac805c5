//! Reads `#[salt(..)]` and `#[hash_prefix(..)]`: the attributes that put a
//! computed prefix in front of the key. Rules about them live in
//! `check/prefix.rs`.

use super::{ident_of, int_value, Spanned};
use crate::suggest;
use proc_macro2::Span;
use syn::spanned::Spanned as _;
use syn::{Attribute, Expr, ExprLit, ExprRange, ExprUnary, Ident, Lit, Path, RangeLimits, UnOp};

/// The hash behind a salt.
#[derive(Clone)]
pub enum HashChoice {
    Default,
    Java,
    Phoenix,
    Md5,
    /// `hash = path::to::fn`, a `fn(&Self) -> u32`.
    Custom(Path),
}

/// `#[salt]` or `#[salt(buckets = N, ..)]`.
#[derive(Default)]
pub struct SaltAttr {
    pub buckets: Option<Spanned<usize>>,
    pub binary: Option<Span>,
    pub hash: Option<Spanned<HashChoice>>,
    pub group_by: Option<Ident>,
    pub per_group: Option<Spanned<usize>>,
    /// `range = LO..=HI` of an integer `group_by` field.
    pub range: Option<Spanned<(i128, i128)>>,
    /// `group = path::to::fn`, mapping the `group_by` field to its group.
    pub group: Option<Path>,
    /// `groups = K`, with `group`.
    pub groups: Option<Spanned<usize>>,
}

impl SaltAttr {
    /// Whether anything besides the bare `#[salt]` marker was written.
    pub fn has_options(&self) -> bool {
        self.buckets.is_some()
            || self.binary.is_some()
            || self.hash.is_some()
            || self.group_by.is_some()
            || self.per_group.is_some()
            || self.range.is_some()
            || self.group.is_some()
            || self.groups.is_some()
    }
}

/// The hash behind a hash prefix.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum PrefixAlgo {
    Md5,
    Default,
}

/// `#[hash_prefix(len = N, algo = md5, binary)]`.
pub struct HashPrefixAttr {
    pub len: Option<Spanned<usize>>,
    pub binary: Option<Span>,
    pub algo: Option<Spanned<PrefixAlgo>>,
}

const SALT_OPTIONS: &[&str] = &[
    "buckets",
    "binary",
    "hash",
    "group_by",
    "per_group",
    "range",
    "group",
    "groups",
];

pub fn parse_salt(attr: &Attribute) -> syn::Result<SaltAttr> {
    let mut salt = SaltAttr::default();
    if let syn::Meta::Path(_) = attr.meta {
        return Ok(salt);
    }
    attr.parse_nested_meta(|meta| {
        let name = ident_of(&meta);
        let dup = || meta.error(format!("`{name}` is given twice in #[salt(..)]"));
        match name.as_str() {
            "buckets" if salt.buckets.is_some() => return Err(dup()),
            "buckets" => salt.buckets = Some(int_value(&meta)?),
            "binary" => salt.binary = Some(meta.path.span()),
            "hash" => {
                let path: Path = meta.value()?.parse()?;
                let choice = match path.get_ident().map(|i| i.to_string()).as_deref() {
                    Some("default") => HashChoice::Default,
                    Some("java") => HashChoice::Java,
                    Some("phoenix") => HashChoice::Phoenix,
                    Some("md5") => HashChoice::Md5,
                    _ => HashChoice::Custom(path.clone()),
                };
                salt.hash = Some(Spanned::new(choice, path.span()));
            }
            "group_by" => salt.group_by = Some(meta.value()?.parse()?),
            "per_group" => salt.per_group = Some(int_value(&meta)?),
            "range" => {
                let range: ExprRange = meta.value()?.parse()?;
                salt.range = Some(Spanned::new(range_bounds(&range)?, range.span()));
            }
            "group" => salt.group = Some(meta.value()?.parse()?),
            "groups" => salt.groups = Some(int_value(&meta)?),
            other => {
                return Err(meta.error(format!(
                    "unknown option `{other}` in #[salt(..)]; {}",
                    suggest::hint(other, SALT_OPTIONS)
                )))
            }
        }
        Ok(())
    })?;
    Ok(salt)
}

/// `LO..=HI` or `LO..HI` with integer literal bounds, as inclusive bounds.
fn range_bounds(range: &ExprRange) -> syn::Result<(i128, i128)> {
    let err = || {
        syn::Error::new(
            range.span(),
            "write the group range with integer literals, such as range = 1..=12",
        )
    };
    let lo = range
        .start
        .as_deref()
        .and_then(int_literal)
        .ok_or_else(err)?;
    let hi = range.end.as_deref().and_then(int_literal).ok_or_else(err)?;
    let hi = match range.limits {
        RangeLimits::Closed(_) => hi,
        RangeLimits::HalfOpen(_) => hi - 1,
    };
    if hi < lo {
        return Err(syn::Error::new(
            range.span(),
            "the group range is empty; write it as LO..=HI with LO <= HI",
        ));
    }
    Ok((lo, hi))
}

/// An integer literal, possibly negated or parenthesised (`3`, `-1`,
/// `(2)`), as written in ranges and enum discriminants.
pub fn int_literal(expr: &Expr) -> Option<i128> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Int(i), ..
        }) => i.base10_parse().ok(),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => int_literal(expr).map(|n: i128| -n),
        Expr::Group(g) => int_literal(&g.expr),
        Expr::Paren(p) => int_literal(&p.expr),
        _ => None,
    }
}

pub fn parse_hash_prefix(attr: &Attribute) -> syn::Result<HashPrefixAttr> {
    let mut hp = HashPrefixAttr {
        len: None,
        binary: None,
        algo: None,
    };
    let needs_len = || {
        syn::Error::new_spanned(
            attr,
            "#[hash_prefix] needs a length: #[hash_prefix(len = 6)] keeps 6 hex characters \
             of the field's md5",
        )
    };
    if let syn::Meta::Path(_) = attr.meta {
        return Err(needs_len());
    }
    attr.parse_nested_meta(|meta| {
        let name = ident_of(&meta);
        match name.as_str() {
            "len" => hp.len = Some(int_value(&meta)?),
            "binary" => hp.binary = Some(meta.path.span()),
            "algo" => {
                let ident: Ident = meta.value()?.parse()?;
                let algo = match ident.to_string().as_str() {
                    "md5" => PrefixAlgo::Md5,
                    "default" => PrefixAlgo::Default,
                    _ => {
                        return Err(syn::Error::new(
                            ident.span(),
                            "algo is `md5` (the default, as Java's md5_hex prefixes) or \
                             `default` (rowkey's 32-bit hash)",
                        ))
                    }
                };
                hp.algo = Some(Spanned::new(algo, ident.span()));
            }
            other => {
                return Err(meta.error(format!(
                    "unknown option `{other}` in #[hash_prefix(..)]; {}",
                    suggest::hint(other, &["len", "algo", "binary"])
                )))
            }
        }
        Ok(())
    })?;
    if hp.len.is_none() {
        return Err(needs_len());
    }
    Ok(hp)
}
