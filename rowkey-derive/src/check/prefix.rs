//! Rules of `#[salt(..)]` and `#[hash_prefix(..)]`: one prefix per key, a
//! bucket count in range, groups that add up, hashes that fit the key.

use crate::attr::{FieldAttrs, HashChoice, PrefixAlgo, SaltAttr, Spanned, StructAttrs};
use crate::ctxt::Ctxt;
use crate::model::{GroupKind, GroupModel, HashPrefixModel, PrefixModel, SaltModel};
use crate::ty::{self, TypeKind};
use syn::Field;

use rowkey_core::salt::{PrefixHash, MAX_BUCKETS, PHOENIX_MAX_BUCKETS};

/// The key's prefix, from the fields' attributes; errors go to `cx`.
pub fn prefix_model(
    cx: &Ctxt,
    fields: &[&Field],
    attrs: &[FieldAttrs],
    st: &StructAttrs,
) -> Option<PrefixModel> {
    if attrs.iter().any(|a| a.prefix_malformed) {
        // One typo, one error: its error is reported, and the prefix's
        // checks would only add follow-ons (`#[salt(bucket = 32)]` then
        // "a salt needs a bucket count" at the other salted field).
        return None;
    }
    let salted: Vec<usize> = (0..attrs.len())
        .filter(|&i| attrs[i].salt.is_some())
        .collect();
    let hashed: Vec<usize> = (0..attrs.len())
        .filter(|&i| attrs[i].hash_prefix.is_some())
        .collect();
    if let (Some(_), Some(&h)) = (salted.first(), hashed.first()) {
        cx.error_at(
            attrs[h].hash_prefix.as_ref().map(|a| a.span)?,
            "a key has one prefix: #[hash_prefix] and #[salt] cannot both be used; keep one",
        );
        return None;
    }
    if let Some(&h) = hashed.first() {
        for &other in &hashed[1..] {
            cx.error_at(
                attrs[other].hash_prefix.as_ref()?.span,
                format!(
                    "#[hash_prefix] is already on field `{}`; a key has one hash prefix",
                    name(fields[h])
                ),
            );
        }
        return hash_prefix_model(cx, h, attrs[h].hash_prefix.as_ref()?, st);
    }
    if salted.is_empty() {
        return None;
    }
    salt_model(cx, fields, attrs, &salted, st).map(PrefixModel::Salt)
}

fn name(field: &Field) -> String {
    field
        .ident
        .as_ref()
        .map(|i| syn::ext::IdentExt::unraw(i).to_string())
        .unwrap_or_default()
}

fn salt_model(
    cx: &Ctxt,
    fields: &[&Field],
    attrs: &[FieldAttrs],
    salted: &[usize],
    st: &StructAttrs,
) -> Option<SaltModel> {
    // One #[salt(..)] carries the options; the other inputs are plain #[salt].
    let with_options: Vec<usize> = salted
        .iter()
        .copied()
        .filter(|&i| {
            attrs[i]
                .salt
                .as_ref()
                .is_some_and(|s| s.value.has_options())
        })
        .collect();
    let Some(&owner) = with_options.first() else {
        cx.error_at(
            attrs[salted[0]].salt.as_ref()?.span,
            "a salt needs a bucket count: write #[salt(buckets = N)] on one salted field \
             (further salted fields take a plain #[salt])",
        );
        return None;
    };
    for &i in &with_options[1..] {
        cx.error_at(
            attrs[i].salt.as_ref()?.span,
            format!(
                "the salt's options are already given on field `{}`; mark further salt inputs \
                 with a plain #[salt]",
                name(fields[owner])
            ),
        );
    }
    let attr = attrs[owner].salt.as_ref()?;
    let opts = &attr.value;
    let Some(buckets) = opts.buckets else {
        cx.error_at(
            attr.span,
            "a salt needs a bucket count: #[salt(buckets = N)], N about the number of regions",
        );
        return None;
    };
    let hash = opts
        .hash
        .as_ref()
        .map_or(HashChoice::Default, |h| h.value.clone());
    let phoenix = matches!(hash, HashChoice::Phoenix);
    check_buckets(cx, buckets, phoenix)?;
    let binary = opts.binary.is_some() || phoenix;
    if let Some(sep) = &st.separator {
        if binary {
            let at = opts
                .binary
                .or(opts.hash.as_ref().map(|h| h.span))
                .unwrap_or(attr.span);
            cx.error_at(
                at,
                format!(
                    "a binary salt byte can equal the separator '{}' of this text key; drop \
                     `binary` (text buckets) or the separator",
                    sep.value as char
                ),
            );
        }
    }
    let groups = group_model(cx, fields, opts, buckets)?;
    Some(SaltModel {
        buckets: u32::try_from(buckets.value).ok()?,
        binary,
        hash,
        inputs: salted.to_vec(),
        groups,
        span: attr.span,
    })
}

fn check_buckets(cx: &Ctxt, buckets: Spanned<usize>, phoenix: bool) -> Option<()> {
    let n = buckets.value;
    let problem = if n == 0 {
        Some("buckets must be at least 1 (keys go to buckets 0..N)".to_string())
    } else if n > MAX_BUCKETS as usize {
        Some(format!(
            "buckets = {n} is more than {MAX_BUCKETS} (two bytes); a salt needs about one \
             bucket per region"
        ))
    } else if phoenix && n > PHOENIX_MAX_BUCKETS as usize {
        Some(format!(
            "Phoenix stores its salt in one byte: SALT_BUCKETS is at most \
             {PHOENIX_MAX_BUCKETS}, not {n}"
        ))
    } else {
        None
    };
    match problem {
        Some(p) => {
            cx.error_at(buckets.span, p);
            None
        }
        None => Some(()),
    }
}

fn group_model(
    cx: &Ctxt,
    fields: &[&Field],
    opts: &SaltAttr,
    buckets: Spanned<usize>,
) -> Option<Option<GroupModel>> {
    let Some(by) = &opts.group_by else {
        for (span, what) in [
            (opts.per_group.map(|p| p.span), "per_group"),
            (opts.range.map(|r| r.span), "range"),
            (opts.groups.map(|g| g.span), "groups"),
        ] {
            if let Some(span) = span {
                cx.error_at(
                    span,
                    format!("`{what}` belongs to bucket groups: add group_by = <field>"),
                );
            }
        }
        if let Some(g) = &opts.group {
            cx.error_spanned_by(
                g,
                "`group` belongs to bucket groups: add group_by = <field>",
            );
        }
        return Some(None);
    };
    let Some(field) = fields.iter().position(|f| f.ident.as_ref() == Some(by)) else {
        let names: Vec<String> = fields.iter().map(|f| name(f)).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        cx.error_spanned_by(
            by,
            format!(
                "group_by names no field of this struct; {}",
                crate::suggest::hint(&by.to_string(), &names)
            ),
        );
        return None;
    };
    if ty::option_inner(&fields[field].ty).is_some() {
        cx.error_spanned_by(
            by,
            format!(
                "group_by field `{}` is an Option; a None has no group, so the field must \
                 always hold a value",
                name(fields[field])
            ),
        );
        return None;
    }
    let Some(per_group) = opts.per_group else {
        cx.error_spanned_by(
            by,
            "bucket groups need per_group = M: the buckets each group owns",
        );
        return None;
    };
    if per_group.value == 0 {
        cx.error_at(per_group.span, "per_group must be at least 1");
        return None;
    }
    let kind = match (&opts.range, &opts.group, &opts.groups) {
        (Some(r), None, None) => {
            if !matches!(ty::kind(&fields[field].ty), TypeKind::Int { .. }) {
                cx.error_at(
                    r.span,
                    format!(
                        "`range` numbers an integer field's groups, but `{}` is not an integer; \
                         for an enum drop `range` (its variants are the groups)",
                        name(fields[field])
                    ),
                );
                return None;
            }
            GroupKind::Range {
                lo: r.value.0,
                hi: r.value.1,
            }
        }
        (None, Some(path), Some(groups)) => GroupKind::Func {
            path: path.clone(),
            groups: u32::try_from(groups.value).unwrap_or(u32::MAX),
        },
        (None, None, None) => GroupKind::Enum,
        (None, Some(path), None) => {
            cx.error_spanned_by(
                path,
                "a `group` function needs the group count: add groups = K",
            );
            return None;
        }
        (None, None, Some(g)) => {
            cx.error_at(
                g.span,
                "`groups` goes with a `group = path::to::fn` that maps the field to 0..groups",
            );
            return None;
        }
        (Some(r), _, _) => {
            cx.error_at(
                r.span,
                "give either `range` (an integer field) or `group` + `groups` (a function), not both",
            );
            return None;
        }
    };
    if let Some(groups) = kind.groups() {
        let total = u64::from(groups) * per_group.value as u64;
        if total != buckets.value as u64 {
            cx.error_at(
                buckets.span,
                format!(
                    "buckets = {} but {groups} groups x per_group = {} is {total}; they must \
                     be equal, so every group owns its own buckets",
                    buckets.value, per_group.value
                ),
            );
            return None;
        }
    }
    Some(Some(GroupModel {
        field,
        per_group: u32::try_from(per_group.value).ok()?,
        kind,
    }))
}

fn hash_prefix_model(
    cx: &Ctxt,
    field: usize,
    attr: &Spanned<crate::attr::HashPrefixAttr>,
    st: &StructAttrs,
) -> Option<PrefixModel> {
    let hp = &attr.value;
    let len = hp.len?;
    let algo = hp.algo.map_or(PrefixAlgo::Md5, |a| a.value);
    let digest = match algo {
        PrefixAlgo::Md5 => PrefixHash::Md5,
        PrefixAlgo::Default => PrefixHash::Default,
    }
    .digest_len();
    let binary = hp.binary.is_some();
    let max = if binary { digest } else { 2 * digest };
    let unit = if binary { "bytes" } else { "hex characters" };
    if len.value == 0 {
        cx.error_at(len.span, "len must be at least 1");
        return None;
    }
    if len.value > max {
        cx.error_at(
            len.span,
            format!(
                "len = {} is more than the hash gives: at most {max} {unit}",
                len.value
            ),
        );
        return None;
    }
    if let (Some(b), Some(sep)) = (hp.binary, &st.separator) {
        cx.error_at(
            b,
            format!(
                "binary prefix bytes can equal the separator '{}' of this text key; drop `binary`",
                sep.value as char
            ),
        );
        return None;
    }
    Some(PrefixModel::HashPrefix(HashPrefixModel {
        field,
        len: len.value,
        binary,
        algo,
    }))
}
