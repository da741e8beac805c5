//! Every rule of a key layout, each error spanned at the attribute or
//! field at fault. Builds the [`KeyModel`] that expansion reads; reports
//! all problems of a struct, not just the first.

use crate::attr::{self, FieldAttrs, Spanned, StructAttrs};
use crate::ctxt::Ctxt;
use crate::model::{Codec, FieldModel, Framing, KeyModel, Reverse, DESC_TS_DIGITS};
use crate::ty::{self, TypeKind};
use proc_macro2::Span;
use syn::spanned::Spanned as _;
use syn::{Data, DeriveInput, Field, Fields, GenericParam};

/// HBase's row key limit.
const HBASE_MAX_KEY_LEN: usize = 32767;

/// Checks a `#[derive(RowKey)]` input; `None` when it has errors (all of
/// them reported to `cx`).
pub fn key_model<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Option<KeyModel<'a>> {
    let fields = struct_fields(cx, input)?;
    check_generics(cx, input);
    let attrs = attr::struct_attrs(cx, &input.attrs);
    if fields.is_empty() {
        cx.error_spanned_by(&input.ident, "a row key needs at least one field");
    }
    let separator = attrs.separator.map(|s| s.value);
    let count = fields.len();
    let models: Vec<FieldModel> = fields
        .iter()
        .enumerate()
        .filter_map(|(i, f)| field_model(cx, f, i + 1 == count, &attrs))
        .collect();
    if models.len() == count {
        check_total_len(cx, input, &attrs, &models);
    }
    let krate = attrs
        .krate
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::rowkey));
    (!cx.has_errors()).then(|| KeyModel {
        ident: &input.ident,
        generics: &input.generics,
        krate,
        separator,
        max_len: attrs.max_len,
        fields: models,
    })
}

fn struct_fields<'a>(
    cx: &Ctxt,
    input: &'a DeriveInput,
) -> Option<&'a syn::punctuated::Punctuated<Field, syn::Token![,]>> {
    match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(named) => Some(&named.named),
            Fields::Unnamed(_) | Fields::Unit => {
                cx.error_spanned_by(
                    &input.ident,
                    "#[derive(RowKey)] needs a struct with named fields: the names appear in \
                     errors, the layout and the scan builders",
                );
                None
            }
        },
        Data::Enum(e) => {
            cx.error_spanned_by(
                e.enum_token,
                "#[derive(RowKey)] is for structs; to use an enum as one field of a key, \
                 give it unit variants and #[derive(KeyPart)]",
            );
            None
        }
        Data::Union(u) => {
            cx.error_spanned_by(
                u.union_token,
                "#[derive(RowKey)] does not support unions: a key is made of all its fields",
            );
            None
        }
    }
}

fn check_generics(cx: &Ctxt, input: &DeriveInput) {
    for param in &input.generics.params {
        match param {
            GenericParam::Type(t) => cx.error_spanned_by(
                t,
                "generic type parameters are not supported: a key's MAX_LEN and layout must be \
                 known at compile time; use a concrete type (lifetimes are fine)",
            ),
            GenericParam::Const(c) => cx.error_spanned_by(
                c,
                "const generic parameters are not supported: a key's MAX_LEN must be known at \
                 compile time",
            ),
            GenericParam::Lifetime(_) => {}
        }
    }
}

fn field_model<'a>(
    cx: &Ctxt,
    field: &'a Field,
    last: bool,
    st: &StructAttrs,
) -> Option<FieldModel<'a>> {
    let ident = field.ident.as_ref()?;
    let attrs = attr::field_attrs(cx, &field.attrs);
    let (value_ty, optional) = match ty::option_inner(&field.ty) {
        Some(inner) => (inner, true),
        None => (&field.ty, false),
    };
    let kind = ty::kind(value_ty);
    let f = FieldCheck {
        cx,
        name: ident.to_string(),
        ty_span: field.ty.span(),
        kind,
        attrs: &attrs,
    };
    let codec = f.codec(last, st)?;
    let desc = attrs.desc.is_some();
    f.check_desc_and_reverse(&codec);
    if let Some(sep) = &st.separator {
        f.check_separator(&codec, sep);
    }
    let model = FieldModel {
        ident,
        ty: &field.ty,
        value_ty,
        optional,
        kind,
        codec,
        desc,
    };
    f.check_borrow(&model);
    Some(model)
}

/// The checks of one field, with what they need to word their errors.
struct FieldCheck<'c> {
    cx: &'c Ctxt,
    name: String,
    ty_span: Span,
    kind: TypeKind,
    attrs: &'c FieldAttrs,
}

impl FieldCheck<'_> {
    /// Picks the codec from the attributes and the type; errors on
    /// attributes that contradict each other or the type.
    fn codec(&self, last: bool, st: &StructAttrs) -> Option<Codec> {
        let a = self.attrs;
        let name = &self.name;
        match self.kind {
            TypeKind::PlatformInt => {
                self.cx.error_at(
                    self.ty_span,
                    format!(
                        "field `{name}`: usize/isize change width with the platform, so the \
                         stored key would too; use u64/i64 (or u32/i32)"
                    ),
                );
                return None;
            }
            TypeKind::Float => {
                self.cx.error_at(
                    self.ty_span,
                    format!(
                        "field `{name}`: floats are not key parts (NaN and -0.0 have no single \
                         sort position); store a scaled integer or implement KeyPart for a \
                         wrapper"
                    ),
                );
                return None;
            }
            _ => {}
        }
        if let Some(ts) = a.desc_ts {
            return self.desc_ts_codec(ts);
        }
        if let Some(text) = &a.text {
            return self.text_codec(text);
        }
        if let Some(pad) = &a.pad {
            if let Some(m) = &a.max_len {
                self.cx.error_at(
                    m.span,
                    "#[max_len] conflicts with #[pad]: the pad width already bounds the field; \
                     keep one",
                );
            }
            return self.pad_codec(pad, st);
        }
        if let Some(max) = &a.max_len {
            return self.max_len_codec(max, last, st);
        }
        if self.kind.is_bytes() {
            self.cx.error_at(
                self.ty_span,
                format!(
                    "field `{name}` has no length bound, so the key would have no MAX_LEN; add \
                     #[max_len(N)] (up to N bytes) or #[pad(width = N)] (always N bytes)"
                ),
            );
            return None;
        }
        if let Some(r) = &a.reverse {
            self.cx.error_at(
                r.span,
                format!(
                    "#[reverse] works on text, bytes and #[text] integers; field `{name}` is \
                     binary. For digits back to front write #[text(width = N)] #[reverse]"
                ),
            );
        }
        Some(Codec::Part)
    }

    fn not_with(&self, span: Span, what: &str, other: Option<Span>, other_name: &str, why: &str) {
        if let Some(o) = other {
            self.cx.error_at(
                o,
                format!("#[{other_name}] conflicts with #[{what}] on one field: {why}"),
            );
            let _ = span;
        }
    }

    fn desc_ts_codec(&self, ts: Span) -> Option<Codec> {
        let a = self.attrs;
        let ok_type = matches!(self.kind, TypeKind::Int { bits: 64, .. } | TypeKind::Other);
        if !ok_type {
            self.cx.error_at(
                ts,
                format!(
                    "#[desc_ts] needs an i64 or u64 timestamp, but field `{}` is not one",
                    self.name
                ),
            );
        }
        self.not_with(
            ts,
            "desc_ts",
            a.desc,
            "desc",
            "#[desc_ts] already sorts newest first",
        );
        self.not_with(
            ts,
            "desc_ts",
            a.pad.as_ref().map(|p| p.span),
            "pad",
            "a timestamp is not padded text",
        );
        self.not_with(
            ts,
            "desc_ts",
            a.max_len.as_ref().map(|m| m.span),
            "max_len",
            "a timestamp has a fixed width",
        );
        self.not_with(
            ts,
            "desc_ts",
            a.reverse.as_ref().map(|r| r.span),
            "reverse",
            "a reversed timestamp keeps no order",
        );
        let mut text = false;
        if let Some(t) = &a.text {
            text = true;
            if let Some(w) = t.value.width {
                if w.value != DESC_TS_DIGITS {
                    self.cx.error_at(
                        w.span,
                        format!(
                            "a #[desc_ts] #[text] field is always {DESC_TS_DIGITS} digits \
                             (the digits of i64::MAX - ts); remove `width` or set it to \
                             {DESC_TS_DIGITS}"
                        ),
                    );
                }
            }
        }
        ok_type.then_some(Codec::DescTs { text })
    }

    fn text_codec(&self, text: &Spanned<attr::TextAttr>) -> Option<Codec> {
        let a = self.attrs;
        let name = &self.name;
        match self.kind {
            TypeKind::Int { .. } | TypeKind::Other => {}
            _ => {
                let what = if self.kind.is_bytes() {
                    "it is text or bytes already; bound it with #[max_len(N)] or #[pad(width = N)]"
                } else {
                    "it is not an integer"
                };
                self.cx.error_at(
                    text.span,
                    format!("#[text] writes integers as decimal digits; field `{name}`: {what}"),
                );
                return None;
            }
        }
        self.not_with(
            text.span,
            "text",
            a.pad.as_ref().map(|p| p.span),
            "pad",
            "#[text(width = N)] already zero-pads digits to N",
        );
        self.not_with(
            text.span,
            "text",
            a.max_len.as_ref().map(|m| m.span),
            "max_len",
            "#[text(width = N)] already fixes the width",
        );
        let max_digits = self.kind.max_digits();
        let width = match (text.value.width, max_digits) {
            (Some(w), _) if w.value == 0 => {
                self.cx
                    .error_at(w.span, "text width must be at least 1 digit");
                return None;
            }
            (Some(w), Some(max)) if w.value > max => {
                self.cx.error_at(
                    w.span,
                    format!(
                        "width {} is more digits than field `{name}`'s type ever has ({max}); \
                         use #[text(width = {max})] or less",
                        w.value
                    ),
                );
                return None;
            }
            (Some(w), _) => w.value,
            (None, Some(max)) => max,
            (None, None) => {
                self.cx.error_at(
                    text.span,
                    format!(
                        "field `{name}`: give the number of digits, #[text(width = N)]; the \
                         type is not a plain integer type the derive can size"
                    ),
                );
                return None;
            }
        };
        let reverse = match &a.reverse {
            Some(r) if r.value.segments.is_some() => {
                self.cx.error_at(
                    r.span,
                    "#[reverse(segments = ..)] is for text; digits reverse with plain #[reverse]",
                );
                false
            }
            Some(_) => true,
            None => false,
        };
        Some(Codec::Text { width, reverse })
    }

    fn reverse(&self) -> Reverse {
        match &self.attrs.reverse {
            None => Reverse::No,
            Some(r) => match r.value.segments {
                None => Reverse::Chars,
                Some(s) => Reverse::Segments(s.value),
            },
        }
    }

    fn require_bytes(&self, span: Span, attr: &str) -> bool {
        if matches!(
            self.kind,
            TypeKind::Int { .. } | TypeKind::Bool | TypeKind::Char | TypeKind::ByteArray { .. }
        ) {
            let fix = if matches!(self.kind, TypeKind::Int { .. }) {
                "; for zero-padded numbers use #[text(width = N)]"
            } else {
                ""
            };
            self.cx.error_at(
                span,
                format!(
                    "#[{attr}] is for text and byte fields (String, &str, Vec<u8>, &[u8]); field \
                     `{}` is not one{fix}",
                    self.name
                ),
            );
            return false;
        }
        true
    }

    fn pad_codec(&self, pad: &Spanned<attr::PadAttr>, st: &StructAttrs) -> Option<Codec> {
        if !self.require_bytes(pad.span, "pad") {
            return None;
        }
        let width = pad.value.width?;
        if width.value == 0 {
            self.cx.error_at(
                width.span,
                "pad width must be at least 1 byte (it is the field's fixed size)",
            );
            return None;
        }
        if width.value > HBASE_MAX_KEY_LEN {
            self.cx.error_at(
                width.span,
                format!(
                    "pad width {} exceeds HBase's {HBASE_MAX_KEY_LEN}-byte row key limit",
                    width.value
                ),
            );
            return None;
        }
        let fill = pad.value.fill.map_or(0, |f| f.value);
        if let (Some(sep), Some(f)) = (&st.separator, &pad.value.fill) {
            if sep.value == f.value {
                self.cx.error_at(
                    f.span,
                    format!(
                        "the fill byte is the struct's separator '{}', so a padded field would \
                         look like several fields; choose another fill",
                        sep.value as char
                    ),
                );
            }
        }
        Some(Codec::Bytes {
            framing: Framing::Padded {
                width: width.value,
                fill,
                left: pad.value.left.is_some_and(|l| l.value),
            },
            max_len: width.value,
            reverse: self.reverse(),
        })
    }

    fn max_len_codec(
        &self,
        max: &Spanned<Spanned<usize>>,
        last: bool,
        st: &StructAttrs,
    ) -> Option<Codec> {
        if !self.require_bytes(max.span, "max_len") {
            return None;
        }
        let n = max.value;
        if n.value == 0 {
            self.cx.error_at(n.span, "max_len must be at least 1 byte");
            return None;
        }
        if n.value > HBASE_MAX_KEY_LEN {
            self.cx.error_at(
                n.span,
                format!(
                    "max_len {} exceeds HBase's {HBASE_MAX_KEY_LEN}-byte row key limit",
                    n.value
                ),
            );
            return None;
        }
        let framing = if st.separator.is_some() {
            Framing::Delimited
        } else if last && self.attrs.desc.is_none() {
            // The key's end delimits the last field; inverted (descending)
            // bytes still need a terminator to keep shorter values last.
            Framing::Raw
        } else {
            Framing::Escaped
        };
        Some(Codec::Bytes {
            framing,
            max_len: n.value,
            reverse: self.reverse(),
        })
    }

    fn check_desc_and_reverse(&self, codec: &Codec) {
        let (Some(desc), Some(rev)) = (self.attrs.desc, &self.attrs.reverse) else {
            return;
        };
        let _ = codec;
        self.cx.error_at(
            desc,
            format!(
                "#[desc] conflicts with #[reverse] on field `{}`: a reversed field keeps no \
                 order, so there is no order to invert; keep one",
                self.name
            ),
        );
        let _ = rev;
    }

    fn check_separator(&self, codec: &Codec, sep: &Spanned<u8>) {
        let name = &self.name;
        let s = sep.value as char;
        if let Some(d) = self.attrs.desc {
            self.cx.error_at(
                d,
                format!(
                    "#[desc] inverts bytes, which can then equal the separator '{s}'; \
                     separator-joined keys cannot hold descending fields"
                ),
            );
        }
        match codec {
            Codec::Part => self.cx.error_at(
                self.ty_span,
                match self.kind {
                    TypeKind::Int { .. } => format!(
                        "field `{name}` is a binary integer, whose bytes can include the \
                         separator '{s}'; write it as digits with #[text(width = N)]"
                    ),
                    _ => format!(
                        "field `{name}` is written as binary, whose bytes can include the \
                         separator '{s}'; a separator-joined key needs text fields"
                    ),
                },
            ),
            Codec::Text { .. } if sep.value.is_ascii_digit() => self.cx.error_at(
                sep.span,
                format!("the separator '{s}' is a digit, which field `{name}` (#[text]) writes"),
            ),
            Codec::DescTs { text: false } => self.cx.error_at(
                self.attrs.desc_ts.unwrap_or(self.ty_span),
                format!(
                    "field `{name}` is an 8-byte binary timestamp, whose bytes can include the \
                     separator '{s}'; add #[text] to write it as 19 digits"
                ),
            ),
            Codec::DescTs { text: true } if sep.value.is_ascii_digit() => self.cx.error_at(
                sep.span,
                format!("the separator '{s}' is a digit, which field `{name}` writes"),
            ),
            _ => {}
        }
    }

    fn check_borrow(&self, model: &FieldModel) {
        if !self.kind.is_borrowed() || model.borrowable() {
            return;
        }
        let why = if self.attrs.reverse.is_some() {
            "it is stored reversed"
        } else if self.attrs.desc.is_some() {
            "it is stored inverted (#[desc])"
        } else {
            "it is escaped (it is not the last field and has no #[pad])"
        };
        self.cx.error_at(
            self.ty_span,
            format!(
                "field `{}` cannot borrow from the key because {why}; use an owned type \
                 (String, Vec<u8>) or Cow<'a, str> / Cow<'a, [u8]>",
                self.name
            ),
        );
    }
}

fn check_total_len(cx: &Ctxt, input: &DeriveInput, attrs: &StructAttrs, fields: &[FieldModel]) {
    let seps = if attrs.separator.is_some() {
        fields.len().saturating_sub(1)
    } else {
        0
    };
    let Some(total) = fields
        .iter()
        .map(FieldModel::static_max_len)
        .try_fold(seps, |acc, n| n.map(|n| acc + n))
    else {
        // Some part's size is only known to the compiler: checked by a
        // const assertion in the expansion instead.
        return;
    };
    if let Some(max) = &attrs.max_len {
        if total > max.value {
            cx.error_at(
                max.span,
                format!(
                    "this layout can take up to {total} bytes, more than max_len = {}; shorten \
                     a field's width or max_len, or raise the limit",
                    max.value
                ),
            );
        }
    } else if total > HBASE_MAX_KEY_LEN {
        cx.error_spanned_by(
            &input.ident,
            format!(
                "this layout can take up to {total} bytes, more than HBase's \
                 {HBASE_MAX_KEY_LEN}-byte row key limit"
            ),
        );
    }
}
