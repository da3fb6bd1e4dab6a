#!/usr/bin/env bash
# Fuzzes the GDBM storage format's decoders (records, keys, journals) with libFuzzer.
#
#   scripts/fuzz-records.sh [seconds] [extra libFuzzer options…]
#
# Builds persist-gdbm-fuzz in release mode with -sanitize=fuzzer,address and -DFUZZING in its own
# scratch folder (.build-fuzz), seeds fuzz-corpus/records with valid inputs, and runs for the given
# number of seconds (default 300). Crashing inputs land in fuzz-artifacts/; replay one with
#   swift run persist-gdbm-fuzz fuzz-artifacts/crash-…
# and add it to the regression inputs in Tests/PersistGDBMTests/StorageFormatTests.swift.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-300}"
if [ "$#" -gt 0 ]; then shift; fi
corpus=fuzz-corpus/records
artifacts=fuzz-artifacts

# gold crashes on the sanitizer's objects (internal error in format_file_lineno), so link with lld.
swift build -c release --scratch-path .build-fuzz --product persist-gdbm-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
if [ ! -d "$corpus" ]; then
    swift build --product persist-gdbm-fuzz
    "$(swift build --show-bin-path)/persist-gdbm-fuzz" --write-seeds "$corpus"
fi
mkdir -p "$artifacts"
# libFuzzer reports crashes itself; Swift's backtracer would only slow that down.
export SWIFT_BACKTRACE=enable=no
exec .build-fuzz/release/persist-gdbm-fuzz "$corpus" -max_total_time="$seconds" \
    -artifact_prefix="$artifacts/" -print_final_stats=1 "$@"
