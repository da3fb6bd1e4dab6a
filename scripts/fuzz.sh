#!/usr/bin/env bash
# Fuzzes one of Persist's fuzz targets with libFuzzer.
#
#   scripts/fuzz.sh <target> [seconds] [extra libFuzzer options…]
#
# Targets:
#   records     persist-gdbm-fuzz: the GDBM storage format's decoders (records, keys, journals)
#   predicates  persist-predicate-fuzz: Predicate.matches and DataStoreRequest.apply(to:) against
#               ReferenceEvaluator, the sort order's laws, and BinaryValueCoding round trips
#
# Builds the target in release mode with -sanitize=fuzzer,address and -DFUZZING in its own scratch
# folder (.build-fuzz), seeds fuzz-corpus/<target> with the target's own seeds (written by its
# replay build, `--write-seeds`), and runs for the given number of seconds (default 300; pass
# -runs=N among the options to stop after N inputs instead). The saved regression inputs of the
# target, if it has any, are read as a second corpus folder. Crashing inputs land in
# fuzz-artifacts/ as <target>-crash-…; replay one with
#   swift run persist-predicate-fuzz fuzz-artifacts/predicates-crash-…
# fix what it finds, and keep it as a regression input: predicates in
# Tests/PersistTests/FuzzInputs/predicates/, records among the malformed or found inputs of
# Tests/PersistGDBMTests/StorageFormatTests.swift.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
    echo "usage: scripts/fuzz.sh records|predicates [seconds] [extra libFuzzer options…]" >&2
    exit 64
}
[ "$#" -ge 1 ] || usage
target="$1"
shift
case "$target" in
    records) product=persist-gdbm-fuzz; regressions= ;;
    predicates) product=persist-predicate-fuzz; regressions=Tests/PersistTests/FuzzInputs/predicates ;;
    *) usage ;;
esac
seconds=300
if [ "$#" -gt 0 ] && [[ "$1" != -* ]]; then
    seconds="$1"
    shift
fi
corpus="fuzz-corpus/$target"
artifacts=fuzz-artifacts

# gold crashes on the sanitizer's objects (internal error in format_file_lineno), so link with lld.
swift build -c release --scratch-path .build-fuzz --product "$product" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
if [ ! -d "$corpus" ]; then
    swift build --product "$product"
    "$(swift build --show-bin-path)/$product" --write-seeds "$corpus"
fi
folders=("$corpus")
if [ -n "$regressions" ] && [ -d "$regressions" ]; then folders+=("$regressions"); fi
mkdir -p "$artifacts"
# libFuzzer reports crashes itself; Swift's backtracer would only slow that down.
export SWIFT_BACKTRACE=enable=no
exec ".build-fuzz/release/$product" "${folders[@]}" -max_total_time="$seconds" \
    -artifact_prefix="$artifacts/$target-" -print_final_stats=1 "$@"
