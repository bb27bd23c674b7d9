#!/usr/bin/env bash
# tests/fuzz/longrun.sh BUILD TARGET... - the long fuzz run of issue #7:
# each TARGET (fuzz_grub, ...) for 10 million executions, one after the
# other, with run.sh's limits. Run one per free core.
#
# The binary is copied to BUILD/fuzz-long/bin/ first, so a rebuild cannot
# change it mid-run; the corpus (BUILD/fuzz-long/corpus/TARGET) is kept
# between runs and seeded from tests/fuzz/seeds/TARGET. Each run's log is
# BUILD/fuzz-long/TARGET.log (libFuzzer's final stat:: lines are the
# figures LONGRUN.md records), crashes go to BUILD/fuzz-long/crashes/TARGET/,
# and BUILD/fuzz-long/times gets the start, the end and the exit status.
# CAP (seconds, default 28800) stops a run early; RUNS (default 10000000)
# sets the count; MAX_LEN (default 65536, as run.sh) the longest input;
# TIMEOUT (default 10, as run.sh) the seconds one input may take, on the
# wall clock: a run under nice beside a busy machine may need more.
# Exit status: 0 when every run ended cleanly.
set -u
B=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
out=$B/fuzz-long
status=0
mkdir -p "$out/bin"
for n in "$@"; do
	if [ ! -x "$B/fuzz/$n" ]; then
		echo "longrun: $B/fuzz/$n is not built (make $B/fuzz/$n)" >&2
		status=1; continue
	fi
	cp "$B/fuzz/$n" "$out/bin/$n"
	mkdir -p "$out/corpus/$n" "$out/crashes/$n"
	echo "$n start $(date -u +%FT%TZ) $(git -C "$here" rev-parse --short HEAD 2>/dev/null) max_len=${MAX_LEN:-65536} timeout=${TIMEOUT:-10}" >>"$out/times"
	"$out/bin/$n" -runs="${RUNS:-10000000}" -max_total_time="${CAP:-28800}" \
		-timeout="${TIMEOUT:-10}" -rss_limit_mb=2048 -max_len="${MAX_LEN:-65536}" \
		-artifact_prefix="$out/crashes/$n/" -print_final_stats=1 \
		"$out/corpus/$n" "$here/seeds/$n" >"$out/$n.log" 2>&1
	rc=$?
	echo "$n end $(date -u +%FT%TZ) rc=$rc" >>"$out/times"
	grep -E 'stat::(number_of_executed_units|average_exec_per_sec)' "$out/$n.log"
	[ "$rc" -eq 0 ] || status=1
done
exit $status
