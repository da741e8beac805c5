//! The typed prefix-scan builder of a key: `Key::scan()` returns
//! `KeyScan<0>`; setting field `i` moves to `KeyScan<i + 1>`, so fields can
//! only be set in key order and once. Each state also offers the
//! finishers of its next field (`_starts_with`, `_range`, `_between`,
//! `_since`, `_until`, `_latest`) and `plan()`. The byte work is
//! `rowkey_core::scan::ScanBuilder`'s.

mod finish;
mod rules;

use super::encode;
use crate::attr::HashChoice;
use crate::model::{Codec, FieldModel, KeyModel, PrefixModel, SaltModel};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

/// The builder's name: `SpendScan` for `Spend`.
pub fn scan_ident(model: &KeyModel) -> syn::Ident {
    format_ident!("{}Scan", model.ident)
}

/// The builder state type at `depth` (fields set).
fn state(model: &KeyModel, depth: usize) -> TokenStream {
    let ident = scan_ident(model);
    let lts = model.generics.lifetimes().map(|l| &l.lifetime);
    let d = Literal::usize_unsuffixed(depth);
    quote!(#ident<#(#lts,)* #d>)
}

/// How many salt-input byte offsets the builder remembers.
fn marks(model: &KeyModel) -> usize {
    match &model.prefix {
        Some(PrefixModel::Salt(s)) if hashes_inputs(s) => 2 * s.inputs.len(),
        Some(PrefixModel::HashPrefix(_)) => 2,
        _ => 0,
    }
}

fn hashes_inputs(s: &SaltModel) -> bool {
    matches!(
        s.hash,
        HashChoice::Default | HashChoice::Java | HashChoice::Md5
    )
}

/// Whether field 0 is the hashed field of a hash prefix (only then does
/// the key have a builder: the prefix of any other query is unknown).
pub fn has_builder(model: &KeyModel) -> bool {
    match &model.prefix {
        Some(PrefixModel::HashPrefix(h)) => h.field == 0,
        _ => true,
    }
}

/// A `scan()` whose bound never holds, so calling it says why there is no
/// builder instead of falling back to `Iterator::scan`.
fn no_builder(model: &KeyModel) -> TokenStream {
    let ident = model.ident;
    let (impl_generics, ty_generics, where_clause) = model.generics.split_for_impl();
    quote! {
        impl #impl_generics #ident #ty_generics #where_clause {
            /// No scan builder: the key starts with the hash of a later field.
            #[allow(dead_code)]
            pub fn scan<'__rowkey_x>() -> __rk::scan::NoScanBuilder<'__rowkey_x>
            where
                __rk::scan::NoScanBuilder<'__rowkey_x>:
                    __rk::scan::HasScanBuilder<__rk::scan::KeysHashPrefixedByALaterFieldHaveNoScanOrder>,
            {
                ::core::unreachable!()
            }
        }
    }
}

/// The builder struct, at module level next to the key struct.
pub fn scan_struct(model: &KeyModel) -> TokenStream {
    if !has_builder(model) {
        return quote!();
    }
    let krate = &model.krate;
    let vis = model.vis;
    let ident = model.ident;
    let scan = scan_ident(model);
    let lts: Vec<_> = model.generics.lifetimes().map(|l| &l.lifetime).collect();
    let statics = lts.iter().map(|_| quote!('static));
    let m = marks(model);
    let (_, ty_generics, _) = model.generics.split_for_impl();
    let doc = format!(
        "Typed prefix-scan builder of [`{ident}`], from `{ident}::scan()`: set fields in key \
         order, then finish with `plan()` or a finisher of the next field. `D` counts the \
         fields set."
    );
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug)]
        #vis struct #scan<#(#lts,)* const D: usize> {
            __b: #krate::__private::ScanBuilder<{ <#ident<#(#statics),*> as #krate::RowKey>::MAX_LEN + 1 }>,
            __m: [usize; #m],
            __p: ::core::marker::PhantomData<fn() -> #ident #ty_generics>,
        }
    }
}

/// `Key::scan()` and the impls of every state, inside the derive's const
/// block (they use its plan constants).
pub fn scan_impls(model: &KeyModel) -> TokenStream {
    if !has_builder(model) {
        return no_builder(model);
    }
    let ident = model.ident;
    let name = ident.to_string();
    let scan = scan_ident(model);
    let (impl_generics, ty_generics, where_clause) = model.generics.split_for_impl();
    let m = marks(model);
    let (salt, hashed) = match &model.prefix {
        Some(PrefixModel::Salt(_)) => (quote!(::core::option::Option::Some(__SALT)), false),
        Some(PrefixModel::HashPrefix(_)) => (quote!(::core::option::Option::None), true),
        None => (quote!(::core::option::Option::None), false),
    };
    let start = state(model, 0);
    let depths = (0..=model.fields.len()).map(|d| depth_impl(model, d));
    let doc = format!(
        "A typed scan of `{name}` keys: fix fields in key order \
         (`{name}::scan().{}(..)`), then `plan()` for the ranges.",
        model
            .fields
            .first()
            .map(FieldModel::name)
            .unwrap_or_default()
    );
    quote! {
        const __SCAN_N: usize = __MAX_LEN + 1;

        impl #impl_generics #ident #ty_generics #where_clause {
            #[doc = #doc]
            #[allow(dead_code)]
            pub fn scan() -> #start {
                #scan {
                    __b: __rk::ScanBuilder::new(#name, __PREFIX_LEN, #salt, #hashed),
                    __m: [0; #m],
                    __p: ::core::marker::PhantomData,
                }
            }
        }

        #(#depths)*
    }
}

/// The impl of state `depth`: the next field's setter and finishers, and
/// `plan()` (at full depth: the point range, and `key()`).
fn depth_impl(model: &KeyModel, depth: usize) -> TokenStream {
    let lts: Vec<_> = model.generics.lifetimes().map(|l| &l.lifetime).collect();
    let this = state(model, depth);
    let n = model.fields.len();
    let plan_ty = quote!(::core::result::Result<__rk::ScanPlan<__SCAN_N>, __rk::EncodeError>);
    let body = if depth == n {
        let key = if bucket_known_at_full_depth(model) {
            quote! {
                /// The whole key, salt bucket included: a point get.
                pub fn key(&self) -> ::core::result::Result<__rk::KeyBuf<__SCAN_N>, __rk::EncodeError> {
                    self.__b.key()
                }
            }
        } else {
            quote!()
        };
        quote! {
            /// The range of exactly this key (in every bucket it may be in).
            pub fn plan(&self) -> #plan_ty {
                self.__b.point()
            }
            #key
        }
    } else {
        let f = &model.fields[depth];
        let setter = setter(model, depth, f);
        let finishers = finish::finishers(model, depth, f);
        let fixed: Vec<String> = model.fields[..depth].iter().map(FieldModel::name).collect();
        let doc = if fixed.is_empty() {
            "Every key (in every bucket).".to_string()
        } else {
            format!("Every key whose {} are as set.", fixed.join(", "))
        };
        quote! {
            #setter
            #finishers
            #[doc = #doc]
            pub fn plan(&self) -> #plan_ty {
                self.__b.prefix()
            }
        }
    };
    let pin = match &model.prefix {
        Some(PrefixModel::Salt(_)) => quote! {
            /// Scans only salt bucket `bucket`: for a custom hash, which the
            /// builder cannot compute from the fields set, when the caller
            /// can (a bucket outside `0..N` makes `plan()` an error). The
            /// bucket is trusted: a wrong one finds none of the rows.
            pub fn in_bucket(mut self, bucket: u32) -> Self {
                self.__b.pin_bucket(bucket);
                self
            }
        },
        _ => quote!(),
    };
    quote! {
        #[allow(dead_code, clippy::needless_lifetimes)]
        impl<#(#lts),*> #this {
            #pin
            #body
        }
    }
}

/// Whether `key()` can compute the bucket once every field is set.
fn bucket_known_at_full_depth(model: &KeyModel) -> bool {
    match &model.prefix {
        Some(PrefixModel::Salt(s)) => !matches!(s.hash, HashChoice::Custom(_)),
        _ => true,
    }
}

/// Whether the setter of field `depth` takes `&str` / `&[u8]` (text and
/// byte fields) rather than a value of the field's type. A group field
/// takes its own type: the group function reads it.
fn takes_borrowed(model: &KeyModel, depth: usize, f: &FieldModel) -> bool {
    let group_field = matches!(
        &model.prefix,
        Some(PrefixModel::Salt(SaltModel { groups: Some(g), .. })) if g.field == depth
    );
    matches!(f.codec, Codec::Bytes { .. }) && !f.optional && !group_field
}

fn param_ty(model: &KeyModel, depth: usize, f: &FieldModel) -> TokenStream {
    let (ty, value_ty) = (f.ty, f.value_ty);
    if takes_borrowed(model, depth, f) {
        quote!(&<#value_ty as __rk::KeyBytes>::Borrowed)
    } else {
        quote!(#ty)
    }
}

/// Writes `__value` with the field's codec.
fn put_exact(model: &KeyModel, depth: usize, f: &FieldModel) -> TokenStream {
    if takes_borrowed(model, depth, f) {
        finish::put_borrowed(model, f, quote!(__value))
    } else {
        encode::with_value_at(f, quote!(&__value), |v| {
            encode::put_value(f, v, model.separator)
        })
    }
}

/// `fn field(self, value) -> State<depth + 1>`, with what the salt or hash
/// prefix learns from the value.
fn setter(model: &KeyModel, depth: usize, f: &FieldModel) -> TokenStream {
    let ident = f.ident;
    let name = f.name();
    let key_name = model.ident.to_string();
    let scan = scan_ident(model);
    let next = state(model, depth + 1);
    let param = param_ty(model, depth, f);
    let put = put_exact(model, depth, f);
    let mut learn = TokenStream::new();
    match &model.prefix {
        Some(PrefixModel::Salt(s)) => {
            if let Some(k) = s
                .inputs
                .iter()
                .position(|&i| i == depth)
                .filter(|_| hashes_inputs(s))
            {
                let (a, b) = (2 * k, 2 * k + 1);
                learn.extend(quote!(self.__m[#a] = __s; self.__m[#b] = __e;));
            }
            if let Some(g) = s.groups.as_ref().filter(|g| g.field == depth) {
                let group = super::prefix::group_expr(&g.kind, quote!(&__value), f.ty);
                learn.extend(quote! {
                    match #group {
                        ::core::option::Option::Some(__g) => self.__b.set_group(__g),
                        ::core::option::Option::None => self.__b.fail(__rk::EncodeError::new(
                            #key_name, #name, __s, __rk::EncodeErrorKind::GroupOutOfRange,
                        )),
                    }
                });
            }
            if bucket_depth(model, s) == Some(depth) {
                let call = super::prefix::bucket_of_spans(
                    s,
                    quote!(__k),
                    quote!(self.__b.group()),
                    |k, _| {
                        let (a, b) = (2 * k, 2 * k + 1);
                        (quote!(self.__m[#a]), quote!(self.__m[#b]))
                    },
                );
                learn.extend(quote! {
                    let __bucket = {
                        let __k = self.__b.bytes();
                        #call
                    };
                    self.__b.set_bucket(__bucket);
                });
            }
        }
        Some(PrefixModel::HashPrefix(h)) if h.field == depth => {
            learn.extend(quote!(self.__b.set_hash_prefix(&__HASH_PREFIX, __s, __e);));
        }
        _ => {}
    }
    let sep = match model.separator {
        Some(b) if depth + 1 < model.fields.len() => {
            quote!(self.__b.write(|__w| __w.put_byte(#b));)
        }
        _ => quote!(),
    };
    let doc = format!("Fixes `{name}` to a value.");
    quote! {
        #[doc = #doc]
        pub fn #ident(mut self, __value: #param) -> #next {
            let __s = self.__b.position();
            self.__b.write(|__w| {
                __w.field(#name);
                #put
                ::core::result::Result::Ok(())
            });
            let __e = self.__b.position();
            let _ = (__s, __e);
            #learn
            #sep
            #scan { __b: self.__b, __m: self.__m, __p: ::core::marker::PhantomData }
        }
    }
}

/// The field whose setter completes what the bucket is computed from.
fn bucket_depth(model: &KeyModel, s: &SaltModel) -> Option<usize> {
    let inputs_done = match s.hash {
        HashChoice::Custom(_) => return None,
        HashChoice::Phoenix => model.fields.len().checked_sub(1)?,
        _ => *s.inputs.iter().max()?,
    };
    Some(match &s.groups {
        Some(g) => inputs_done.max(g.field),
        None => inputs_done,
    })
}
