#!/bin/sh
# Links heraldd, heraldctl and herald-notify as one static program, `herald`, that runs as
# the program it is started as (docs/operations.md, "One program, three names"): what the
# three share — the Swift runtime, FoundationEssentials, SwiftNIO, Herald's own modules —
# is on the disk once. herald-sync stays a program of its own: it alone needs libmosquitto
# (and through it OpenSSL), which heraldd should neither need nor load.
#
# Usage: scripts/link-multicall.sh BIN_DIR OUTPUT
#   BIN_DIR: `swift build -c release --static-swift-stdlib --show-bin-path`, after that build.
# Reads the object lists SwiftPM wrote for the three products (P.product/Objects.LinkFileList)
# and links their union with scripts/multicall/main.c, which calls each module's entry
# (`heraldd_main`, …, as SwiftPM names it) by the name in argv[0]. MULTICALL_LDFLAGS adds
# flags to the link (measuring `-Xlinker --no-export-dynamic`, say).
set -eu
bin=$1
output=$2
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for program in heraldd heraldctl herald-notify; do
    list="$bin/$program.product/Objects.LinkFileList"
    [ -f "$list" ] || { echo "link-multicall: no $list; build the release programs first" >&2; exit 1; }
    cat "$list"
done | sort -u >"$work/objects"
clang -O2 -c "$here/multicall/main.c" -o "$work/main.o"
rm -f "$output"
# The mktemp warning is FoundationEssentials' own, as in every static link of it.
# shellcheck disable=SC2046,SC2086 # pkg-config's flags and MULTICALL_LDFLAGS are words
swiftc -target x86_64-unknown-linux-gnu -static-stdlib -emit-executable -module-name herald \
    $(pkg-config --libs libsystemd) -Xlinker --gc-sections ${MULTICALL_LDFLAGS:-} \
    @"$work/objects" "$work/main.o" -o "$output" 2>&1 | grep -v "the use of .mktemp' is dangerous" >&2 || true
[ -x "$output" ] || { echo "link-multicall: the link did not make $output" >&2; exit 1; }
