#!/usr/bin/env bash
# The one table of formats (importers/formats.def) against everything that
# lists formats: --help, the README's table, the manual's DOCUMENT FORMATS
# list — the same names in the same order — and each format's sample,
# which detection must give to that format.
#
#   bash tests/cli/test-formats.sh BUILD/rulings
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

ROOT=$(cd "$_lib_dir/../.." && pwd)
table=$(sed -n 's/^FORMAT([a-z_]*, "\([a-z-]*\)", [A-Z_]*, "\([^"]*\)")$/\1 \2/p' \
	"$ROOT/importers/formats.def")
names=$(printf '%s\n' "$table" | cut -d' ' -f1)
echo "# formats.def: $(echo $names)"
check_eq "formats.def has ten or more formats, one a line" 1 \
	"$([ "$(printf '%s\n' "$names" | wc -l)" -ge 10 ] && echo 1)"

rl --help
help=$(sed -n '/^formats the importer recognizes:/,/^$/p' "$OUT" |
	sed -n 's/^  \([a-z-]*\) .*/\1/p')
check_eq "--help lists the formats of formats.def, in order" "$names" "$help"

readme=$(sed -n 's/^| `\([a-z-]*\)` |.*/\1/p' "$ROOT/README.md")
check_eq "the README's table lists the formats of formats.def, in order" \
	"$names" "$readme"

man=$(awk '/^\.Sh DOCUMENT FORMATS/ { on = 1; next }
           on && /^\.Ss / { exit }
           on && /^\.It Cm / { print $3 }' "$ROOT/man/rulings.1")
check_eq "the manual's DOCUMENT FORMATS list names the formats of formats.def, in order" \
	"$names" "$man"

while read -r name sample; do
	rl parse "$ROOT/$sample"
	check_exit "$name: its sample $sample parses" 0
	check_json "$name: detection gives the sample to $name" \
		"d['format'] == '$name'"
	grep -q "^\.Ss The $name format\$\|^\.It Cm $name\$" "$ROOT/man/rulings.1"
	check_eq "$name: the manual describes it" 0 "$?"
done <<<"$table"

finish
