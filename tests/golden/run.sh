#!/usr/bin/env bash
# run.sh — golden-file tests for the importers.
#
#   usage: run.sh RULINGS SOURCE_ROOT [CASE...]
#
# For every case, runs `RULINGS parse [ARGS] INPUT` from SOURCE_ROOT/tests/golden
# (so that the paths in diagnostics are relative and stable, for example
# `cases/truncated.txt`) and compares
#
#   standard output                          with CASE.json
#   standard error, then a line `exit N`     with CASE.diag
#
# and prints a diff for each mismatch. The last line of output is always
# `N passed, N failed`; the exit status is 1 when any case failed.
#
# The cases:
#   cases/NAME.txt     a hand-written input; expected files cases/NAME.json
#                      and cases/NAME.diag; optional cases/NAME.args holds
#                      extra arguments for `rulings parse`, one per line;
#                      optional cases/NAME.same names another case (for
#                      example `basic`) whose records this one's must equal
#                      except for "sha256" and "encoding" (BOM, CRLF, ...),
#                      with the same diagnostics and exit status.
#   seeds              a list of inputs referenced in place, one path
#                      relative to SOURCE_ROOT a line (data/000_….txt);
#                      expected files are BASENAME.json and BASENAME.diag
#                      here, beside this script.
# CASE arguments (such as `cases/truncated` or `000_033b5c31b01b6f02`)
# restrict the run to those cases.
#
# UPDATE_GOLDEN=1 rewrites the expected files that differ (or are missing)
# from what rulings prints now, instead of failing; review the changes with
# `git diff` before committing them: the expected files are a
# specification, not a snapshot. The .same checks are never updated.
#
# RULINGS_WRAPPER, when set, is put before the binary, for example
# RULINGS_WRAPPER='valgrind -q --error-exitcode=99'.

set -u

if [ $# -lt 2 ]; then
	echo "usage: run.sh RULINGS SOURCE_ROOT [CASE...]" >&2
	exit 2
fi
rulings=$1
srcroot=$2
shift 2
case $rulings in
/*) ;;
*) rulings=$PWD/$rulings ;;
esac
if [ ! -x "$rulings" ]; then
	echo "run.sh: $rulings: not an executable" >&2
	exit 2
fi
update=${UPDATE_GOLDEN:-0}
[ "$update" = 0 ] && update=
wrapper=${RULINGS_WRAPPER:-}

cd "$srcroot/tests/golden" || exit 2
export LC_ALL=C

tmp=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0

# The cases as "NAME<TAB>INPUT": NAME is the expected files' path without
# the extension, INPUT the input's path from here.
list_cases() {
	local f line
	if [ -f seeds ]; then
		while IFS= read -r line || [ -n "$line" ]; do
			case $line in '' | '#'*) continue ;; esac
			f=${line##*/}
			printf '%s\t%s\n' "${f%.*}" "../../$line"
		done <seeds
	fi
	for f in cases/*.txt; do
		[ -e "$f" ] && printf '%s\t%s\n' "${f%.txt}" "$f"
	done
}

wanted() {
	local w
	[ ${#selected[@]} -eq 0 ] && return 0
	for w in "${selected[@]}"; do
		[ "$w" = "$1" ] && return 0
	done
	return 1
}

# run NAME INPUT: the output in $tmp/NAME.json and $tmp/NAME.diag.
run() {
	local name=$1 input=$2 args=()
	mkdir -p "$tmp/$(dirname "$name")"
	if [ -f "$name.args" ]; then
		mapfile -t args <"$name.args"
	fi
	if [ ! -f "$input" ]; then
		printf 'run.sh: %s: no such input\n' "$input" >"$tmp/$name.diag"
		: >"$tmp/$name.json"
		return
	fi
	# shellcheck disable=SC2086  # the wrapper is a command line
	$wrapper "$rulings" parse "${args[@]}" "$input" \
		>"$tmp/$name.json" 2>"$tmp/$name.diag"
	printf 'exit %d\n' $? >>"$tmp/$name.diag"
}

# compare EXPECTED ACTUAL: 0 when they match (or were updated).
compare() {
	local want=$1 got=$2
	if [ -f "$want" ] && cmp -s "$want" "$got"; then
		return 0
	fi
	if [ -n "$update" ]; then
		cp "$got" "$want" && echo "updated $want"
		return 0
	fi
	if [ -f "$want" ]; then
		diff -u --label "$want" --label "$want (actual)" "$want" "$got"
	else
		echo "missing $want; rulings printed:"
		diff -u --label /dev/null --label "$want (actual)" /dev/null "$got"
	fi
	return 1
}

# same NAME REF: NAME's records equal REF's but for sha256 and encoding.
same() {
	local name=$1 ref=cases/$2 ok=0
	if [ ! -f "$ref.txt" ]; then
		echo "$name.same: no case $ref"
		return 1
	fi
	[ -f "$tmp/$ref.json" ] || run "$ref" "$ref.txt"
	grep -Ev '^  "(sha256|encoding)": ' "$tmp/$name.json" >"$tmp/$name.same1"
	grep -Ev '^  "(sha256|encoding)": ' "$tmp/$ref.json" >"$tmp/$name.same2"
	if ! cmp -s "$tmp/$name.same2" "$tmp/$name.same1"; then
		echo "$name.txt: records differ from $ref.txt's:"
		diff -u --label "$ref.txt" --label "$name.txt" \
			"$tmp/$name.same2" "$tmp/$name.same1"
		ok=1
	fi
	# The same messages, with the file name changed.
	sed "s|$ref\.txt|$name.txt|g" "$tmp/$ref.diag" >"$tmp/$name.same3"
	if ! cmp -s "$tmp/$name.same3" "$tmp/$name.diag"; then
		echo "$name.txt: diagnostics differ from $ref.txt's:"
		diff -u --label "$ref.txt" --label "$name.txt" \
			"$tmp/$name.same3" "$tmp/$name.diag"
		ok=1
	fi
	return $ok
}

selected=("$@")
ran=()
while IFS=$'\t' read -r name input; do
	wanted "$name" || continue
	ran+=("$name")
	run "$name" "$input"
	ok=0
	compare "$name.json" "$tmp/$name.json" || ok=1
	compare "$name.diag" "$tmp/$name.diag" || ok=1
	if [ -f "$name.same" ]; then
		same "$name" "$(tr -d ' \t\r\n' <"$name.same")" || ok=1
	fi
	if [ $ok = 0 ]; then
		passed=$((passed + 1))
		echo "ok   $name"
	else
		failed=$((failed + 1))
		echo "FAIL $name"
	fi
done < <(list_cases)

# Expected files whose input is gone, and cases asked for that do not exist.
if [ ${#selected[@]} -eq 0 ]; then
	for f in cases/*.json cases/*.diag cases/*.args cases/*.same; do
		[ -e "$f" ] || continue
		if [ ! -f "${f%.*}.txt" ]; then
			echo "FAIL $f: no input ${f%.*}.txt"
			failed=$((failed + 1))
		fi
	done
else
	for w in "${selected[@]}"; do
		found=
		for n in "${ran[@]}"; do
			[ "$n" = "$w" ] && found=1
		done
		if [ -z "$found" ]; then
			echo "FAIL $w: no such case"
			failed=$((failed + 1))
		fi
	done
fi

echo "$passed passed, $failed failed"
[ $failed = 0 ]
