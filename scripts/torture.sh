#!/usr/bin/env bash
# Runs the crash suite (Tests/ReliabilityTests, CrashTests) at full strength and prints a table of
# kills and invariant violations per case.
#
#   scripts/torture.sh            200 kills per case
#   PERSIST_CRASH_KILLS=50 scripts/torture.sh
#
# Exits non-zero when a test fails or any case counted a violation.
set -uo pipefail
cd "$(dirname "$0")/.."

export PERSIST_CRASH_KILLS="${PERSIST_CRASH_KILLS:-200}"
swift="${SWIFT:-swift}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

echo "crash suite: $PERSIST_CRASH_KILLS kills per case"
started=$(date +%s)
"$swift" test --filter 'ReliabilityTests\.CrashTests' >"$log" 2>&1
status=$?
elapsed=$(( $(date +%s) - started ))

# Failures, if any, before the table.
grep -E '✘|error:' "$log" | head -50

grep -E '^crash-case ' "$log" | sort -k2,2 | awk -v elapsed="$elapsed" '
    /^crash-case / {
        name = $2; kills = ""; violations = ""; outcomes = ""
        for (i = 3; i <= NF; i++) {
            split($i, pair, "=")
            if (pair[1] == "kills") kills = pair[2]
            else if (pair[1] == "violations") violations = pair[2]
            else outcomes = outcomes (outcomes == "" ? "" : " ") $i
        }
        rows[++count] = sprintf("%-26s %6s %11s   %s", name, kills, violations, outcomes)
        totalKills += kills; totalViolations += violations
    }
    END {
        printf "%-26s %6s %11s   %s\n", "case", "kills", "violations", "outcomes"
        for (i = 1; i <= count; i++) print rows[i]
        printf "%-26s %6d %11d   (%d cases, %d s)\n", "total", totalKills, totalViolations, count, elapsed
        if (count == 0 || totalViolations > 0) exit 1
    }
'
table=$?
if [ "$status" -ne 0 ]; then
    echo "the crash suite failed (swift test exited with $status)"
    exit "$status"
fi
exit "$table"
