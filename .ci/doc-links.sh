#!/usr/bin/env bash
# Fails when the HTML that `cargo doc` built holds an intra-doc link that
# rustdoc left unlinked. Run after `cargo doc --workspace --no-deps`.
#
# rustdoc lints a crate's own links (`-D warnings`), but not the docs it
# shows on another crate's page: a trait's methods on an implementor's
# page, items inlined by the facade. When it cannot place the defining
# crate's docs there (with `--no-deps`, cargo documents the workspace's
# crates in no set order, so a crate's docs may not exist yet), it writes
# the link out silently:
#   [<code>Store::query</code>]   a [`Store::query`] link, as text
#   [Store::query]                the same link without backticks
#   href="rowkey_core::store::X"  a [`X`](rowkey_core::store::X) link whose
#                                 href is the Rust path itself
# Each library crate sets `#![doc(html_root_url)]` so that rustdoc can
# always place it; this checks that every such link came out as a link,
# in every crate's pages, and that the html_root_urls name the version.
#
# Not checked: the blanket impls of dependencies whose docs rustdoc cannot
# place either (tracing's `Instrument`, tower's `Discover`, futures'
# `StreamExt`, shown on every type's page). Their text is theirs, not this
# workspace's; such an impl has no "Source" link, which tells it apart
# from any impl written here. Their count is printed.
set -euo pipefail
cd "$(dirname "$0")/.."

doc="${CARGO_TARGET_DIR:-target}/doc"
if [ ! -f "$doc/rowkey/index.html" ]; then
    echo "doc-links: no docs in $doc: run cargo doc --workspace --no-deps first" >&2
    exit 1
fi

status=0

# The html_root_urls name the workspace's version.
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
for lib in src/lib.rs rowkey-core/src/lib.rs rowkey-derive/src/lib.rs rowkey-store/src/lib.rs \
    rowkey-bigtable/src/lib.rs rowkey-hbase/src/lib.rs hbase-native/src/lib.rs; do
    if ! grep -q "^#!\[doc(html_root_url = \"https://docs.rs/[a-z-]*/$version\")\]" "$lib"; then
        echo "doc-links: $lib: no #![doc(html_root_url = \"https://docs.rs/<crate>/$version\")]" >&2
        status=1
    fi
done

# Every page of every crate this workspace documents (not the source
# view, which shows doc comments unrendered).
mapfile -t pages < <(find "$doc" -path "$doc/src" -prune -o -path "$doc/static.files" -prune \
    -o -name '*.html' -print | sort)

# For each page: cut it at each impl block, drop the blocks without a
# Source link (a dependency's, see above), drop code blocks and code
# spans that are not a link's text, then look for the three patterns.
# Prints "page: text" per link left unlinked, and the skipped count last.
report=$(perl -e '
    my ($bad, $skipped) = (0, 0);
    for my $page (@ARGV) {
        open(my $fh, "<", $page) or die "$page: $!";
        local $/; my $html = <$fh>; close $fh;
        my @blocks = split /(?=<details class="toggle implementors-toggle")/, $html;
        for my $block (@blocks) {
            my $foreign = $block =~ /^<details class="toggle implementors-toggle"/
                && $block !~ /^<details[^>]*><summary><section id="[^"]*" class="impl"><a class="src rightside"/;
            my @hits;
            while ($block =~ /(\[<code>[^<]*<\/code>\])/g) { push @hits, $1 }
            while ($block =~ /href="([A-Za-z_][A-Za-z0-9_]*::[^"]*)"/g) { push @hits, "href=\"$1\"" }
            (my $text = $block) =~ s/<pre.*?<\/pre>//gs;
            $text =~ s/<code>.*?<\/code>//gs;
            while ($text =~ /(\[[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z0-9_]+)+(?:\(\))?\])/g) { push @hits, $1 }
            if ($foreign) { $skipped += @hits; next }
            for my $hit (@hits) { print "$page: $hit\n"; $bad++ }
        }
    }
    print "SKIPPED $skipped\n";
' "${pages[@]}")

skipped=$(printf '%s\n' "$report" | sed -n 's/^SKIPPED //p')
unlinked=$(printf '%s\n' "$report" | grep -v '^SKIPPED ' || true)
if [ -n "$unlinked" ]; then
    echo "doc-links: links left unlinked in the built docs:" >&2
    printf '%s\n' "$unlinked" | sort | uniq -c | sort -rn >&2
    status=1
fi
echo "doc-links: ${#pages[@]} pages checked; $skipped unlinked links in dependencies' blanket impls not checked"
exit $status
