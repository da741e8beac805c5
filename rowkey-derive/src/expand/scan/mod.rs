//! The typed scan of a key: `Key::scan()` returns a `rowkey::scan::TypedScan`
//! of state 0, a struct whose one public field is named after key field 0
//! and holds a `rowkey::scan::Step`; fixing it (`.month.eq(..)`) gives a
//! `TypedScan` of state 1, whose field is key field 1, and so on to the
//! whole key (`rowkey::scan::Whole`). So fields are set in key order and
//! once, a field set too early is "no field `user` on
//! `TypedScan<SpendScan0>`, available field: `month`", and key fields named
//! `plan` or `key` cannot clash with `TypedScan`'s methods (a field is
//! reached through `Deref`, a method on the wrapper). Every finisher and
//! every shared method (`plan`, `key`, `in_bucket`, `with_max_ranges`,
//! `Clone`, `Debug`) is written once in `rowkey-core`, and so is every
//! codec; the derive emits one struct and one `ScanField` description
//! (types only, no bodies) per field (`field.rs`).

mod field;

use crate::attr::HashChoice;
use crate::model::{FieldModel, KeyModel, PrefixModel, SaltModel};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The state after `depth` fields are set: `SpendScan0` for `Spend`'s first.
fn state_ident(model: &KeyModel, depth: usize) -> syn::Ident {
    format_ident!("{}Scan{}", model.ident, depth)
}

/// The state type at `depth`, with the key's lifetimes, the mode (`__Mo`:
/// `Yes` until a field is left free) and the bytes of a bound (`__N`), as
/// tokens (for the learning impls, which stay tokens).
fn state(model: &KeyModel, depth: usize) -> TokenStream {
    let ident = state_ident(model, depth);
    let lts = model.generics.lifetimes().map(|l| &l.lifetime);
    quote!(#ident<#(#lts,)* __N, __Mo>)
}

/// The typed scan's items as source text, parsed once into tokens.
///
/// Why text: the scan is most of what the derive emits (a struct and a
/// `ScanField` description per field), and a proc macro builds tokens one
/// at a time through the compiler's bridge. Measured with callgrind on
/// 200 keys (`bench-tools/compile.sh`'s structs), building them with
/// `quote!` was 0.7 of the derive's 1.6 billion instructions; written as
/// text and handed to the compiler's lexer in one call, it is a few
/// percent of that. Text names no span of the user's: every token gets
/// the call site's span, which is what `quote!` gives them too, so names
/// resolve as before; what names a user's type in a way an error could
/// point at (the learning impls) stays tokens.
///
/// The pieces of the key every state repeats: the state structs'
/// prefix, the key's lifetimes and type, the runtime path and the
/// `marks` of the builder.
pub(super) struct Source {
    /// `SpendScan`: a state is this and its depth.
    prefix: String,
    /// `'a, 'b` (empty without lifetimes).
    lifetimes: Vec<String>,
    /// `Spend < 'a >`.
    pub(super) key: String,
    /// `__rowkey_runtime_Spend`.
    runtime: String,
    marks: usize,
}

impl Source {
    pub(super) fn of(model: &KeyModel) -> Self {
        let ident = model.ident;
        let (_, ty_generics, _) = model.generics.split_for_impl();
        Source {
            prefix: format!("{ident}Scan"),
            lifetimes: model
                .generics
                .lifetimes()
                .map(|l| l.lifetime.to_string())
                .collect(),
            key: quote!(#ident #ty_generics).to_string(),
            runtime: crate::expand::runtime(model).to_string(),
            marks: marks(model),
        }
    }

    /// `'a, ` (each lifetime and a comma), or nothing.
    pub(super) fn lifetimes_comma(&self) -> String {
        self.lifetimes.iter().map(|l| format!("{l}, ")).collect()
    }

    /// The state type at `depth` in mode `mode`.
    ///
    /// The bytes of a bound are the states' const parameter `__N`
    /// (`Key::MAX_LEN + 1`), not the derive's `__SCAN_N` constant: every
    /// mention of a constant item as a const argument is a body of its own
    /// for the compiler to check and evaluate, about ten per field. It has
    /// no default for the same reason (one more body per state).
    pub(super) fn state(&self, depth: usize, mode: &str) -> String {
        format!(
            "{}{depth}<{}__N, {mode}>",
            self.prefix,
            self.lifetimes_comma()
        )
    }

    /// The type of state `depth`'s one field: its `Step`. The struct and
    /// its `ScanField` impl (`StepField`) spell it with this same text,
    /// which core checks is its own `Step` before casting between the two.
    pub(super) fn step(&self, depth: usize) -> String {
        format!(
            "{}::scan::Step<{}, {}, __N, {}usize, __Mo>",
            self.runtime,
            self.state(depth, "__Mo"),
            self.key,
            self.marks
        )
    }
}

/// `text` as tokens: the compiler's lexer, one call through the bridge
/// (not `proc_macro2`'s `FromStr`, which lexes the text itself first to
/// check it, in the derive's unoptimised build: most of what the text
/// saves). Outside a proc macro (the derive's unit tests), `proc_macro2`'s
/// lexer. A compile error if the derive wrote text that does not lex,
/// which would be its own bug.
fn parse(text: &str) -> TokenStream {
    let lexed = if proc_macro::is_available() {
        text.parse::<proc_macro::TokenStream>()
            .map(TokenStream::from)
            .map_err(|e| e.to_string())
    } else {
        text.parse::<TokenStream>().map_err(|e| e.to_string())
    };
    lexed.unwrap_or_else(|e| {
        let message =
            format!("rowkey's derive wrote a scan it cannot read back ({e}): please report it");
        quote!(::core::compile_error!(#message);)
    })
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

/// The state structs, at module level next to the key struct: one per
/// key field, whose one public field is that field's `Step`.
pub fn scan_structs(model: &KeyModel) -> TokenStream {
    if !has_builder(model) {
        return quote!();
    }
    let src = Source::of(model);
    let krate_path = doc_path(&model.krate);
    let vis = {
        let vis = model.vis;
        quote!(#vis).to_string()
    };
    let ident = model.ident;
    let lts = src.lifetimes_comma();
    let mut text = String::new();
    for (depth, f) in model.fields.iter().enumerate() {
        let field = f.ident.to_string();
        let field_name = f.name();
        let set: Vec<String> = model.fields[..depth].iter().map(FieldModel::name).collect();
        let set = if set.is_empty() {
            "no field set yet".to_string()
        } else {
            format!("`{}` set", set.join("`, `"))
        };
        let doc = format!(
            "A typed scan of [`{ident}`], {set}: `.{field_name}` is the next field (see \
             [`TypedScan`]({krate_path}::scan::TypedScan))."
        );
        let field_doc = format!(
            "Key field `{field_name}`: fix it (`eq`, `is_in`), leave it free (`any`), or finish \
             the query on it (`starts_with`, `range`, `between`, `since`, `until`, `latest`)."
        );
        text += &format!(
            "#[doc = {doc:?}] #[allow(dead_code)] #[repr(transparent)] \
             {vis} struct {prefix}{depth}<{lts}const __N: usize, __Mo = {runtime}::scan::Yes> {{ \
             #[doc = {field_doc:?}] pub {field}: {step}, }}",
            prefix = src.prefix,
            runtime = src.runtime,
            step = src.step(depth),
        );
    }
    parse(&text)
}

/// `Key::scan()` and each field's description, inside the derive's const
/// block (they use its plan constants).
pub fn scan_impls(model: &KeyModel) -> TokenStream {
    if !has_builder(model) {
        return no_builder(model);
    }
    let ident = model.ident;
    let name = ident.to_string();
    let (impl_generics, ty_generics, where_clause) = model.generics.split_for_impl();
    let m = marks(model);
    let (salt, hashed) = match &model.prefix {
        Some(PrefixModel::Salt(_)) => (quote!(::core::option::Option::Some(__SALT)), false),
        Some(PrefixModel::HashPrefix(_)) => (quote!(::core::option::Option::None), true),
        None => (quote!(::core::option::Option::None), false),
    };
    let start = {
        let ident = state_ident(model, 0);
        let lts = model.generics.lifetimes().map(|l| &l.lifetime);
        quote!(#ident<#(#lts,)* __SCAN_N>)
    };
    let bucket_rule = bucket_rule(model);
    let whole_key_rule = whole_key_rule(model);
    let mut descriptions = TokenStream::new();
    for (d, f) in model.fields.iter().enumerate() {
        let (description, learn) = field::describe(model, d, f);
        descriptions.extend(parse(&description));
        descriptions.extend(learn);
    }
    let doc = format!(
        "A typed scan of `{name}` keys: name fields in key order \
         (`{name}::scan().{}.eq(..)`), then finish on a field or with `plan()`.",
        model.fields[0].name()
    );
    quote! {
        const __SCAN_N: usize = __MAX_LEN + 1;

        impl #impl_generics #ident #ty_generics #where_clause {
            #[doc = #doc]
            #[allow(dead_code)]
            #[inline]
            pub fn scan() -> __rk::scan::TypedScan<#start, __SCAN_N, #m> {
                __rk::scan::TypedScan::__new(__rk::ScanQuery::new(
                    __rk::ScanBuilder::<__SCAN_N, #m>::new(#name, __PREFIX_LEN, #salt, #hashed),
                ))
            }
        }

        #[automatically_derived]
        impl #impl_generics __rk::scan::ScanKey for #ident #ty_generics #where_clause {
            type BucketRule = #bucket_rule;
            type WholeKeyRule = #whole_key_rule;
        }

        #descriptions
    }
}

/// `in_bucket` applies: the key is salted.
fn bucket_rule(model: &KeyModel) -> TokenStream {
    match &model.prefix {
        Some(PrefixModel::Salt(_)) => quote!(__rk::scan::Yes),
        _ => quote!(__rk::scan::UnsaltedKeysHaveNoBuckets),
    }
}

/// Whether `key()` gives one whole key once every field is set: if the
/// builder can compute the bucket, in the state's mode.
fn whole_key_rule(model: &KeyModel) -> TokenStream {
    if bucket_known_at_full_depth(model) {
        quote!(__rk::scan::ModeDecides)
    } else {
        quote!(__rk::scan::CustomSaltHashesAreNotComputedHere)
    }
}

/// `krate` as an intra-doc link path (`rowkey`, not `::rowkey`).
fn doc_path(krate: &syn::Path) -> String {
    quote!(#krate)
        .to_string()
        .replace(' ', "")
        .trim_start_matches("::")
        .to_string()
}

/// Whether `key()` can compute the bucket once every field is set.
fn bucket_known_at_full_depth(model: &KeyModel) -> bool {
    match &model.prefix {
        Some(PrefixModel::Salt(s)) => !matches!(s.hash, HashChoice::Custom(_)),
        _ => true,
    }
}

/// The field whose setting completes what the bucket is computed from.
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
