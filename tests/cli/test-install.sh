#!/usr/bin/env bash
# An installed tree (issue 11, point 7): `meson install --destdir` of the
# build, used from outside the checkout with an empty HOME. The binary
# finds the shipped thesaurus in share/rulings beside it, so the README's
# cross-language examples work from an empty database; the RELAX NG
# schema, the man page, the extension and the shell completion are
# installed. libxml2's code is a module in LIBDIR/rulings, opened only
# by the commands that need it (issue 16, point 3): found beside the
# installed binary, also once the tree is moved; missing, a clear error.
#
#   bash tests/cli/test-install.sh BUILD/rulings BUILD
BUILD=${2:-}
if [ -z "$BUILD" ] || [ ! -f "$BUILD/build.ninja" ]; then
	echo "usage: $0 PATH/TO/rulings BUILD-DIRECTORY" >&2
	exit 2
fi
BUILD=$(cd "$BUILD" && pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"
if ! command -v meson >/dev/null; then
	echo "SKIP: no meson to install with"
	exit 77
fi

run meson install -C "$BUILD" --destdir "$T/root" --no-rebuild
check_exit "meson install --destdir" 0
R=$(find "$T/root" -path '*/bin/rulings' -type f | head -n 1)
check_eq "the binary is installed" yes "$([ -x "$R" ] && echo yes)"
share=$(find "$T/root" -type d -path '*/share/rulings' | head -n 1)
check_eq "share/rulings holds the thesaurus" yes \
	"$([ -f "$share/thesaurus.txt" ] && echo yes)"
check_eq "...and the RELAX NG schema" yes "$([ -f "$share/rulings.rng" ] && echo yes)"
check_eq "the man page is installed" 1 \
	"$(find "$T/root" -path '*/man1/rulings.1' | wc -l)"
ext=$(find "$T/root" -name 'rulings_fts.so' | head -n 1)
check_eq "the extension is installed" yes "$([ -f "$ext" ] && echo yes)"
mod=$(find "$T/root" -path '*/rulings/rulings-xml.so' | head -n 1)
check_eq "the XML module is installed" yes "$([ -f "$mod" ] && echo yes)"
check_eq "...in the extension's directory" "$(dirname "$ext")" "$(dirname "$mod")"
comp=$(find "$T/root" -path '*/bash-completion/completions/rulings' | head -n 1)
check_eq "the bash completion is installed" yes "$([ -f "$comp" ] && echo yes)"
check_eq "...and the zsh one" 1 \
	"$(find "$T/root" -path '*/zsh/site-functions/_rulings' | wc -l)"

# Outside the checkout, with an empty HOME and nothing else set.
mkdir -p "$T/elsewhere" "$T/emptyhome"
cd "$T/elsewhere" || exit 2
export HOME=$T/emptyhome
unset XDG_DATA_HOME
cp -r "$DATA" data
r() {
	run "$R" "$@"
}
# the README's first command, with the installed binary
r import --game "Spirit Island" data/000_*.txt data/001_*.txt
check_exit "the README's first import" 0
check_out_contains "...starts the database with the installed thesaurus" \
	"$share/thesaurus.txt: "
check_eq "the database is in the empty HOME" yes \
	"$([ -f "$HOME/.local/share/rulings/rulings.db" ] && echo yes)"
r import --game Berserk data/004_*.txt
check_exit "...the second" 0
r import data
check_exit "...the third" 0
r search --tag Repeat
check_exit "...and its query" 0
# the README's cross-language examples
r search Isolate --game "Spirit Island" --format json
check_exit "search Isolate --game 'Spirit Island'" 0
check_json "...finds the French Isoler through the thesaurus" \
	'any(r["lang"] == "fr" for r in d["results"])'
r search --tag "Speed (Fast/Slow)" --format json --limit 0
check_json "--tag 'Speed (Fast/Slow)' finds Spirit Island's Speed rulings, no other game's" \
	'd["total"] > 0 and all(r["game"] not in ("NeuroScape", "Berserk") for r in d["results"])'

# The installed schema validates what export --format xml writes.
r export --all --format xml -o all.xml
check_exit "export --all --format xml" 0
if command -v xmllint >/dev/null; then
	run xmllint --noout --relaxng "$share/rulings.rng" all.xml
	check_exit "...valid against the installed rulings.rng" 0
fi
# A search loads no libxml2; the exports and the XML import that need it
# open the module. (A build with -Dfault_injection=true links libxml2 into
# the binary, for its allocation hooks: src/cli/fault.c.)
if ldd "$R" 2>/dev/null | grep -q libxml2; then
	echo "the binary links libxml2 itself (fault injection): start-up checks skipped"
else
	LD_DEBUG=files "$R" search Isolate --game "Spirit Island" >/dev/null 2>"$T/ld.txt"
	check_eq "a search loads neither libxml2 nor the module" 0 \
		"$(grep -c 'file=.*\(libxml2\|rulings-xml\)' "$T/ld.txt")"
	check_eq "...nor ICU nor libstdc++" 0 \
		"$(grep -c 'file=.*\(libicu\|libstdc++\)' "$T/ld.txt")"
fi
LD_DEBUG=files "$R" export --all --format html -o site 2>"$T/ld.txt"
check_eq "export --format html runs from the installed tree" yes \
	"$([ -f site/index.html ] && echo yes)"
check_eq "...with the installed module" 1 \
	"$(grep -c "calling init: $mod\$" "$T/ld.txt")"
r --db xml.db import --game "Spirit Island" all.xml
check_exit "the exported XML imported again (the XML reader)" 0
check_out_contains "...its entries read" "(xml-interchange"
# The tree moved elsewhere: the module is found beside the binary.
mv "$T/root" "$T/moved"
R=${R/"$T/root"/"$T/moved"}
mod=${mod/"$T/root"/"$T/moved"}
r export --all --format xml -o moved.xml
check_exit "export --format xml from the moved tree" 0
check_eq "...the same XML" "" "$(cmp all.xml moved.xml 2>&1)"
# Without it: the commands that need it say so, and write nothing.
mv "$mod" "$T/away.so"
r export --all --format html -o site2
check_exit "export --format html without the module" 70
check_err_contains "...says which file it could not load" \
	"cannot load the export module "
check_err_contains "...where" "/rulings/rulings-xml.so: "
check_eq "...and writes nothing" no "$([ -e site2 ] && echo yes || echo no)"
r --db xml2.db import --game "Spirit Island" all.xml
check_exit "an XML import without the module" 70
check_err_contains "...names the file and the module" \
	"all.xml: error: cannot load the export module "
r search Isolate --game "Spirit Island"
check_exit "...a search does not need it" 0
r export --all --format txt -o txt
check_exit "...nor a txt export" 0
mv "$T/away.so" "$mod"
mv "$T/moved" "$T/root"
R=${R/"$T/moved"/"$T/root"}

if command -v sqlite3 >/dev/null; then
	run ext_sqlite3 "$ext" "$HOME/.local/share/rulings/rulings.db" \
		".load ${ext%.so}" "SELECT count(*) > 0 FROM rulings_fts_fr WHERE rulings_fts_fr MATCH 'isoler'"
	check_out_contains "the installed extension loads in sqlite3" "1"
fi

# The completion, in bash with bash-completion's helpers.
if [ -f /usr/share/bash-completion/bash_completion ]; then
	run bash -c '. /usr/share/bash-completion/bash_completion; . "$1"
		PATH=$(dirname "$2"):$PATH
		COMP_WORDS=(rulings se); COMP_CWORD=1; COMP_LINE="rulings se"
		COMP_POINT=${#COMP_LINE}; _rulings; echo "${COMPREPLY[*]}"
		COMP_WORDS=(rulings search --inc); COMP_CWORD=2
		COMP_LINE="rulings search --inc"; COMP_POINT=${#COMP_LINE}
		_rulings; echo "${COMPREPLY[*]}"
		COMP_WORDS=(rulings export --format ""); COMP_CWORD=3
		COMP_LINE="rulings export --format "; COMP_POINT=${#COMP_LINE}
		_rulings; echo "${COMPREPLY[*]}"' _ "$comp" "$R"
	check_exit "the bash completion runs" 0
	check_eq "...completes commands, options and values" \
		"search|--include-withdrawn|txt md html json xml" \
		"$(tr '\n' '|' <"$OUT" | sed 's/|$//')"
fi

finish
