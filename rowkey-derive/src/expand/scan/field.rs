//! One key field described to `rowkey::scan::Step`: the `ScanField` impl
//! on the field's state struct. It names the state that comes next, the
//! codec type (what `eq` and ranges take), which finishers its encoding
//! supports (or the `rowkey::scan` reason type that says why not) and,
//! for the fields a salt or hash prefix is computed from, what it learns
//! from their values. The finishers and the codecs live in `rowkey-core`.

use super::{bucket_depth, hashes_inputs, marks, state, Source};
use crate::expand::prefix;
use crate::model::{FieldCodec, FieldModel, KeyModel, PrefixModel, SaltModel};
use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use rowkey_core::layout::rules::{set_exactly, ScanRefusal};

fn hashed(model: &KeyModel, depth: usize) -> bool {
    matches!(&model.prefix, Some(PrefixModel::HashPrefix(h)) if h.field == depth)
}

/// `Yes`, or the `rowkey::scan` reason type core's rule names.
fn rule<T>(r: Result<T, ScanRefusal>) -> String {
    match r {
        Ok(_) => "__rk::scan::Yes".to_string(),
        Err(refusal) => format!("__rk::scan::{}", refusal.reason_type()),
    }
}

/// Whether field `depth` is the `group_by` field of a salt.
fn is_group_field(model: &KeyModel, depth: usize) -> bool {
    matches!(
        &model.prefix,
        Some(PrefixModel::Salt(SaltModel { groups: Some(g), .. })) if g.field == depth
    )
}

/// Whether `eq` takes `&str` / `&[u8]` (text and byte fields) rather than
/// a value of the field's type. A group field takes its own type: the
/// group function reads it.
fn takes_borrowed(model: &KeyModel, depth: usize, f: &FieldModel) -> bool {
    crate::expand::codec::scans_borrowed(f) && !is_group_field(model, depth)
}

/// `impl ScanField for State<depth>`: field `depth` described by types
/// alone (its codec, the states after it, which finishers apply). What
/// the codec writes and its options are `rowkey-core`'s, read from the
/// key's layout: a field costs the compiler no body of its own.
///
/// The description is source text (see [`super::Source`]): it names no
/// span of the user's, so nothing is lost by writing it as text. The
/// learning impl, which reads a `group_by` field's value through its
/// type (an error there points at the type), stays tokens.
pub fn describe(model: &KeyModel, depth: usize, f: &FieldModel) -> (String, TokenStream) {
    let src = Source::of(model);
    let this = src.state(depth, "__Mo");
    let last = depth + 1 == model.fields.len();
    let m = marks(model);
    // The state after the field, in the mode `__To` the step gives it:
    // the next field's, or the whole key (which remembers the last
    // field's state).
    let next = if last {
        format!(
            "__rk::scan::Whole<{}, __N, {m}usize>",
            src.state(depth, "__To")
        )
    } else {
        src.state(depth + 1, "__To")
    };
    let is_hashed = hashed(model, depth);
    let codec = codec_type(model, depth, f).to_string();

    // Core's rules: which scans the field's encoding answers.
    // A Phoenix column's `Option` is its NULL, which sorts below its
    // values: its ranges and prefixes hold no NULL (`scan::phoenix`).
    let phoenix = matches!(f.codec, FieldCodec::Phoenix { .. });
    let exact = set_exactly(f.optional && !phoenix, is_hashed);
    let prefix_rule = rule(exact.and(f.codec.prefix_scan(f.desc)));
    let range_rule = rule(exact.and(f.codec.range_scan()));
    let free_rule = rule(f.codec.leaves_free(f.optional));
    // The learning impl names the value's type only where it reads the
    // value (a `group_by` field, which steps take as its own type), so a
    // field type without the codec's trait is one error, at the encoder.
    let (learn_ty, learn_impl) = match learn(model, depth, f) {
        Some(body) => {
            let lts: Vec<_> = model.generics.lifetimes().map(|l| &l.lifetime).collect();
            let this = state(model, depth);
            let (value_param, value) = if is_group_field(model, depth) {
                (quote!(), f.ty.to_token_stream())
            } else {
                (quote!(__V: ?Sized,), quote!(__V))
            };
            let learn_impl = quote! {
                #[automatically_derived]
                impl<#(#lts,)* #value_param __Mo, const __N: usize> __rk::scan::ScanLearn<#value, __N, #m> for #this {
                    fn learn(__b: &mut __rk::ScanBuilder<__N, #m>, __s: usize, __value: &#value) {
                        #body
                    }
                }
            };
            ("Self", learn_impl)
        }
        None => ("__rk::scan::NoLearn", quote!()),
    };
    let step_field = src.step(depth);
    let lts = src.lifetimes_comma();
    // SAFETY (of the impl): the state struct is `#[repr(transparent)]`
    // with one field, of type `StepField` (the same text: `Source::step`).
    let description = format!(
        "#[automatically_derived] \
         unsafe impl<{lts} __Mo, const __N: usize> __rk::ScanField<__N, {m}usize> for {this} {{ \
         type StepField = {step_field}; \
         const DEPTH: usize = {depth}usize; type Codec = {codec}; type Learn = {learn_ty}; \
         type Next<__To> = {next}; \
         type Rules = ({free_rule}, {prefix_rule}, {range_rule}); }}"
    );
    (description, learn_impl)
}

/// The `rowkey::scan::codec` type that writes the field.
fn codec_type(model: &KeyModel, depth: usize, f: &FieldModel) -> TokenStream {
    crate::expand::codec::scan_codec(f, takes_borrowed(model, depth, f))
}

/// `learn`: what the salt or hash prefix takes from the field's value
/// (its byte span, its group, the bucket once every input is set).
fn learn(model: &KeyModel, depth: usize, f: &FieldModel) -> Option<TokenStream> {
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
        return None;
    }
    Some(quote! {
        let __e = __b.position();
        let _ = (__e, __value);
        #body
    })
}
