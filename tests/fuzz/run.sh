#!/usr/bin/env bash
# run.sh BUILDDIR SECONDS [TARGET...] — runs the libFuzzer targets of a
# -Dfuzzing=true build, each for SECONDS, FUZZ_JOBS of them at a time
# (default 2, the cores CI has; each target is one process), over the
# corpora in BUILDDIR/fuzz-corpus
# (assembled by seed-corpora.sh). Crashes land in BUILDDIR/fuzz-artifacts;
# each run's log in BUILDDIR/fuzz-logs/TARGET.log, and one line a target
# (executions, executions/s, crash or not) on standard output.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: run.sh BUILDDIR SECONDS [TARGET...]}" && pwd)
secs=${2:?usage: run.sh BUILDDIR SECONDS [TARGET...]}
shift 2
if [ $# -eq 0 ]; then
	# every libFuzzer target the build has
	set -- $(cd "$build/tests/fuzz" && ls fuzz-* | grep -v '^fuzz-replay-' |
	         sed 's/^fuzz-//')
fi
"$here/seed-corpora.sh" "$build/fuzz-corpus" "$@"
mkdir -p "$build/fuzz-artifacts" "$build/fuzz-logs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
jobs=${FUZZ_JOBS:-2}
fuzz_one() {   # fuzz_one TARGET: runs it, prints its line, exits non-zero on a find
	local t=$1 log=$build/fuzz-logs/$1.log st runs rate result=ok
	"$build/tests/fuzz/fuzz-$t" -max_total_time="$secs" -max_len=65536 \
		-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$build/fuzz-artifacts/$t-" \
		"$build/fuzz-corpus/$t" >"$log" 2>&1
	st=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	[ "$st" = 0 ] || result="FOUND (exit $st; see $log)"
	echo "$t: ${runs:-?} executions, ${rate:-?}/s: $result"
	[ "$st" = 0 ]
}
status=0 running=0
for t in "$@"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n || status=1
		running=$((running - 1))
	fi
	fuzz_one "$t" &
	running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
	wait -n || status=1
	running=$((running - 1))
done
exit $status
