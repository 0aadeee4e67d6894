#!/usr/bin/env bash
# rulings export --format html: the static site and the single page, built
# from the seed data and from a hostile FAQ page (markup, quotes,
# ampersands, a tag named ../../x): files stay inside -o, every text is
# escaped, libxml2's HTML parser reads every page without a complaint.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

# count XPATH FILE: what xmllint --html makes of an XPath expression
xp() {
	xmllint --html --xpath "$1" "$2" 2>/dev/null
}
if ! command -v xmllint >/dev/null; then
	echo "xmllint is missing (libxml2-utils): skipped"
	exit 77
fi

cp "$DATA"/*.txt seeds/
# a second version of the Defend page, one answer edited: a recorded change
sed 's/^  Generally no, since it is the Event/  Usually not, since it is the Event/' \
	"$DATA/001_8e68847c21c72d28.txt" >defend-v2.txt
cp "$_lib_dir/export-hostile.txt" hostile.txt
rl --db s.db import seeds
check_exit "the seed data imports" 0
rl --db s.db import --document Defend defend-v2.txt
check_exit "the edited Defend page imports" 0
check_out_contains "... as one edit" "1 edited"
rl --db s.db import hostile.txt
check_exit "the hostile page imports" 0
# A page links the pages of the other languages' tags of its concept. The
# shipped thesaurus keeps the three games' timing rules apart, so this
# test joins their tags in a thesaurus of its own.
cat >speed-concept.txt <<'EOT'
# rulings thesaurus
[*]
en:Speed (Fast/Slow) = fr:Swift (rapide) = ru:Быстрые и медленные атаки
EOT
rl --db s.db import speed-concept.txt
check_exit "the test's thesaurus imports" 0

mkdir out
rl --db s.db export --all --format html -o out/site
check_exit "export --all --format html" 0
check_err_empty "... quietly"

# ---- files -----------------------------------------------------------------------
check_eq "nothing is written outside -o" "out/site" "$(cd "$T" && find . -newer hostile.txt -name '*.html' -printf '%h\n' | sort -u | sed 's|^\./||')"
check_eq "no x where ../x or ../../x from the output directory leads" "" \
	"$(ls -d out/x x 2>/dev/null)"
bad=$(ls -A out/site | grep -Ev '^([a-z0-9-]+-[0-9a-f]{12}|index|untagged|changes)\.html$|^([a-z0-9-]+-[0-9a-f]{12}|untagged|changes)\.atom$|^\.rulings-export$')
check_eq "every file name is a slug and a hash" "" "$bad"
# data/004 is a book of numbered rules: its table of contents and one page
# of rules; NeuroScape and Spirit Island have a page each
# (test-export-books.sh)
# (and beside each tag and game page its feed, with changes.html and the
# site's changes.atom: test-export-feeds.sh)
check_eq "an index, one page per tag, one for the untagged rulings, two of a book, one per game" \
	"$(( $("$RULINGS" --db s.db tags | wc -l) + 4 + $("$RULINGS" --db s.db stats --format json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len([g for g in d.get("games", []) if g.get("name")]))' 2>/dev/null || echo 0) ))" "$(ls out/site/*.html | grep -v '/changes\.html$' | wc -l)"
xpage=$(ls out/site | grep '^x-[0-9a-f]\{12\}\.html$')
check_match "the page of ../../x is x-HASH.html inside the directory" '^x-[0-9a-f]{12}\.html$' "$xpage"
check_match "the tag '..' gets a file of its own" '^tag-[0-9a-f]{12}\.html$' \
	"$(ls out/site | grep '^tag-.*\.html$' | head -n 1)"
check_match "accents are folded in slugs, Cyrillic transliterated (ёлка)" '^defendre-elka-[0-9a-f]{12}\.html$' \
	"$(ls out/site | grep '^defendre.*\.html$')"

# ---- every page parses, every text is escaped ----------------------------------------
errs=$(for f in out/site/*.html; do xmllint --html --noout "$f" 2>&1; done)
check_eq "xmllint --html reads every page without an error or warning" "" "$errs"
all=$(cat out/site/*.html)
check_not_contains "no <script> element in any page" "$all" "<script"
check_not_contains "no <img> element in any page" "$all" "<img"
check_contains "the payload is text: &lt;script&gt;" "$all" "&lt;script&gt;document.title='PWNED'&lt;/script&gt;"
check_contains "ampersands are escaped" "$all" "escaped &amp; \"quoted\"?"
check_contains "an entity in the data stays text" "$all" "&amp;amp; entities"
x=out/site/$xpage
check_eq "no script, img, event handler or javascript: link in the DOM" 0 \
	"$(xp 'count(//script|//img|//@onerror|//@onmouseover|//a[starts-with(@href,"javascript")]|//a[@x])' "$x")"
check_eq "the page's heading is the tag, as text" "../../x" "$(xp 'string(//h1)' "$x")"
check_eq "both hostile entries are on the page" 2 "$(xp 'count(//div[@class="entry"])' "$x")"
check_eq "the category heading keeps its markup as text" 'Hostile <b>category</b> & "quotes"' \
	"$(xp 'string(//h3)' "$x")"
check_contains "the quotes of an attribute injection stay text" \
	"$(xp 'string(//div[@class="entry"][2]//div[@class="answer"])' "$x")" 'Answer " onmouseover="alert(4)" x="'
check_eq "every tag of an entry links to its page" 4 \
	"$(xp 'count(//div[@class="entry"][1]//p[@class="tags"]/a[@rel="tag"])' "$x")"
for h in $(xp '//a/@href' "$x" | sed 's/ *href="\([^"]*\)"/\1\n/g' | sed 's/#.*//' | sort -u); do
	[ -f "out/site/$h" ] || bad_link="$bad_link $h"
done
check_eq "every link leads to a page of the site" "" "${bad_link:-}"

# ---- the seed pages ------------------------------------------------------------------
defend=out/site/$(ls out/site | grep '^defend-[0-9a-f]\{12\}\.html$')
check_eq "the Defend page has its 17 entries, each with an anchor" 17 \
	"$(xp 'count(//div[@class="entry"][starts-with(@id,"r")]/*[self::h2 or self::h3 or self::h4]/a[@class="anchor"][@aria-label])' "$defend")"
check_eq "grouped by section as the FAQ is" "Errata / Updates|Frequently Asked Questions" \
	"$(xp '//h2' "$defend" | sed 's/<[^>]*>//g' | paste -sd'|')"
check_eq "two changed badges: the marked answer and the edited one" 2 \
	"$(xp 'count(//span[@class="badge"])' "$defend")"
check_eq "the edit is shown as a word diff" "Generally no,|Usually not," \
	"$(xp '//div[@class="wdiff"]/del|//div[@class="wdiff"]/ins' "$defend" | sed 's/<[^>]*>//g; s/ *$//' | paste -sd'|')"
speed=out/site/$(ls out/site | grep '^speed-fast-slow-[0-9a-f]\{12\}\.html$')
check_eq "the Speed page links the French and Russian pages of the same concept" 2 \
	"$(xp 'count(//div[@id="other-languages"]/p/a)' "$speed")"
check_match "... and their entries" '^[1-9][0-9]*$' \
	"$(xp 'count(//div[@id="other-languages"]/ul/li[@lang="fr"]/a)' "$speed")"
check_eq "... each page's tag in its own language (lang)" "fr|ru" \
	"$(xp '//div[@id="other-languages"]/p/a/@lang' "$speed" | sed 's/.*="\(.*\)"/\1/' | paste -sd'|')"
check_eq "... named by the language's name in the page's language" "French: |Russian: " \
	"$(xp '//div[@id="other-languages"]/p/text()' "$speed" | paste -sd'|')"
cache=out/site/$(ls out/site | grep '^cache-pile-de-resolution-[0-9a-f]\{12\}\.html$')
# (a French page: "terme", the French interface word)
check_match "term references link to the term's entry" '^swift-rapide-[0-9a-f]{12}\.html#r[0-9]+$' \
	"$(xp 'string(//p[@class="refs"]/a[starts-with(., "terme Swift")]/@href)' "$cache")"
index=out/site/index.html
check_eq "the index lists the languages by name, in its language, with counts" \
	"English (37)|French (19)|Russian (4)" \
	"$(xp '//h2[.="Languages"]/following-sibling::ul[1]/li' "$index" | sed 's/<[^>]*>//g' | paste -sd'|')"
check_contains "the index lists games" "$(xp 'string(//h2[.="Games"]/following-sibling::ul[1])' "$index")" "NeuroScape (13)"
check_contains "the index links every tag page with its count" \
	"$(xp 'string(//ul[@class="index"])' "$index")" "Defend (17)"
check_contains "pages are UTF-8, not entities" "$(cat "$speed")" "Быстрые и медленные атаки"

# ---- one self-contained page -----------------------------------------------------------
rl --db s.db export --tag ../../x --format html -o one.html
check_exit "export --tag --format html writes one file" 0
check_eq "... linking nowhere else" 0 "$(xp 'count(//a[not(starts-with(@href,"#"))])' one.html)"
check_eq "... with its style inline" 1 "$(xp 'count(//head/style)' one.html)"
check_eq "... and both entries" 2 "$(xp 'count(//div[@class="entry"])' one.html)"
rl --db s.db export --tag Defend --format html -o -
check_exit "export --format html -o - writes standard output" 0
check_match "... an HTML document" '^<!DOCTYPE html>' "$(head -n 1 "$OUT")"

# ---- a page's memory does not grow with its rulings (issue 17 #15) --------------
# Pages of 500 and 4000 rulings: the second may take a little more memory
# (its plan: an id and a few pointers a ruling), not eight times the
# first's entries (a 200 000-ruling page took 2 GB when the page was one
# tree). Peak RSS means nothing under AddressSanitizer or valgrind.
if sanitized || [ -n "${RULINGS_WRAPPER:-}" ]; then
	echo "# a sanitizer or a wrapper: the memory check is skipped"
else
	python3 - <<'PY'
import random
r = random.Random(5)
words = ("the dahan invaders ravage build explore presence power card fear "
         "energy element spirit land town city damage defend blight").split()
for tag, n in (("Small", 500), ("Large", 4000)):
    with open(tag.lower() + ".txt", "w") as f:
        f.write("%s\n\nFrequently Asked Questions\n\n" % tag)
        for c in range(4):
            f.write("Category %d\n\n" % c)
            for i in range(n // 4):
                q = " ".join(r.choice(words) for _ in range(8))
                a = " ".join(r.choice(words) for _ in range(60))
                f.write("\u2022 %s question %d %s?\n  %s.\n  Tags: %s, Other%d\n"
                        % (tag, c * n + i, q, a, tag, i % 7))
            f.write("\n")
PY
	rl --db mem.db import --quiet --bulk small.txt large.txt
	check_exit "pages of 500 and 4000 rulings import" 0
	peak_kb() {
		python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
	}
	small=$(peak_kb "$RULINGS" --db mem.db export --tag Small --format html -o small.html)
	large=$(peak_kb "$RULINGS" --db mem.db export --tag Large --format html -o large.html)
	check_eq "8 times the rulings on a page: at most 8 MB more memory ($small kB, $large kB)" \
		yes "$([ $((large - small)) -lt 8192 ] && echo yes || echo no)"
	check_eq "... and the page holds them all" 4000 \
		"$(xp 'count(//div[@class="entry"])' large.html)"
fi

finish
