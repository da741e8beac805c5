#!/usr/bin/env python3
"""Generates the structs that bench-tools/compile.sh compiles.

    gen_structs.py rowkey|serde|plain [--count 200] [--salted 40] [--seed 7]

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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=["rowkey", "serde", "plain"])
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--salted", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    salted = set(rng.sample(range(args.count), min(args.salted, args.count)))
    out = [
        f"//! {args.count} generated structs ({args.kind}); seed {args.seed}.",
        "#![allow(dead_code)]",
        "",
    ]
    if args.kind == "serde":
        out += ["use serde::{Deserialize, Serialize};", ""]
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
    print("\n".join(out))


if __name__ == "__main__":
    main()
