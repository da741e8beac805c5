//! Code for the key's prefix (`#[salt]` bucket or `#[hash_prefix]`): the
//! plan constant, and the hooks encode and decode call around the fields.
//! The bucket and hash arithmetic is `rowkey_core::salt`'s.

use crate::attr::{HashChoice, PrefixAlgo};
use crate::model::{GroupKind, KeyModel, PrefixModel, SaltModel};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned, ToTokens};

/// `const __PREFIX_LEN` and the plan constant (`__SALT` / `__HASH_PREFIX`).
pub fn consts(model: &KeyModel) -> TokenStream {
    // Core's rule of the prefix's length, read from the plan constant.
    let len = match &model.prefix {
        None => quote!(0),
        Some(PrefixModel::Salt(_)) => quote!(__SALT.prefix_len()),
        Some(PrefixModel::HashPrefix(_)) => quote!(__HASH_PREFIX.prefix_len()),
    };
    let sep = match model.separator {
        Some(b) => quote!(::core::option::Option::Some(#b)),
        None => quote!(::core::option::Option::None),
    };
    let plan = match &model.prefix {
        None => quote!(),
        Some(PrefixModel::Salt(s)) => {
            let buckets = s.buckets;
            let format = if s.binary {
                quote!(__rk::BucketFormat::Binary)
            } else {
                quote!(__rk::BucketFormat::Text)
            };
            let hash = match &s.hash {
                HashChoice::Default => quote!(__rk::SaltHash::Default),
                HashChoice::Java => quote!(__rk::SaltHash::Java),
                HashChoice::Phoenix => quote!(__rk::SaltHash::Phoenix),
                HashChoice::Md5 => quote!(__rk::SaltHash::Md5),
                HashChoice::Custom(p) => {
                    let name = p.to_token_stream().to_string().replace(' ', "");
                    quote!(__rk::SaltHash::Custom(#name))
                }
            };
            let inputs = s.inputs.iter().map(|&i| model.fields[i].name());
            let groups = match &s.groups {
                None => quote!(::core::option::Option::None),
                Some(g) => {
                    let field = model.fields[g.field].name();
                    let per = g.per_group;
                    let count = match g.kind.groups() {
                        Some(n) => quote!(#n),
                        None => {
                            let ty = crate::ty::with_static_lifetimes(model.fields[g.field].ty);
                            quote_spanned!(s.span=> <#ty as __rk::KeyGroup>::GROUPS)
                        }
                    };
                    let rule = group_rule(&g.kind);
                    quote!(::core::option::Option::Some(__rk::BucketGroups {
                        field: #field, groups: #count, per_group: #per, rule: #rule,
                    }))
                }
            };
            let check = enum_groups_check(model, s);
            quote! {
                const __SALT: __rk::SaltPlan = __rk::SaltPlan {
                    buckets: #buckets,
                    format: #format,
                    separator: #sep,
                    hash: #hash,
                    inputs: &[#(#inputs),*],
                    groups: #groups,
                };
                #check
            }
        }
        Some(PrefixModel::HashPrefix(h)) => {
            let hp_len = h.len;
            let binary = h.binary;
            let field = model.fields[h.field].name();
            let hash = match h.algo {
                PrefixAlgo::Md5 => quote!(__rk::PrefixHash::Md5),
                PrefixAlgo::Default => quote!(__rk::PrefixHash::Default),
            };
            quote! {
                const __HASH_PREFIX: __rk::HashPrefixPlan = __rk::HashPrefixPlan {
                    len: #hp_len,
                    binary: #binary,
                    hash: #hash,
                    field: #field,
                    separator: #sep,
                };
            }
        }
    };
    quote! {
        const __PREFIX_LEN: usize = #len;
        #plan
    }
}

/// The layout's `GroupRule` of a `group_by`.
fn group_rule(kind: &GroupKind) -> TokenStream {
    match kind {
        GroupKind::Enum => quote!(__rk::GroupRule::Enum),
        GroupKind::Range { lo, hi } => {
            let (lo, hi) = (
                proc_macro2::Literal::i128_suffixed(*lo),
                proc_macro2::Literal::i128_suffixed(*hi),
            );
            quote!(__rk::GroupRule::Range { lo: #lo, hi: #hi })
        }
        GroupKind::Func { path, .. } => {
            let name = path.to_token_stream().to_string().replace(' ', "");
            quote!(__rk::GroupRule::Func(#name))
        }
    }
}

/// For an enum `group_by` the group count is the enum's: checked when the
/// constant is evaluated, spanned at the `#[salt(..)]`.
fn enum_groups_check(model: &KeyModel, s: &SaltModel) -> TokenStream {
    let Some(g) = &s.groups else { return quote!() };
    if !matches!(g.kind, GroupKind::Enum) {
        return quote!();
    }
    let ty = crate::ty::with_static_lifetimes(model.fields[g.field].ty);
    let per = g.per_group;
    let buckets = s.buckets;
    let msg = format!(
        "{}: salt buckets = {buckets} must equal the group_by enum's variant count times per_group = {per}",
        model.ident
    );
    quote_spanned! {s.span=>
        const _: () = ::core::assert!(<#ty as __rk::KeyGroup>::GROUPS as u64 * #per as u64 == #buckets as u64, #msg);
    }
}

/// The layout's `prefix` field.
pub fn layout_prefix(model: &KeyModel) -> TokenStream {
    match &model.prefix {
        None => quote!(::core::option::Option::None),
        Some(PrefixModel::Salt(_)) => {
            quote!(::core::option::Option::Some(__rk::KeyPrefix::Salt(__SALT)))
        }
        Some(PrefixModel::HashPrefix(_)) => {
            quote!(::core::option::Option::Some(__rk::KeyPrefix::HashPrefix(
                __HASH_PREFIX
            )))
        }
    }
}

/// Whether field `i`'s byte range is needed (a hash input).
fn is_input(model: &KeyModel, i: usize) -> bool {
    match &model.prefix {
        Some(PrefixModel::Salt(s)) => {
            s.inputs.contains(&i)
                && matches!(
                    s.hash,
                    HashChoice::Default | HashChoice::Java | HashChoice::Md5
                )
        }
        Some(PrefixModel::HashPrefix(h)) => h.field == i,
        None => false,
    }
}

fn start(i: usize) -> syn::Ident {
    format_ident!("__start_{}", i)
}

fn end(i: usize) -> syn::Ident {
    format_ident!("__end_{}", i)
}

/// Before the first field: the placeholder prefix.
pub fn encode_begin(model: &KeyModel) -> TokenStream {
    match &model.prefix {
        None => quote!(),
        Some(PrefixModel::Salt(s)) => {
            let group = if s.groups.is_some() {
                quote!()
            } else {
                quote!(let __group: ::core::option::Option<u32> = ::core::option::Option::None;)
            };
            quote!(__SALT.reserve(__w)?; #group)
        }
        Some(PrefixModel::HashPrefix(_)) => quote!(__HASH_PREFIX.reserve(__w)?;),
    }
}

/// At the start of field `i` (after its separator): remember where it
/// starts, and compute the bucket group from it.
pub fn encode_field_start(model: &KeyModel, i: usize) -> TokenStream {
    let mut out = TokenStream::new();
    if is_input(model, i) {
        let s = start(i);
        out.extend(quote!(let #s = __w.position();));
    }
    if let Some(PrefixModel::Salt(SaltModel {
        groups: Some(g), ..
    })) = &model.prefix
    {
        if g.field == i {
            let place = super::fields::place(&model.fields[i]);
            let name = model.fields[i].name();
            let group = group_expr(&g.kind, quote!(#place), model.fields[i].ty);
            out.extend(quote! {
                let __group = ::core::option::Option::Some(
                    #group.ok_or_else(|| __w.error(__rk::EncodeErrorKind::GroupOutOfRange)).__in_field(#name)?
                );
            });
        }
    }
    out
}

/// The group of the value `v: &T`, as `Option<u32>`.
pub(super) fn group_expr(kind: &GroupKind, v: TokenStream, ty: &syn::Type) -> TokenStream {
    match kind {
        // Spanned at the field's type, where a missing KeyGroup points.
        GroupKind::Enum => quote_spanned! {syn::spanned::Spanned::span(ty)=>
            ::core::option::Option::Some(<#ty as __rk::KeyGroup>::group(#v))
        },
        GroupKind::Range { lo, hi } => {
            let (lo, hi) = (
                proc_macro2::Literal::i128_unsuffixed(*lo),
                proc_macro2::Literal::i128_unsuffixed(*hi),
            );
            quote!(__rk::salt::group_in_range(*(#v) as i128, #lo, #hi))
        }
        GroupKind::Func { path, groups } => {
            quote!(__rk::salt::checked_group(#path(#v), #groups))
        }
    }
}

/// At the end of field `i`.
pub fn encode_field_end(model: &KeyModel, i: usize) -> TokenStream {
    if is_input(model, i) {
        let e = end(i);
        quote!(let #e = __w.position();)
    } else {
        quote!()
    }
}

/// The bucket of the key `bytes`: `SaltPlan::bucket_of_spans` with the
/// salted fields' byte spans (`span(k, field)` gives the span of the k-th
/// input), or Phoenix's one span from the salt to the key's end.
pub(super) fn bucket_of_spans(
    s: &SaltModel,
    bytes: TokenStream,
    group: TokenStream,
    span: impl Fn(usize, usize) -> (TokenStream, TokenStream),
) -> TokenStream {
    let spans: Vec<TokenStream> = if matches!(s.hash, HashChoice::Phoenix) {
        vec![quote!((__PREFIX_LEN, usize::MAX))]
    } else {
        s.inputs
            .iter()
            .enumerate()
            .map(|(k, &field)| {
                let (a, b) = span(k, field);
                quote!((#a, #b))
            })
            .collect()
    };
    quote!(__SALT.bucket_of_spans(#bytes, [#(#spans),*], #group))
}

/// A salted field's span as encode and decode record it.
fn field_span(_: usize, field: usize) -> (TokenStream, TokenStream) {
    let (st, en) = (start(field), end(field));
    (quote!(#st), quote!(#en))
}

/// After the last field: compute and write the prefix.
pub fn encode_end(model: &KeyModel) -> TokenStream {
    match &model.prefix {
        None => quote!(),
        Some(PrefixModel::Salt(s)) => {
            let bucket = match &s.hash {
                HashChoice::Custom(path) => quote!(__SALT.bucket_of_raw(#path(self), __group)),
                _ => {
                    let call = bucket_of_spans(s, quote!(__k), quote!(__group), field_span);
                    quote!({ let __k: &[u8] = __w.written_since(0); #call })
                }
            };
            quote! {
                let __bucket = #bucket;
                __SALT.write_bucket(__w, __bucket);
            }
        }
        Some(PrefixModel::HashPrefix(h)) => {
            let (st, en) = (start(h.field), end(h.field));
            quote!(__HASH_PREFIX.write(__w, #st, #en);)
        }
    }
}

/// Before the first field: read the stored prefix.
pub fn decode_begin(model: &KeyModel) -> TokenStream {
    match &model.prefix {
        None => quote!(),
        Some(PrefixModel::Salt(_)) => quote!(let __stored_bucket = __SALT.take(__r)?;),
        Some(PrefixModel::HashPrefix(_)) => quote!(let __stored_prefix = __HASH_PREFIX.take(__r)?;),
    }
}

pub fn decode_field_start(model: &KeyModel, i: usize) -> TokenStream {
    if is_input(model, i) {
        let s = start(i);
        quote!(let #s = __r.position();)
    } else {
        quote!()
    }
}

pub fn decode_field_end(model: &KeyModel, i: usize) -> TokenStream {
    if is_input(model, i) {
        let e = end(i);
        quote!(let #e = __r.position();)
    } else {
        quote!()
    }
}

/// After the struct is built as `__value`: check the stored prefix.
pub fn decode_verify(model: &KeyModel) -> TokenStream {
    let name = model.ident.to_string();
    match &model.prefix {
        None => quote!(),
        Some(PrefixModel::Salt(s)) => {
            let group = match &s.groups {
                None => quote!(::core::option::Option::None),
                Some(g) => {
                    let ident = model.fields[g.field].ident;
                    let field = model.fields[g.field].name();
                    let expr =
                        group_expr(&g.kind, quote!(&__value.#ident), model.fields[g.field].ty);
                    quote! {
                        ::core::option::Option::Some(#expr.ok_or(__rk::DecodeError::new(
                            #name, #field, 0, __rk::DecodeErrorKind::GroupOutOfRange,
                        ))?)
                    }
                }
            };
            let bucket = match &s.hash {
                HashChoice::Custom(path) => quote!(__SALT.bucket_of_raw(#path(&__value), __group)),
                _ => bucket_of_spans(s, quote!(__bytes), quote!(__group), field_span),
            };
            quote! {
                let __group: ::core::option::Option<u32> = #group;
                let __computed = #bucket;
                if __computed != __stored_bucket {
                    return ::core::result::Result::Err(__SALT.mismatch(#name, __stored_bucket, __computed));
                }
            }
        }
        Some(PrefixModel::HashPrefix(h)) => {
            let (st, en) = (start(h.field), end(h.field));
            quote!(__HASH_PREFIX.verify(#name, __stored_prefix, &__bytes[#st..#en])?;)
        }
    }
}
