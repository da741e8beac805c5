//! One key field described to `rowkey::scan::Step`: the `ScanField` impl
//! on the field's state struct. It names the state that comes next, what
//! `eq` and ranges take, how the field's bytes are written, which
//! finishers its encoding supports (or the `rowkey::scan` reason type that
//! says why not) and what the salt or hash prefix learns from its value.
//! The finishers themselves live in `rowkey-core`.

use super::rules::{self, PrefixScan, RangeScan};
use super::{
    bucket_depth, bucket_rule, hashes_inputs, marks, state, state_ident, state_in, whole_key_rule,
};
use crate::expand::{codec, encode, prefix};
use crate::model::{Codec, FieldModel, KeyModel, PrefixModel, SaltModel};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

fn hashed(model: &KeyModel, depth: usize) -> bool {
    matches!(&model.prefix, Some(PrefixModel::HashPrefix(h)) if h.field == depth)
}

fn rule(r: Result<(), &str>) -> TokenStream {
    match r {
        Ok(()) => quote!(__rk::scan::Yes),
        Err(reason) => {
            let reason = format_ident!("{}", reason);
            quote!(__rk::scan::#reason)
        }
    }
}

/// Whether `eq` takes `&str` / `&[u8]` (text and byte fields) rather than
/// a value of the field's type. A group field takes its own type: the
/// group function reads it.
fn takes_borrowed(model: &KeyModel, depth: usize, f: &FieldModel) -> bool {
    let group_field = matches!(
        &model.prefix,
        Some(PrefixModel::Salt(SaltModel { groups: Some(g), .. })) if g.field == depth
    );
    matches!(f.codec, Codec::Bytes { .. }) && !f.optional && !group_field
}

/// `impl ScanField for State<depth>`: field `depth` described.
pub fn describe(model: &KeyModel, depth: usize, f: &FieldModel) -> TokenStream {
    let lts: Vec<_> = model.generics.lifetimes().map(|l| &l.lifetime).collect();
    let this = state(model, depth);
    let this_ident = state_ident(model, depth);
    let last = depth + 1 == model.fields.len();
    let m = marks(model);
    // The state after the field in each mode: the next field's, or the
    // whole key (which remembers the last field's state).
    let after = |mode: TokenStream| {
        if last {
            let this_in = state_in(model, depth, mode);
            quote!(__rk::scan::Whole<#this_in, __N, #m>)
        } else {
            state_in(model, depth + 1, mode)
        }
    };
    let next = after(quote!(__Mo));
    let next_free = after(quote!(__rk::scan::OnlyEqAndAnyFollowAFreeField));
    let next_in = after(quote!(__rk::scan::NoFreeFieldAfterAnInList));
    let bucket_rule = bucket_rule(model);
    let whole_key_rule = whole_key_rule(model);
    let name = f.name();
    let (ty, value_ty) = (f.ty, f.value_ty);
    let borrowed = takes_borrowed(model, depth, f);
    let is_hashed = hashed(model, depth);

    let value = if borrowed {
        quote!(&'__v <#value_ty as __rk::KeyBytes>::Borrowed)
    } else {
        quote!(#ty)
    };
    let put = if borrowed {
        let c = codec::bytes_codec(f, model.separator);
        quote! {
            const __C: __rk::BytesCodec = #c;
            __C.put(__w, __rk::KeyBytes::key_bytes(*__v), <#value_ty as __rk::KeyBytes>::IS_TEXT)
        }
    } else {
        let put =
            encode::with_value_at(f, quote!(__v), |v| encode::put_value(f, v, model.separator));
        quote! {
            #put
            ::core::result::Result::Ok(())
        }
    };

    let prefix_scan = rules::prefix_scan(f, is_hashed);
    let (prefix_ty, put_prefix) = match (&prefix_scan, f.codec) {
        (Ok(PrefixScan::Digits), Codec::Text { width, reverse }) => {
            let digits = codec::digits(width, reverse, f.desc);
            (
                quote!(str),
                quote! {
                    fn put_prefix(__w: &mut __rk::KeyWriter<'_>, __p: &str) -> ::core::result::Result<(), __rk::EncodeError> {
                        #digits.put_prefix(__w, __p)
                    }
                },
            )
        }
        (Ok(PrefixScan::Bytes), Codec::Bytes { .. }) => {
            let c = codec::bytes_codec(f, model.separator);
            (
                quote!(<#value_ty as __rk::KeyBytes>::Borrowed),
                quote! {
                    fn put_prefix(__w: &mut __rk::KeyWriter<'_>, __p: &Self::Prefix) -> ::core::result::Result<(), __rk::EncodeError> {
                        const __C: __rk::BytesCodec = #c;
                        __C.put_prefix(__w, __rk::KeyBytes::key_bytes(__p))
                    }
                },
            )
        }
        (_, Codec::Bytes { .. }) => (quote!(<#value_ty as __rk::KeyBytes>::Borrowed), quote!()),
        _ => (quote!(str), quote!()),
    };
    let prefix_rule = rule(prefix_scan.map(|_| ()));

    let range_scan = rules::range_scan(f, is_hashed);
    let range_rule = rule(range_scan.as_ref().map(|_| ()).map_err(|e| *e));
    let latest_rule = rule(match range_scan {
        Ok(RangeScan::Time) => Ok(()),
        _ => Err("LatestNeedsADescTsField"),
    });
    let range = match (range_scan, f.codec) {
        (Ok(RangeScan::Time), Codec::DescTs { text }) => quote! {
            fn range(
                __b: &__rk::ScanBuilder<__N, #m>,
                __lo: ::core::ops::Bound<&Self::Value<'_>>,
                __hi: ::core::ops::Bound<&Self::Value<'_>>,
            ) -> ::core::result::Result<__rk::ScanPlan<__N>, __rk::EncodeError> {
                __b.time_window(__rk::DescTs { text: #text }, __lo.cloned(), __hi.cloned())
            }
        },
        // Bounds longer than the field can hold still mean something: they
        // are cut to the field's length (`ScanBuilder::fitted_bounds`).
        (Ok(RangeScan::Values), Codec::Bytes { .. }) => {
            let c = codec::bytes_codec(f, model.separator);
            let prefix_free = rules::prefix_free(f);
            let bytes = if borrowed {
                quote!(|__v| __rk::KeyBytes::key_bytes(*__v))
            } else {
                quote!(|__v| __rk::KeyBytes::key_bytes(__v))
            };
            quote! {
                fn range(
                    __b: &__rk::ScanBuilder<__N, #m>,
                    __lo: ::core::ops::Bound<&Self::Value<'_>>,
                    __hi: ::core::ops::Bound<&Self::Value<'_>>,
                ) -> ::core::result::Result<__rk::ScanPlan<__N>, __rk::EncodeError> {
                    const __C: __rk::BytesCodec = #c;
                    __b.fitted_bounds(
                        #name,
                        __C,
                        <#value_ty as __rk::KeyBytes>::IS_TEXT,
                        __lo.map(#bytes),
                        __hi.map(#bytes),
                        #prefix_free,
                    )
                }
            }
        }
        _ => quote!(),
    };

    let mut consts = TokenStream::new();
    if f.desc {
        consts.extend(quote!(
            const DESCENDING: bool = true;
        ));
    }
    // Separator-joined text is delimited by the next separator, and the
    // last field by nothing: no end of its own, as a raw last field.
    let delimited_last = depth + 1 == model.fields.len()
        && matches!(
            f.codec,
            Codec::Bytes {
                framing: crate::model::Framing::Delimited,
                ..
            }
        );
    if !rules::prefix_free(f) || delimited_last {
        consts.extend(quote!(
            const PREFIX_FREE: bool = false;
        ));
    }
    if let Some(b) = model.separator.filter(|_| depth + 1 < model.fields.len()) {
        consts.extend(
            quote!(const SEPARATOR: ::core::option::Option<u8> = ::core::option::Option::Some(#b);),
        );
    }
    if matches!(f.codec, Codec::Part) {
        let part = crate::ty::with_static_lifetimes(value_ty);
        consts.extend(quote!(const ORDERED: bool = <#part as __rk::KeyPart>::ORDERED;));
    }

    // Leaving the field free needs its width: fixed by the codec, or the
    // part's own `FIXED_LEN` (checked when the plan is built).
    let free_rule = rule(match f.codec {
        _ if f.optional => Err("VariableWidthFieldsCannotBeLeftFree"),
        Codec::Bytes {
            framing: crate::model::Framing::Padded { .. },
            ..
        } => Ok(()),
        Codec::Bytes { .. } => Err("VariableWidthFieldsCannotBeLeftFree"),
        _ => Ok(()),
    });
    // The width the layout already states: one source for both.
    let fixed_width = quote!(__FIELDS[#depth].fixed_len);
    let learn = learn(model, depth, f);
    let field = f.ident;

    quote! {
        #[allow(clippy::needless_lifetimes)]
        impl<#(#lts,)* __Mo: __rk::scan::ScanMode, const __N: usize> __rk::ScanField<__N, #m> for #this {
            type Next = #next;
            type Free = #next_free;
            type In = #next_in;
            type BucketRule = #bucket_rule;
            type WholeKeyRule = #whole_key_rule;
            #[inline]
            fn from_query(__q: __rk::ScanQuery<__N, #m>) -> Self {
                #this_ident { #field: __rk::Step::__new(__q) }
            }
            #[inline]
            fn field_query(&self) -> &__rk::ScanQuery<__N, #m> {
                self.#field.__query()
            }
            #[inline]
            fn field_query_mut(&mut self) -> &mut __rk::ScanQuery<__N, #m> {
                self.#field.__query_mut()
            }
            type FreeRule = #free_rule;
            const FIXED_WIDTH: ::core::option::Option<usize> = #fixed_width;
            type Value<'__v> = #value;
            type Prefix = #prefix_ty;
            type PrefixRule = #prefix_rule;
            type RangeRule = #range_rule;
            type LatestRule = #latest_rule;
            const NAME: &'static str = #name;
            #consts

            #[inline]
            fn put(__w: &mut __rk::KeyWriter<'_>, __v: &Self::Value<'_>) -> ::core::result::Result<(), __rk::EncodeError> {
                #put
            }
            #put_prefix
            #learn
            #range
        }
    }
}

/// `learn`: what the salt or hash prefix takes from the field's value
/// (its byte span, its group, the bucket once every input is set).
fn learn(model: &KeyModel, depth: usize, f: &FieldModel) -> TokenStream {
    let m = marks(model);
    let name = f.name();
    let key_name = model.ident.to_string();
    let mut body = TokenStream::new();
    match &model.prefix {
        Some(PrefixModel::Salt(s)) => {
            if let Some(k) = s
                .inputs
                .iter()
                .position(|&i| i == depth)
                .filter(|_| hashes_inputs(s))
            {
                let (a, b) = (2 * k, 2 * k + 1);
                body.extend(quote!(__b.set_mark(#a, __s); __b.set_mark(#b, __e);));
            }
            if let Some(g) = s.groups.as_ref().filter(|g| g.field == depth) {
                let group = prefix::group_expr(&g.kind, quote!(__value), f.ty);
                body.extend(quote! {
                    match #group {
                        ::core::option::Option::Some(__g) => __b.set_group(__g),
                        ::core::option::Option::None => __b.fail(__rk::EncodeError::new(
                            #key_name, #name, __s, __rk::EncodeErrorKind::GroupOutOfRange,
                        )),
                    }
                });
            }
            if bucket_depth(model, s) == Some(depth) {
                let call = prefix::bucket_of_spans(s, quote!(__k), quote!(__b.group()), |k, _| {
                    let (a, b) = (2 * k, 2 * k + 1);
                    (quote!(__b.mark(#a)), quote!(__b.mark(#b)))
                });
                body.extend(quote! {
                    let __bucket = {
                        let __k = __b.bytes();
                        #call
                    };
                    __b.set_bucket(__bucket);
                });
            }
        }
        Some(PrefixModel::HashPrefix(h)) if h.field == depth => {
            body.extend(quote!(__b.set_hash_prefix(&__HASH_PREFIX, __s, __e);));
        }
        _ => {}
    }
    if body.is_empty() {
        return body;
    }
    quote! {
        fn learn(__b: &mut __rk::ScanBuilder<__N, #m>, __s: usize, __value: &Self::Value<'_>) {
            let __e = __b.position();
            let _ = (__e, __value);
            #body
        }
    }
}
