#!/usr/bin/env bash
# tests/run.sh BUILD [format|ship|unit|fixtures|ui|fuzz|e2e]... - run the suites and count.
# Every test prints "PASS name", "FAIL name" or "SKIP name: why" (it could
# not run here: not root, a build output missing); the last line of the
# run is "N passed, N failed, N skipped". Under CI (CI=true) a skip is a
# failure unless tests/ci-skips names that test with the reason it cannot
# run on CI's machine. Logs go to BUILD/test-logs/.
set -u
B=$1; shift
suites=${*:-format ship unit fixtures ui fuzz e2e}
logs=$B/test-logs
rm -rf "$logs"; mkdir -p "$logs"
out=$logs/all.txt
: > "$out"


for s in $suites; do
	case $s in
	unit)
		for t in "$B"/asan/tests/test_*; do
			[ -x "$t" ] || continue
			n=$(basename "$t")
			echo "== unit $n" | tee -a "$out"
			before=$(grep -c '^FAIL' "$out")
			( cd "$(dirname "$0")/.." && ASAN_OPTIONS=detect_leaks=1 "$t" ) 2>"$logs/$n.stderr" | tee -a "$out"
			rc=${PIPESTATUS[0]}
			after=$(grep -c '^FAIL' "$out")
			if [ "$rc" -ne 0 ] && [ "$after" -eq "$before" ]; then
				echo "FAIL $n: exited $rc (sanitizer report in $logs/$n.stderr)" | tee -a "$out"
				tail -20 "$logs/$n.stderr"
			fi
		done ;;
	format)
		bash "$(dirname "$0")/../scripts/format.sh" --check | tee -a "$out" ;;
	ship)
		bash "$(dirname "$0")/ship.sh" "$B" | tee -a "$out" ;;
	fixtures)
		bash "$(dirname "$0")/fixtures/run.sh" "$B" | tee -a "$out" ;;
	fuzz)
		bash "$(dirname "$0")/fuzz/run.sh" "$B" "${FUZZ_SMOKE_SECONDS:-3}" "${FUZZ_SEED:-1}" | tee -a "$out" ;;
	ui|e2e)
		for t in "$(dirname "$0")"/$s/test_*.py; do
			[ -f "$t" ] || continue
			n=$(basename "$t" .py)
			echo "== $s $n" | tee -a "$out"
			before=$(grep -c '^FAIL' "$out")
			python3 "$t" "$B" 2>"$logs/$n.stderr" | tee -a "$out"
			rc=${PIPESTATUS[0]}
			if [ "$rc" -ne 0 ] && [ "$(grep -c '^FAIL' "$out")" -eq "$before" ]; then
				echo "FAIL $n: exited $rc" | tee -a "$out"
				tail -20 "$logs/$n.stderr"
			fi
		done ;;
	esac
done
# CI runs every test: a skip not listed in tests/ci-skips fails the run
if [ "${CI:-}" = true ]; then
	allowed=$(dirname "$0")/ci-skips
	grep '^SKIP ' "$out" | while read -r _ name _; do
		name=${name%:}
		grep -q "^${name}:" "$allowed" 2>/dev/null ||
			echo "FAIL $name: skipped, and CI must run it (tests/ci-skips)"
	done | tee -a "$out"
fi
p=$(grep -c '^PASS' "$out"); f=$(grep -c '^FAIL' "$out"); k=$(grep -c '^SKIP' "$out")
if [ "$k" -ne 0 ]; then echo "skipped:"; grep '^SKIP' "$out"; fi
if [ "$f" -ne 0 ]; then echo "failed:"; grep '^FAIL' "$out"; fi
echo "$p passed, $f failed, $k skipped"
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
