#!/usr/bin/env bash
# tests/fuzz/run.sh BUILD SECONDS [SEED] - run every fuzz target for SECONDS each,
# seeded from tests/fuzz/seeds/<target>/ (and its regressions), printing
# PASS/FAIL per target. Crashes land in BUILD/fuzz/crashes/<target>/.
set -u
B=$1; secs=$2
# make test passes a fixed seed so its short runs are repeatable; make fuzz
# passes none, so every long run explores anew
seed=${3:+-seed=$3}
here=$(cd "$(dirname "$0")" && pwd)
for bin in "$B"/fuzz/fuzz_*; do
	[ -x "$bin" ] || continue
	n=$(basename "$bin")
	corpus=$B/fuzz/corpus/$n; crashes=$B/fuzz/crashes/$n
	mkdir -p "$corpus" "$crashes"
	seeds=()
	[ -d "$here/seeds/$n" ] && seeds+=("$here/seeds/$n")
	# regressions must still pass on their own
	if [ -d "$here/regressions/$n" ] && ls "$here/regressions/$n"/* >/dev/null 2>&1; then
		if ! "$bin" "$here/regressions/$n"/* >"$B/fuzz/$n.regress.log" 2>&1; then
			echo "FAIL $n: a regression input fails again (see $B/fuzz/$n.regress.log)"; continue
		fi
	fi
	log=$B/fuzz/$n.log
	if "$bin" $seed -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-artifact_prefix="$crashes/" -print_final_stats=1 "$corpus" "${seeds[@]}" >"$log" 2>&1; then
		execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
		echo "PASS $n (${execs:-?} runs in ${secs}s)"
	else
		echo "FAIL $n: see $log and $crashes/"
		grep -m3 -E 'ERROR|SUMMARY' "$log"
	fi
done
