#!/usr/bin/env python3
"""Generates the structs that bench-tools/compile.sh compiles.

    gen_structs.py rowkey|serde|plain [--count 200] [--salted 40] [--seed 7]
                   [--use rowkey|serde]

prints a lib.rs with COUNT structs of 3-6 fields (u32, u64, i64, String,
&'a str), the same structs for every kind (same seed):

- rowkey: `#[derive(rowkey::RowKey)]` with field attributes (#[text],
  #[text(width = N)], #[pad(width = N)], #[desc_ts] on i64, #[max_len(N)]
  on String/&str) and `#[salt(buckets = 16)]` on one field of SALTED
  structs, chosen so that every struct compiles under the derive's rules:
  every String/&str is bounded (#[max_len] or #[pad]); a `&'a str` is
  #[pad]ded or the last field (an escaped field cannot borrow); #[text]
  and #[desc_ts] only on integers (#[desc_ts] only on i64, never with
  a #[text] width); no separator, so binary fields are fine.
- serde: the same fields without attributes, `#[derive(Serialize,
  Deserialize)]`.
- plain: no derive at all (the baseline for counting expanded lines).

--use KIND (compile.sh -u) also gives every struct a function that uses
it once, `pub fn use_keyNNN() -> bool`: it builds a value (the same
values for every kind: integer fields i + 1, text fields "s<i>", all
within the attributes' widths and lengths), encodes it, decodes the
bytes back, and compares the first field with the original's:

- rowkey: `value.to_key().unwrap()`, then `KeyNNN::decode(&key).unwrap()`
- serde: `memcomparable::to_vec(&value).unwrap()`, then
  `memcomparable::from_slice::<KeyNNN>(&bytes).unwrap()`

KIND is the crate's kind for rowkey and serde; with plain it picks which
functions to add to the bare structs (the baseline for the expansion of a
crate in use). The functions contain no macro calls, so they expand to
themselves. memcomparable compiles a `&'a str` field but refuses it when
decoding (it has no borrowed strings): the serde functions of structs with
one would return an error at run time, which is no matter for compile cost.
"""

import argparse
import random

INT_DIGITS = {"u32": 10, "u64": 20, "i64": 19}


def gen_struct(rng, index, salted):
    """One struct: a list of (name, type, [attributes]), and its name."""
    n = rng.randint(3, 6)
    fields = []
    for i in range(n):
        last = i == n - 1
        ty = rng.choice(["u32", "u64", "i64", "String", "&'a str"])
        attrs = []
        if ty in INT_DIGITS:
            roll = rng.random()
            if ty == "i64" and roll < 0.35:
                attrs.append("#[desc_ts]")
            elif roll < 0.55:
                attrs.append("#[text]")
            elif roll < 0.75:
                width = rng.randint(4, INT_DIGITS[ty])
                attrs.append(f"#[text(width = {width})]")
        elif ty == "String":
            if rng.random() < 0.5:
                attrs.append(f"#[max_len({rng.choice([8, 16, 32, 64])})]")
            else:
                attrs.append(f"#[pad(width = {rng.randint(4, 24)})]")
        else:  # &'a str: borrowable only when padded or last
            if last and rng.random() < 0.5:
                attrs.append(f"#[max_len({rng.choice([16, 32, 64, 128])})]")
            else:
                attrs.append(f"#[pad(width = {rng.randint(4, 24)})]")
        stem = "ref_str" if ty.startswith("&") else ty.lower()
        fields.append([f"f{i}_{stem}", ty, attrs])
    if salted:
        fields[rng.randrange(n)][2].insert(0, "#[salt(buckets = 16)]")
    return f"Key{index:03}", fields


def value_of(index, ty):
    """The value of field `index` of type `ty`, as a Rust expression: it fits
    every width and length gen_struct can give the field (#[text(width)] is
    at least 4 digits, #[pad] and #[max_len] at least 4 bytes)."""
    if ty in INT_DIGITS:
        return str(index + 1)
    if ty == "String":
        return f'String::from("s{index}")'
    return f'"s{index}"'


def use_fn(kind, name, fields):
    """`pub fn use_<name>() -> bool`: encode a value of the struct, decode
    it back, compare the first field."""
    inits = ", ".join(f"{fname}: {value_of(i, ty)}" for i, (fname, ty, _) in enumerate(fields))
    first = fields[0][0]
    out = [
        f"pub fn use_{name.lower()}() -> bool {{",
        f"    let value = {name} {{ {inits} }};",
    ]
    if kind == "rowkey":
        out += [
            "    let key = value.to_key().unwrap();",
            f"    let back = {name}::decode(&key).unwrap();",
        ]
    else:
        out += [
            "    let bytes = memcomparable::to_vec(&value).unwrap();",
            f"    let back = memcomparable::from_slice::<{name}>(&bytes).unwrap();",
        ]
    out += [f"    back.{first} == value.{first}", "}", ""]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=["rowkey", "serde", "plain"])
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--salted", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--use", choices=["rowkey", "serde"], dest="use_kind",
                    help="also a function per struct that encodes and decodes it "
                         "(the rowkey or serde + memcomparable way)")
    args = ap.parse_args()
    if args.use_kind and args.kind != "plain" and args.use_kind != args.kind:
        ap.error(f"--use {args.use_kind} with {args.kind}: a crate uses its own derives")

    rng = random.Random(args.seed)
    salted = set(rng.sample(range(args.count), min(args.salted, args.count)))
    in_use = f", each encoded and decoded once ({args.use_kind})" if args.use_kind else ""
    out = [
        f"//! {args.count} generated structs ({args.kind}){in_use}; seed {args.seed}.",
        "#![allow(dead_code)]",
        "",
    ]
    if args.kind == "serde":
        out += ["use serde::{Deserialize, Serialize};", ""]
    if args.use_kind == "rowkey":
        out += ["use rowkey::RowKey as _;", ""]
    for index in range(args.count):
        name, fields = gen_struct(rng, index, index in salted)
        lifetime = "<'a>" if any(ty.startswith("&") for _, ty, _ in fields) else ""
        if args.kind == "rowkey":
            out.append("#[derive(rowkey::RowKey)]")
        elif args.kind == "serde":
            out.append("#[derive(Serialize, Deserialize)]")
        out.append(f"pub struct {name}{lifetime} {{")
        for fname, ty, attrs in fields:
            if args.kind == "rowkey":
                out += [f"    {a}" for a in attrs]
            out.append(f"    pub {fname}: {ty},")
        out += ["}", ""]
        if args.use_kind:
            out += use_fn(args.use_kind, name, fields)
    print("\n".join(out))


if __name__ == "__main__":
    main()
