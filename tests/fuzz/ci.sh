#!/usr/bin/env bash
# ci.sh [SECONDS] — the fuzzers as CI runs them (.ci/run, after
# tests/run-all): builds build-fuzz with clang (-Dfuzzing=true, ASan and
# UBSan) and runs every libFuzzer target of the build for SECONDS each
# (default $FUZZ_SECONDS, else 20) on its seed corpus (run.sh). Fails when a
# target fails to build or finds a crash, a leak or a timeout; the input is
# left in build-fuzz/fuzz-artifacts. `ci.sh --build` only builds;
# `ci.sh --run [SECONDS]` only runs what an earlier --build built
# (tests/run-all builds beside the sanitizer suite, at the lowest CPU
# priority, and runs after it).
set -euo pipefail
cd "$(dirname "$0")/../.."
steps=build+run
case ${1:-} in
--build) steps=build; shift ;;
--run) steps=run; shift ;;
esac
secs=${1:-${FUZZ_SECONDS:-20}}
if [ "$steps" != run ]; then
	if ! command -v clang >/dev/null; then
		echo "ci.sh: clang is not installed (.ci/deps installs it)" >&2
		exit 1
	fi
	opts=(-Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false)
	if [ -f build-fuzz/build.ninja ]; then
		meson setup --reconfigure build-fuzz "${opts[@]}" >/dev/null
	else
		CC=clang meson setup build-fuzz "${opts[@]}" >/dev/null
	fi
	ninja -C build-fuzz >build-fuzz/ninja-fuzz.log 2>&1 ||
		{ tail -n 40 build-fuzz/ninja-fuzz.log; echo "ci.sh: build failed"; exit 1; }
	[ "$steps" = build ] && exit 0
elif [ ! -f build-fuzz/build.ninja ]; then
	echo "ci.sh: no build-fuzz (ci.sh --build makes it)" >&2
	exit 1
fi
echo "== fuzzing every target ${secs} s"
exec tests/fuzz/run.sh build-fuzz "$secs"
