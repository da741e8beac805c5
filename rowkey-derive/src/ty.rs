//! What the derive can tell about a field's type from its syntax. The
//! answers only sharpen error messages and pick defaults; trait bounds in
//! the generated code are the final word (a type alias still works).

use syn::visit_mut::VisitMut;
use syn::{GenericArgument, PathArguments, Type};

/// The shape of a field's type, as far as the syntax shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeKind {
    /// `u8`..`u128`, `i8`..`i128`.
    Int { signed: bool, bits: u32 },
    /// `usize` / `isize`: width depends on the platform.
    PlatformInt,
    /// `f32` / `f64`.
    Float,
    /// `String`, `&str`, `Box<str>`, `Cow<str>`.
    Text { borrowed: bool },
    /// `Vec<u8>`, `&[u8]`, `Box<[u8]>`, `Cow<[u8]>`.
    Bytes { borrowed: bool },
    /// `bool`.
    Bool,
    /// `char`.
    Char,
    /// `[u8; N]` with a literal `N`.
    ByteArray { len: Option<usize> },
    /// Anything else: a user's `KeyPart`, an enum, an alias.
    Other,
}

impl TypeKind {
    /// Whether the type is text or bytes (variable length).
    pub fn is_bytes(self) -> bool {
        matches!(self, TypeKind::Text { .. } | TypeKind::Bytes { .. })
    }

    /// Whether decoding can only borrow (`&str`, `&[u8]`).
    pub fn is_borrowed(self) -> bool {
        matches!(
            self,
            TypeKind::Text { borrowed: true } | TypeKind::Bytes { borrowed: true }
        )
    }

    /// Decimal digits of the largest value, for integers.
    pub fn max_digits(self) -> Option<usize> {
        match self {
            TypeKind::Int { signed, bits } => Some(rowkey_core::layout::rules::int_digits(
                bits as usize / 8,
                signed,
            )),
            _ => None,
        }
    }

    /// Bytes of the binary encoding, when the syntax shows it.
    pub fn binary_len(self) -> Option<usize> {
        match self {
            TypeKind::Int { bits, .. } => Some(bits as usize / 8),
            TypeKind::Bool => Some(1),
            TypeKind::Char => Some(4),
            TypeKind::ByteArray { len } => len,
            _ => None,
        }
    }
}

/// The type inside invisible groups (a `$ty` passed through
/// `macro_rules!`) and parentheses.
fn ungroup(mut ty: &Type) -> &Type {
    loop {
        match ty {
            Type::Group(g) => ty = &g.elem,
            Type::Paren(p) => ty = &p.elem,
            _ => return ty,
        }
    }
}

/// `T` of `Option<T>`, if the type is written as an `Option`.
pub fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ungroup(ty) else {
        return None;
    };
    if p.qself.is_some() {
        return None;
    }
    let seg = p.path.segments.last()?;
    let is_option = seg.ident == "Option"
        && (p.path.segments.len() == 1 || p.path.segments.iter().any(|s| s.ident == "option"));
    if !is_option {
        return None;
    }
    single_type_arg(&seg.arguments)
}

fn single_type_arg(args: &PathArguments) -> Option<&Type> {
    let PathArguments::AngleBracketed(a) = args else {
        return None;
    };
    let mut types = a.args.iter().filter_map(|g| match g {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    });
    let first = types.next()?;
    types.next().is_none().then_some(first)
}

/// Classifies a (non-`Option`) type.
pub fn kind(ty: &Type) -> TypeKind {
    match ungroup(ty) {
        Type::Reference(r) => match ungroup(&r.elem) {
            Type::Path(p) if p.path.is_ident("str") => TypeKind::Text { borrowed: true },
            Type::Slice(s) if is_u8(&s.elem) => TypeKind::Bytes { borrowed: true },
            _ => TypeKind::Other,
        },
        Type::Array(a) if is_u8(&a.elem) => TypeKind::ByteArray {
            len: match &a.len {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(i),
                    ..
                }) => i.base10_parse().ok(),
                _ => None,
            },
        },
        Type::Path(p) if p.qself.is_none() => {
            let Some(seg) = p.path.segments.last() else {
                return TypeKind::Other;
            };
            let name = seg.ident.to_string();
            match name.as_str() {
                "u8" | "u16" | "u32" | "u64" | "u128" | "i8" | "i16" | "i32" | "i64" | "i128"
                    if p.path.segments.len() == 1 =>
                {
                    TypeKind::Int {
                        signed: name.starts_with('i'),
                        bits: name[1..].parse().unwrap_or(64),
                    }
                }
                "usize" | "isize" => TypeKind::PlatformInt,
                "f32" | "f64" => TypeKind::Float,
                "bool" => TypeKind::Bool,
                "char" => TypeKind::Char,
                "String" => TypeKind::Text { borrowed: false },
                "Vec" if single_type_arg(&seg.arguments).is_some_and(is_u8) => {
                    TypeKind::Bytes { borrowed: false }
                }
                "Box" | "Cow" => match single_type_arg(&seg.arguments).map(ungroup) {
                    Some(Type::Path(t)) if t.path.is_ident("str") => {
                        TypeKind::Text { borrowed: false }
                    }
                    Some(Type::Slice(s)) if is_u8(&s.elem) => TypeKind::Bytes { borrowed: false },
                    _ => TypeKind::Other,
                },
                _ => TypeKind::Other,
            }
        }
        _ => TypeKind::Other,
    }
}

/// The last path segment's name (`Uuid` of `uuid::Uuid`), if the type
/// is a path.
pub fn last_ident(ty: &Type) -> Option<String> {
    match ungroup(ty) {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

fn is_u8(ty: &Type) -> bool {
    matches!(ungroup(ty), Type::Path(p) if p.path.is_ident("u8"))
}

/// Whether the type names the `'static` lifetime.
pub fn mentions_static(ty: &Type) -> bool {
    struct Finder(bool);
    impl<'ast> syn::visit::Visit<'ast> for Finder {
        fn visit_lifetime(&mut self, l: &'ast syn::Lifetime) {
            self.0 |= l.ident == "static";
        }
    }
    let mut f = Finder(false);
    syn::visit::Visit::visit_type(&mut f, ty);
    f.0
}

/// Whether the type borrows: a reference or any lifetime in it.
pub fn borrows(ty: &Type) -> bool {
    struct Finder(bool);
    impl<'ast> syn::visit::Visit<'ast> for Finder {
        fn visit_lifetime(&mut self, _: &'ast syn::Lifetime) {
            self.0 = true;
        }
        fn visit_type_reference(&mut self, _: &'ast syn::TypeReference) {
            self.0 = true;
        }
    }
    let mut f = Finder(false);
    syn::visit::Visit::visit_type(&mut f, ty);
    f.0
}

/// The type with every lifetime replaced by `'static`, for use in consts
/// (which cannot name the struct's lifetimes).
pub fn with_static_lifetimes(ty: &Type) -> Type {
    struct Staticize;
    impl VisitMut for Staticize {
        fn visit_lifetime_mut(&mut self, l: &mut syn::Lifetime) {
            *l = syn::Lifetime::new("'static", l.apostrophe);
        }
        fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
            if r.lifetime.is_none() {
                r.lifetime = Some(syn::Lifetime::new("'static", r.and_token.span));
            }
            syn::visit_mut::visit_type_reference_mut(self, r);
        }
    }
    let mut ty = ty.clone();
    Staticize.visit_type_mut(&mut ty);
    ty
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn classifies() {
        assert_eq!(
            kind(&parse_quote!(u64)),
            TypeKind::Int {
                signed: false,
                bits: 64
            }
        );
        assert_eq!(
            kind(&parse_quote!(&'a str)),
            TypeKind::Text { borrowed: true }
        );
        assert_eq!(
            kind(&parse_quote!(Cow<'a, [u8]>)),
            TypeKind::Bytes { borrowed: false }
        );
        assert_eq!(
            kind(&parse_quote!([u8; 16])),
            TypeKind::ByteArray { len: Some(16) }
        );
        assert_eq!(kind(&parse_quote!(MyId)), TypeKind::Other);
        assert!(option_inner(&parse_quote!(Option<String>)).is_some());
        assert!(option_inner(&parse_quote!(std::option::Option<u8>)).is_some());
        assert!(option_inner(&parse_quote!(my::Option<u8>)).is_none());
    }
}
