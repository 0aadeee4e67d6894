#!/usr/bin/env bash
# An exported site's changes (issue 14, point 6): changes.html (newest
# first, a heading per date) and Atom feeds for the site, each game and
# each tag, announced by <link rel="alternate"> on the matching pages,
# valid against RFC 4287's schema (jing, one process for every feed),
# their entry ids those of `changed --format atom` and the same on every
# export. Exits 77 (skipped) without jing (.ci/deps --test installs it).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

RNC=$_lib_dir/atom.rnc
if ! command -v jing >/dev/null; then
	echo "skipped: no jing"
	_finished=1
	exit 77
fi
xp() {
	xmllint --html --xpath "$1" "$2" 2>/dev/null
}

python3 "$_lib_dir/defend-v2.py" "$SEED_DEFEND" v2.txt
seed_db s.db --game "Spirit Island"
rl --db s.db import -q --game "Spirit Island" v2.txt
check_exit "a second version of Defend imports" 0
rl --db s.db export --all --format html -o site
check_exit "export --all --format html" 0

# ---- the files -----------------------------------------------------------------
defend=$(ls site | grep '^defend-[0-9a-f]\{12\}\.html$')
game=$(ls site | grep '^game-spirit-island-[0-9a-f]\{12\}\.html$')
check_eq "changes.html and the site's feed" "changes.atom changes.html" \
	"$(ls site | grep '^changes\.' | paste -sd' ')"
missing=
for p in site/*.html; do
	f=$(xp 'string(/html/head/link[@rel="alternate"][@type="application/atom+xml"]/@href)' "$p")
	case $(basename "$p") in
	index.html|changes.html) want=changes.atom ;;
	game-*|untagged.html) want=$(basename "$p" .html).atom ;;
	*) if grep -q 'class="entry"' "$p"; then want=$(basename "$p" .html).atom; else want=; fi ;;
	esac
	[ "$f" = "$want" ] && { [ -z "$f" ] || [ -f "site/$f" ]; } || missing+="$(basename "$p"):$f/$want "
done
check_eq "every tag and game page announces its own feed, the index and changes.html the site's" "" "$missing"
check_eq "a feed per tag page and per game page, and the site's" \
	"$(( $(grep -l 'class="entry"' site/*.html | grep -v changes.html | wc -l) + 2 ))" \
	"$(ls site/*.atom | wc -l)"
check_contains "the export's list holds the feeds (a later export replaces or removes them)" \
	"$(cat site/.rulings-export)" "${defend%.html}.atom"

run jing -c "$RNC" site/*.atom
check_exit "every feed is valid against RFC 4287's RELAX NG schema" 0

# ---- what the feeds hold ----------------------------------------------------------
entries() {   # FILE: "TERM ID LINK" per entry
	python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
A = "{http://www.w3.org/2005/Atom}"
f = ET.parse(sys.argv[1]).getroot()
for e in f.findall(A + "entry"):
    link = [l.get("href") for l in e.findall(A + "link") if l.get("rel") == "alternate"]
    print(e.find(A + "category").get("term"), e.findtext(A + "id"), (link or ["-"])[0])
PY
}
feed_id() {
	python3 -c 'import sys, xml.etree.ElementTree as ET; print(ET.parse(sys.argv[1]).getroot().findtext("{http://www.w3.org/2005/Atom}id"))' "$1"
}
check_eq "Defend's feed: its edit, addition and withdrawal (by its last tags), and the mark" \
	"added edited marked withdrawn" \
	"$(entries "site/${defend%.html}.atom" | cut -d' ' -f1 | sort | paste -sd' ')"
check_eq "the game's feed holds every change of the game" \
	"$(entries site/changes.atom | cut -d' ' -f1,2 | sort)" \
	"$(entries "site/${game%.html}.atom" | cut -d' ' -f1,2 | sort)"
broken=
while read -r term id link; do
	[ "$link" = - ] && { [ "$term" = withdrawn ] || broken+="$term:nolink "; } && continue
	file=${link%%#*} anchor=${link#*#}
	grep -q "id=\"$anchor\"" "site/$file" 2>/dev/null || broken+="$link "
done < <(entries site/changes.atom)
check_eq "each entry links its ruling on its page (a withdrawn one: none)" "" "$broken"
rl --db s.db changed --format atom
cp "$OUT" cli.atom
check_eq "the site's entry ids are those of changed --format atom" \
	"$(entries cli.atom | cut -d' ' -f2 | sort)" \
	"$(entries site/changes.atom | cut -d' ' -f2 | sort)"
rl --db s.db changed --format atom --game "Spirit Island"
cp "$OUT" cli-game.atom
check_eq "the game's feed id is that of changed --game" \
	"$(feed_id cli-game.atom)" "$(feed_id "site/${game%.html}.atom")"
cp -r site site1
rl --db s.db export --all --format html -o site
check_eq "exported again: every feed byte for byte the same" "" \
	"$(for f in site/*.atom; do cmp -s "$f" "site1/$(basename "$f")" || echo "$f"; done)"

# ---- changes.html --------------------------------------------------------------------
ch=site/changes.html
check_eq "changes.html: a heading per date, newest first" \
	"$(sqlite3 s.db "SELECT DISTINCT substr(date, 1, 10) FROM imports ORDER BY 1 DESC" | paste -sd' ')" \
	"$(xp '//div/h2/text()' "$ch" | paste -sd' ')"
check_eq "... an entry per change" "$(entries site/changes.atom | wc -l)" \
	"$(xp 'count(//div[@class="entry"])' "$ch")"
check_eq "... the edit as a word diff" "are cumulative |always stack " \
	"$(xp 'string(//div[p[starts-with(., "Edited")]]/div[@class="wdiff"]/del)' "$ch")|$(xp 'string(//div[p[starts-with(., "Edited")]]/div[@class="wdiff"]/ins)' "$ch")"
check_contains "... text escaped, not markup" "$(cat "$ch")" "No, it is a &lt;keyword&gt; &amp; more."
check_eq "... every page links it" "" \
	"$(for p in site/*.html; do grep -q 'href="changes.html"' "$p" || echo "$p"; done)"
run python3 "$_lib_dir/site-crawl.py" site
check_exit "the crawl" 0
check_eq "no broken link, every page reached, no skipped heading, lang right" "" \
	"$(grep -E '^(broken|unreached|lang|skip)' "$OUT" | head -5)"

finish
