//! The finishers of a builder state: what a query may say about the next
//! field besides its exact value. Each returns the `ScanPlan`; one the
//! field's encoding cannot support is generated with a bound no type
//! meets, so a call names the reason (`rowkey::scan::NotScannable`).

use super::rules::{self, PrefixScan, RangeScan};
use crate::expand::{codec, encode};
use crate::model::{Codec, FieldModel, KeyModel, PrefixModel};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

fn hashed(model: &KeyModel, depth: usize) -> bool {
    matches!(&model.prefix, Some(PrefixModel::HashPrefix(h)) if h.field == depth)
}

pub fn finishers(model: &KeyModel, depth: usize, f: &FieldModel) -> TokenStream {
    let mut out = starts_with(model, depth, f);
    out.extend(ranges(model, depth, f));
    out
}

fn plan_ty() -> TokenStream {
    quote!(::core::result::Result<__rk::ScanPlan<__SCAN_N>, __rk::EncodeError>)
}

/// A method that cannot be called: the bound holds for no type, and is
/// checked where it is called (a higher-ranked bound is not "trivial").
fn unavailable(method: &syn::Ident, params: usize, reason: &str) -> TokenStream {
    let reason = format_ident!("{}", reason);
    let plan = plan_ty();
    let args = (0..params).map(|i| {
        let a = format_ident!("__unused_{}", i);
        quote!(#a: impl ::core::any::Any)
    });
    let doc = format!("Not available for this field: see `rowkey::scan::{reason}`.");
    quote! {
        #[doc = #doc]
        #[allow(unused_variables)]
        pub fn #method(self, #(#args),*) -> #plan
        where
            for<'__x> &'__x (): __rk::scan::NotScannable<__rk::scan::#reason>,
        {
            self.__b.prefix()
        }
    }
}

/// Writes `v: &Borrowed` (a `&str` or `&[u8]`) as the field's value.
pub fn put_borrowed(model: &KeyModel, f: &FieldModel, v: TokenStream) -> TokenStream {
    let c = codec::bytes_codec(f, model.separator);
    let ty = f.value_ty;
    quote! {{
        const __C: __rk::BytesCodec = #c;
        __C.put(__w, __rk::KeyBytes::key_bytes(#v), <#ty as __rk::KeyBytes>::IS_TEXT)?;
    }}
}

fn starts_with(model: &KeyModel, depth: usize, f: &FieldModel) -> TokenStream {
    let method = format_ident!("{}_starts_with", f.ident);
    let name = f.name();
    let plan = plan_ty();
    let (param, put) = match rules::prefix_scan(f, hashed(model, depth)) {
        Err(reason) => return unavailable(&method, 1, reason),
        Ok(PrefixScan::Digits) => {
            let Codec::Text { width, reverse } = f.codec else {
                return quote!();
            };
            let digits = codec::digits(width, reverse, f.desc);
            (quote!(&str), quote!(#digits.put_prefix(__w, __prefix)))
        }
        Ok(PrefixScan::Bytes) => {
            let c = codec::bytes_codec(f, model.separator);
            let ty = f.value_ty;
            (
                quote!(&<#ty as __rk::KeyBytes>::Borrowed),
                quote! {{
                    const __C: __rk::BytesCodec = #c;
                    __C.put_prefix(__w, __rk::KeyBytes::key_bytes(__prefix))
                }},
            )
        }
    };
    let doc =
        format!("Every key whose `{name}` starts with `prefix` (as stored: digits or bytes).");
    quote! {
        #[doc = #doc]
        pub fn #method(mut self, __prefix: #param) -> #plan {
            self.__b.write(|__w| {
                __w.field(#name);
                #put
            });
            self.__b.prefix()
        }
    }
}

fn ranges(model: &KeyModel, depth: usize, f: &FieldModel) -> TokenStream {
    let ident = f.ident;
    let name = f.name();
    let [range, between, since, until, latest] =
        ["range", "between", "since", "until", "latest"].map(|m| format_ident!("{}_{}", ident, m));
    let scan = match rules::range_scan(f, hashed(model, depth)) {
        Ok(s) => s,
        Err(reason) => {
            let mut out = unavailable(&range, 1, reason);
            out.extend(unavailable(&between, 2, reason));
            out.extend(unavailable(&since, 1, reason));
            out.extend(unavailable(&until, 1, reason));
            out.extend(unavailable(&latest, 0, "LatestNeedsADescTsField"));
            return out;
        }
    };
    let plan = plan_ty();
    let value_ty = f.value_ty;
    // Text and byte fields take ranges of `&str` / `&[u8]` ("a".."b"):
    // std implements `RangeBounds<&str>` for `Range<&str>`, not
    // `RangeBounds<str>`.
    let (bound_ty, param) = match f.codec {
        Codec::Bytes { .. } => (
            quote!(&'__x <#value_ty as __rk::KeyBytes>::Borrowed),
            quote!(&'__x <#value_ty as __rk::KeyBytes>::Borrowed),
        ),
        _ => (quote!(#value_ty), quote!(#value_ty)),
    };
    let lt = match f.codec {
        Codec::Bytes { .. } => quote!('__x,),
        _ => quote!(),
    };
    let range_body = match scan {
        RangeScan::Time => {
            let Codec::DescTs { text } = f.codec else {
                return quote!();
            };
            quote! {
                self.__b.time_window(
                    __rk::DescTs { text: #text },
                    ::core::ops::RangeBounds::start_bound(&__range).cloned(),
                    ::core::ops::RangeBounds::end_bound(&__range).cloned(),
                )
            }
        }
        RangeScan::Values if matches!(f.codec, Codec::Bytes { .. }) => {
            // Bounds longer than the field can hold still mean something:
            // they are cut to the field's length with the inclusivity that
            // keeps exactly the same values (`fit_start`, `fit_end`).
            let c = codec::bytes_codec(f, model.separator);
            let desc = f.desc;
            let prefix_free = rules::prefix_free(f);
            let bytes_of = |bound: TokenStream| {
                quote! {
                    match #bound {
                        ::core::ops::Bound::Included(__v) => ::core::ops::Bound::Included(__rk::KeyBytes::key_bytes(*__v)),
                        ::core::ops::Bound::Excluded(__v) => ::core::ops::Bound::Excluded(__rk::KeyBytes::key_bytes(*__v)),
                        ::core::ops::Bound::Unbounded => ::core::ops::Bound::Unbounded,
                    }
                }
            };
            let write = quote! {
                |__b: &[u8]| move |__w: &mut __rk::KeyWriter<'_>| -> ::core::result::Result<(), __rk::EncodeError> {
                    __w.field(#name);
                    __C.put(__w, __b, <#value_ty as __rk::KeyBytes>::IS_TEXT)
                }
            };
            let lo = bytes_of(quote!(::core::ops::RangeBounds::start_bound(&__range)));
            let hi = bytes_of(quote!(::core::ops::RangeBounds::end_bound(&__range)));
            quote! {
                const __C: __rk::BytesCodec = #c;
                let __lo = __rk::scan::fit_start(#lo, __C.max_len).map(#write);
                let __hi = __rk::scan::fit_end(#hi, __C.max_len).map(#write);
                self.__b.bounds(__lo, __hi, #desc, #prefix_free)
            }
        }
        RangeScan::Values => {
            let put = encode::put_value(f, quote!(__v), model.separator);
            let ordered = match f.codec {
                Codec::Part => {
                    let ty = crate::ty::with_static_lifetimes(value_ty);
                    let msg = format!(
                        "`{name}_range`: this KeyPart type says its bytes do not sort like its \
                         values (KeyPart::ORDERED is false)"
                    );
                    quote!(const { ::core::assert!(<#ty as __rk::KeyPart>::ORDERED, #msg) };)
                }
                _ => quote!(),
            };
            let desc = f.desc;
            let prefix_free = rules::prefix_free(f);
            quote! {
                #ordered
                let __lo = ::core::ops::RangeBounds::start_bound(&__range).map(|__v| {
                    move |__w: &mut __rk::KeyWriter<'_>| -> ::core::result::Result<(), __rk::EncodeError> {
                        __w.field(#name);
                        #put
                        ::core::result::Result::Ok(())
                    }
                });
                let __hi = ::core::ops::RangeBounds::end_bound(&__range).map(|__v| {
                    move |__w: &mut __rk::KeyWriter<'_>| -> ::core::result::Result<(), __rk::EncodeError> {
                        __w.field(#name);
                        #put
                        ::core::result::Result::Ok(())
                    }
                });
                self.__b.bounds(
                    __lo,
                    __hi,
                    #desc,
                    #prefix_free,
                )
            }
        }
    };
    let latest_fn = match scan {
        RangeScan::Time => quote! {
            /// The newest row of every key with the fields set so far: the
            /// first row of each range (the plan's limit is 1).
            pub fn #latest(&self) -> #plan {
                self.__b.prefix().map(|__p| __p.with_limit(1))
            }
        },
        RangeScan::Values => unavailable(&latest, 0, "LatestNeedsADescTsField"),
    };
    let (range_doc, between_doc, since_doc, until_doc) = (
        format!("Every key whose `{name}` lies in `range` (any Rust range)."),
        format!("Every key with `lo <= {name} < hi`."),
        format!("Every key with `{name} >= lo`."),
        format!("Every key with `{name} < hi`."),
    );
    quote! {
        #[doc = #range_doc]
        pub fn #range<#lt __R: ::core::ops::RangeBounds<#bound_ty>>(&self, __range: __R) -> #plan {
            #range_body
        }
        #[doc = #between_doc]
        pub fn #between<#lt>(&self, __lo: #param, __hi: #param) -> #plan {
            self.#range((::core::ops::Bound::Included(__lo), ::core::ops::Bound::Excluded(__hi)))
        }
        #[doc = #since_doc]
        pub fn #since<#lt>(&self, __lo: #param) -> #plan {
            self.#range((::core::ops::Bound::Included(__lo), ::core::ops::Bound::Unbounded))
        }
        #[doc = #until_doc]
        pub fn #until<#lt>(&self, __hi: #param) -> #plan {
            self.#range((::core::ops::Bound::Unbounded, ::core::ops::Bound::Excluded(__hi)))
        }
        #latest_fn
    }
}
