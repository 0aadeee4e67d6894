#!/usr/bin/env bash
# Rulebooks as books on the real corpora (issue 14, point 1): the newest
# Comprehensive Rules (3,994 entries) and the Berserk. Heroes rules and
# dictionary, exported as a site. No page is over 300 KB; the CR's table of
# contents lists its nine chapters and every section the file numbers; the
# dictionary's pages are its letters; the crawl from index.html
# (site-crawl.py) finds no broken link and reaches every page in three
# clicks or fewer. The pages are in their language, interface words too
# (point 3): with the letter D of the French Marvel Champions glossary
# (18 files), no English interface word is left in a French or Russian
# element of any page. The same database as md: the same checks by
# md-site-check.py (page size, links and anchors, reach, rule order, each
# book ruling once), the CR's chapters and sections, French and Russian
# words.
#
#   bash tests/cli/test-corpus-books.sh BUILD/rulings CORPORA
#
# Exits 77 (skipped) when the corpora are not there.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

CORPORA=${RULINGS_CORPORA:-${2:-}}
CR=${CORPORA:-/nonexistent}/mtg-cr/CR-2026-01-16.txt
BH=${CORPORA:-/nonexistent}/berserk-heroes-ru
DICT=$BH/dictionary_2025-06-19_rules-v17.0_7c7e2d8.rst
MCD=${CORPORA:-/nonexistent}/marvel-champions-fr/docs/Glossaire/D
if [ ! -f "$CR" ] || [ ! -f "$BH/c1_rules.rst" ] || [ ! -f "$DICT" ] || [ ! -d "$MCD" ]; then
	echo "skipped: no corpora at '${CORPORA:-}'"
	_finished=1
	exit 77
fi
xp() {
	xmllint --html --xpath "$1" "$2" 2>/dev/null
}

# (the CR, the Berserk rules and dictionary name their games; Marvel's
# files do not: --game names theirs)
rl --db c.db import --no-thesaurus "$CR" "$BH/c1_rules.rst" "$DICT"
check_exit "the CR, the Berserk rules and dictionary import" 0
rl --db c.db import --no-thesaurus --game "Marvel Champions" "$MCD"
check_exit "Marvel's D imports" 0
rl --db c.db export --all --format html -o site
check_exit "export --all --format html" 0

run python3 "$_lib_dir/site-crawl.py" site "$_lib_dir/../../po"
crawl=$(cat "$OUT")
# (issue 14, point 3) the Berserk rules and dictionary are Russian pages
check_eq "no English interface word in a French or Russian element, on any page" "" \
	"$(grep '^english:' <<<"$crawl" | head -5)"
# (Marvel's files, a glossary entry each, are one book: the glossary,
# titled in French; no "0 règle" beside its entries)
mdef=$(grep -l '<h1>Glossaire</h1>' site/contents-*.html | head -n 1)
check_eq "a French glossary's contents read French" "fr|18 entrées de glossaire · Marvel Champions|Glossaire" \
	"$(xp 'string(/html/@lang)' "$mdef")|$(xp 'string(//p[@class="meta"])' "$mdef")|$(xp 'string(//h2)' "$mdef")"
check_eq "the Berserk dictionary's contents read Russian" "ru|Глоссарий" \
	"$(grep -l '<html lang="ru">' site/contents-*.html | head -n 1 | xargs -r xmllint --html --xpath 'string(/html/@lang)' 2>/dev/null)|$(grep -l '<html lang="ru">' site/contents-*.html | xargs -r grep -l '<h2>Глоссарий</h2>' | head -n 1 | xargs -r xmllint --html --xpath 'string(//h2[.="Глоссарий"])' 2>/dev/null)"
largest=$(sed -n 's/^largest: \([0-9]*\) .*/\1/p' <<<"$crawl")
check_eq "no page is over 300 KB (largest: $largest bytes)" "yes" \
	"$([ "${largest:-999999999}" -le 307200 ] && echo yes || echo no)"
check_eq "no broken link (page or anchor)" "" "$(grep '^broken:' <<<"$crawl" | head -5)"
check_eq "every page is reached from index.html" "" "$(grep '^unreached:' <<<"$crawl" | head -5)"
check_match "... in three clicks or fewer" '^max-clicks: [0-3]$' "$(grep '^max-clicks:' <<<"$crawl")"
check_eq "the page of the rulings with no tag holds no CR rule" "" \
	"$(ls site/untagged.html 2>/dev/null && grep -l 'id="702.19a"' site/untagged.html)"

toc=$(ls site | grep '^contents-magic-the-gathering-comprehensive-rules-')
check_eq "the CR's table of contents: its nine chapters" \
	"$(tr '\r' '\n' <"$CR" | grep -E '^[1-9]\. [A-Z][A-Za-z ,]*$' | sort -u | head -n 9 | paste -sd '|')" \
	"$(xp '//h2[@id]/text()' "site/$toc" | head -n 9 | paste -sd '|')"
# the sections the file numbers ("702. Keyword Abilities"), each once
want=$(tr '\r' '\n' <"$CR" | grep -E '^[1-9][0-9]{2}\. [A-Z]' | sort -u | wc -l)
check_eq "... and every section the file numbers ($want)" "$want" \
	"$(xp '//ul[@class="toc"]/li/a' "site/$toc" | grep -o '<a ' | wc -l)"
trample=$(xp 'string(//ul[@class="toc"]/li/a[starts-with(., "702.")]/@href)' "site/$toc")
check_match "702 links its page#702" '^702-[a-z0-9-]*-[0-9a-f]{12}\.html#702$' "$trample"
check_eq "the page has 702.19a as an anchor" "1" \
	"$(grep -c 'id="702.19a"' "site/${trample%#*}")"

# ---- the same books in Markdown (md-site-check.py) ---------------------------------
rl --db c.db export --all --format md -o md
check_exit "export --all --format md" 0
run python3 "$_lib_dir/md-site-check.py" md c.db
mdc=$(cat "$OUT")
mlargest=$(sed -n 's/^largest: \([0-9]*\) .*/\1/p' <<<"$mdc")
check_eq "md: no page is over 300 KB (largest: $mlargest bytes)" "yes" \
	"$([ "${mlargest:-999999999}" -le 307200 ] && echo yes || echo no)"
check_match "md: every relative link and #anchor resolves (and there are links to anchors)" \
	'^anchored-links: [0-9]{4,}$' "$(grep -E '^(broken|anchored-links):' <<<"$mdc" | head -5)"
check_eq "md: every page is reached from index.md" "" "$(grep '^unreached:' <<<"$mdc" | head -5)"
check_match "... in three clicks or fewer" '^max-clicks: [0-3]$' "$(grep '^max-clicks:' <<<"$mdc")"
check_eq "md: the CR, the Berserk rules and dictionary, Marvel's glossary (18 files, one book) are books, rules in number order, the contents in their order" \
	"books: 4" "$(grep -E '^(books|order|toc):' <<<"$mdc" | paste -sd '|')"
check_eq "md: each ruling of a book once on its pages, none elsewhere" "" \
	"$(grep -E '^(missing|twice|stray|untagged):' <<<"$mdc" | head -5)"
check_eq "md: no untagged.md: every ruling is in a book" "untagged-count: 0 0|" \
	"$(grep '^untagged-count:' <<<"$mdc")|$(ls md/untagged.md 2>/dev/null)"
mtoc=$(ls md | grep '^contents-magic-the-gathering-comprehensive-rules-')
check_eq "md: the CR's contents: its nine chapters, every section the file numbers ($want)" \
	"$(tr '\r' '\n' <"$CR" | grep -E '^[1-9]\. [A-Z][A-Za-z ,]*$' | sort -u | head -n 9 | paste -sd '|')|$want" \
	"$(sed -n 's/^## <a id="[1-9]"><\/a>//p' "md/$mtoc" | paste -sd '|')|$(grep -c '^- \[[1-9][0-9][0-9]\. ' "md/$mtoc")"
mdef=$(grep -l '^# Glossaire$' md/contents-*.md | head -n 1)
check_eq "md: a French glossary's contents read French" "18 entrées de glossaire · Marvel Champions|## Glossaire" \
	"$(sed -n 5p "$mdef")|$(grep '^## ' "$mdef")"
mdict=$(grep -l '^# Глоссарий$' md/contents-*.md | head -n 1)
check_eq "md: the Berserk dictionary's contents read Russian" "## Глоссарий|Далее: " \
	"$(grep '^## ' "$mdict")|$(sed -n 3p "$mdict" | sed 's/: .*/: /')"
check_eq "md: the index lists the four books of the corpora by name" "4" \
	"$(grep -c -E '^- \[(Magic: The Gathering Comprehensive Rules|Основные принципы игры.*|Глоссарий|Glossaire)\]\(contents-' md/index.md)"

btoc=$(grep -l '<h1>Основные принципы игры' site/contents-*.html | head -n 1)
check_match "the Berserk rules have a table of contents" 'contents-' "$btoc"
# its five sections fit one page: that page is titled by them, not like
# the book ("Далее: Основные принципы игры…" led from the contents of that
# title to a page titled "X — X")
check_eq "the Berserk contents' next page: 'Правила 101–105', not the book's title" \
	"Далее: Правила 101–105|Правила 101–105 — Основные принципы игры. Способности и особенности" \
	"$(xp 'string(//div[@class="pager"]/span)' "$btoc")|$(xp 'string(//title)' "site/$(xp 'string(//a[@rel="next"]/@href)' "$btoc")")"
mbtoc=$(grep -l '^# Основные принципы игры' md/contents-*.md | head -n 1)
check_match "md: the same next page" '^Далее: \[Правила 101–105\]\(' "$(sed -n 3p "$mbtoc")"
dtoc=$(grep -l '<h1>Глоссарий</h1>' site/contents-*.html | head -n 1)
letters=$(python3 - "$DICT" <<'PY'
import re, sys
# the dictionary's letter headings: a one-letter line (bold or not) over a
# line of = - ~ ^
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
seen = []
for a, b in zip(lines, lines[1:]):
    a = a.strip().strip("*")
    if len(a) == 1 and re.fullmatch(r"([=\-~^\"'`#*+])\1*", b.strip() or "x"):
        if a not in seen:
            seen.append(a)
print(len(seen))
PY
)
check_eq "the dictionary: a page per letter heading ($letters)" "$letters" \
	"$(xp '//ul[@class="letters"]/li' "$dtoc" | grep -o '<li' | wc -l)"

finish
