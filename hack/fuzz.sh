#!/usr/bin/env bash
# Runs every Go fuzz target of the module, one at a time (go test -fuzz
# takes one target per run), each for FUZZTIME (default 1m). Targets are
# found by their "func FuzzXxx(" lines, so none is forgotten.
#   FUZZTIME=3m hack/fuzz.sh            every target
#   FUZZ=Render hack/fuzz.sh            only targets whose name matches
#   FUZZMINIMIZETIME=30s hack/fuzz.sh   time to minimise each new input
#                                       (default 10s; Go's own 60s looks
#                                       like a hang on a large input)
#   FUZZ_SAVE=20 hack/fuzz.sh           after each target, copy up to 20 of
#                                       the inputs it found into the
#                                       package's testdata/fuzz/FuzzXxx/
# Every target runs; the exit status is 1 when any failed (a crasher is
# written to its testdata/fuzz, where it fails go test until fixed).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-1m}
PARALLEL=${FUZZPARALLEL:-1}
MINIMIZE=${FUZZMINIMIZETIME:-10s}
cache="$($GO env GOCACHE)/fuzz"
mod=$($GO list -m)
status=0
while IFS=: read -r file name; do
	dir=$(dirname "$file")
	[[ -n "${FUZZ:-}" && ! "$name" =~ $FUZZ ]] && continue
	echo "== $name ($dir, $FUZZTIME)"
	if ! $GO test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "$MINIMIZE" -parallel "$PARALLEL" "./$dir"; then
		echo "== $name FAILED"
		status=1
	fi
	if [[ "${FUZZ_SAVE:-0}" -gt 0 && -d "$cache/$mod/${dir#./}/$name" ]]; then
		mkdir -p "$dir/testdata/fuzz/$name"
		ls -S "$cache/$mod/${dir#./}/$name" | tail -n "$FUZZ_SAVE" | while read -r f; do
			cp "$cache/$mod/${dir#./}/$name/$f" "$dir/testdata/fuzz/$name/$f"
		done
	fi
done < <(git grep -o -E '^func Fuzz[A-Za-z0-9_]+\(' -- '*_test.go' | sed -E 's/:func (Fuzz[A-Za-z0-9_]+)\(/:\1/' | sort)
exit $status
