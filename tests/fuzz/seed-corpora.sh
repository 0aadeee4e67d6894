#!/usr/bin/env bash
# seed-corpora.sh OUTDIR TARGET... — assembles the seed corpus of each fuzz
# target in OUTDIR/TARGET from the files in the tree (nothing is copied
# into git):
# the sample documents in data/ and the golden-test inputs for the parse-*
# and source targets (and args, with its reproducers), typical and awkward
# search words for query (its
# inputs: a first byte, odd for the expanding builder, then words separated
# by NUL bytes). Existing files in OUTDIR are kept (libFuzzer adds its own).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: seed-corpora.sh OUTDIR TARGET...}
shift

# (one tar a target, renaming each file seed-NAME: a cp a file was ~2,200
# processes, 28 s of a quiet CI run and minutes on a loaded machine)
seeds=()
for f in "$root"/data/* "$root"/tests/golden/cases/*.txt; do
	seeds+=("${f#"$root"/}")
done
for t in "$@"; do
	mkdir -p "$out/$t"
	[ "$t" = query ] && continue
	tar -C "$root" -ch --transform='s|.*/|seed-|' -- "${seeds[@]}" |
		tar -C "$out/$t" -x
done

# args: also the argument vectors kept as reproducers (when args is one of
# the targets: without it, cp failed and set -e ended the script before
# the query seeds below)
if [ -d "$out/args" ]; then
	cp "$root"/tests/fuzz-repro/args/* "$out/args/"
fi

q=$out/query
mkdir -p "$q"
i=0
word() {   # word FIRST-BYTE WORD... : one seed
	i=$((i + 1))
	{ printf '%b' "$1"; shift; local w sep=''
	  for w in "$@"; do printf '%s%s' "$sep" "$w"; sep=$'\x01'; done
	} | tr '\001' '\000' >"$q/seed-$i"
}
for b in '\x00' '\x01'; do
	word "$b" defend
	word "$b" first-strike 702.19a
	word "$b" "don't" 'NEAR(a b)'
	word "$b" '"two words"' 'pre*'
	word "$b" 'a"b' '"' '*' '**'
	word "$b" AND OR NOT '(' ')' ':' '^' '+'
	word "$b" 'title:speed' 'body:"x y"'
	word "$b" 'Défendre' 'ёлка' 'атакую*'
	word "$b" '' ' ' $'\t' $'line\nbreak'
done
