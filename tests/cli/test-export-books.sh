#!/usr/bin/env bash
# rulings export --all --format html: a rulebook as a book (issue 14, point
# 1). A small Comprehensive Rules file of the test's own (two chapters, a
# glossary) and the seed data: a table of contents, pages of rules with an
# anchor per rule number, rules nested by number, previous/next links,
# references linked to page#anchor, the glossary by letter, no rule on the
# page of the rulings with no tag. The site is crawled from index.html by
# site-crawl.py (Python's own HTML parser): no link is broken, every page is
# reached in three clicks or fewer; no heading level is skipped and no link
# is a bare "#" on any page (issue 14, point 4). The same database exported
# as md has the same shape (index.md, contents, pages of rules with
# <a id="702.19a"></a> anchors, glossary letters), checked against the
# database by md-site-check.py (links, anchors, reach, rule order, each
# book ruling once) and, where cmark is installed, as CommonMark renders it.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

if ! command -v xmllint >/dev/null; then
	echo "xmllint is missing (libxml2-utils): skipped"
	_finished=1
	exit 77
fi
xp() {
	xmllint --html --xpath "$1" "$2" 2>/dev/null
}

cat >cr.txt <<'EOF'
Magic: The Gathering Comprehensive Rules

These rules are effective as of November 14, 2025.

Contents

1. Game Concepts
7. Additional Rules
Glossary
Credits

1. Game Concepts

100. General

100.1. These rules apply to any game.

100.1a A two-player game is a game that begins with only two players.

100.2. See rule 702.19a for trample.

7. Additional Rules

702. Keyword Abilities

702.19. Trample

702.19a Trample is a static ability. See rule 100.1a.

702.19b The controller assigns trample damage. See rule 702.20.

702.190. Not a subrule of 702.19.

Glossary

Trample
A keyword ability that modifies how a creature assigns combat damage. See rule 702.19.

Abandon
To turn a face-up ongoing scheme card face down.

Credits

Wizards of the Coast
EOF
printf '%s\n' 'Markup Test' '' 'Frequently Asked Questions' '' \
	'• Does **strong** and *em* and [a link](https://example.com/x) and 2 * 3 * 4 and * a * work?' \
	'  Yes: see [the FAQ](https://example.com/faq) and **bold *nested***.' \
	'  (Discussion elsewhere)  Tags: Markup Test' >markup.txt
# a tag whose first ruling is French and the two others English: the page
# is English (its lang was its first ruling's)
printf '%s\n' 'Mixte' '' 'Questions fréquentes' '' \
	'• Est-ce que la carte peut être jouée pendant le tour de l’adversaire ?' \
	'  Oui, mais seulement pendant la phase rapide.' '  Tags: Mixed' >mixed-fr.txt
printf '%s\n' 'Mixed' '' 'Frequently Asked Questions' '' \
	'• Can the card be played during the opponent turn?' \
	'  Yes, but only during the fast phase.' '  Tags: Mixed' \
	'• Does the card stay in play?' '  Yes.' '  Tags: Mixed' >mixed-en.txt
# an FAQ ruling of the game, in French, that rule 702.19b names by number
# (the XML interchange format: a ruling with a rule number, changed, errata)
cat >faq.xml <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<rulings format_version="1" title="FAQ Piétinement">
  <ruling kind="faq" lang="fr" game="Magic: The Gathering" rule="702.20" changed="true">
    <title>Le piétinement s’applique-t-il aux bloqueurs retirés ?</title>
    <text>Oui : tous les dégâts peuvent être assignés au joueur.</text>
    <tag name="Piétinement"/>
    <errata product="Fondations" page="12"/>
  </ruling>
</rulings>
EOF
cp "$DATA"/*.txt "$DATA"/.rulings seeds/
rl --db s.db import mixed-fr.txt faq.xml
rl --db s.db import seeds cr.txt markup.txt mixed-en.txt
check_exit "the seeds and the rules import" 0
# the French ruling edited: a change in French (changes.html and the feeds)
sed -i 's/phase rapide/phase lente/' mixed-fr.txt
rl --db s.db import mixed-fr.txt
check_exit "a second version of the French page imports" 0
rl --db s.db export --all --format html -o site
check_exit "export --all --format html" 0

# ---- the table of contents ----------------------------------------------------------
toc=$(ls site | grep '^contents-magic-the-gathering-comprehensive-rules-[0-9a-f]\{12\}\.html$')
check_match "the book has a table of contents" '^contents-' "$toc"
check_eq "... its chapters as headings" "1. Game Concepts|7. Additional Rules|Glossary" \
	"$(xp '//h2/text()' "site/$toc" | paste -sd '|')"
check_eq "... its sections linked to page#number" "100. General|702. Keyword Abilities" \
	"$(xp '//ul[@class="toc"]/li/a/text()' "site/$toc" | paste -sd '|')"
s702=$(ls site | grep '^702-magic-')
check_eq "... 702 links its page and its anchor" "$s702#702" \
	"$(xp 'string(//ul[@class="toc"]/li[a="702. Keyword Abilities"]/a/@href)' "site/$toc")"
check_eq "... the glossary by letter" "A (1)|T (1)" \
	"$(xp '//ul[@class="letters"]/li/a/text()' "site/$toc" | paste -sd '|')"
check_contains "the index lists the book" "$(cat site/index.html)" "href=\"$toc\">Magic: The Gathering Comprehensive Rules</a>"

# ---- the index and the games (point 7) -------------------------------------------
game=$(xp 'string(//li/a[.="Magic: The Gathering"]/@href)' site/index.html)
check_match "the index links a page per game" '^game-magic-the-gathering-[0-9a-f]{12}\.html$' "$game"
check_eq "... which links the game's book" "$toc" \
	"$(xp 'string(//li/a[.="Magic: The Gathering Comprehensive Rules"]/@href)' "site/$game")"
si=$(xp 'string(//li/a[.="Spirit Island"]/@href)' site/index.html)
# (data/003, Spirit Island's six rules, carry no tag; the FAQ pages'
# rulings are Spirit Island's by data/.rulings and $T's manifest)
check_eq "... and the pages of the game's rulings, with its count there" \
	"untagged.html Rulings with no tag (6)|defend-[0-9a-f]{12}.html Defend (17)" \
	"$(for t in 'Rulings with no tag' Defend; do
		printf '%s %s|' "$(xp "string(//ul[@class=\"index\"]/li/a[.=\"$t\"]/@href)" "site/$si")" \
			"$(xp "//ul[@class=\"index\"]/li[a=\"$t\"]" "site/$si" | sed 's/<[^>]*>//g' | tr -d '\n')"
	done | sed 's/|$//; s/defend-[0-9a-f]\{12\}/defend-[0-9a-f]{12}/')"

# ---- pages of rules -----------------------------------------------------------------
p100=$(ls site | grep '^100-magic-')
check_eq "a small chapter is one page, titled by the chapter" "1. Game Concepts" \
	"$(xp '//h1/text()' "site/$p100")"
check_eq "... its section a heading with the section's number as id" "100" \
	"$(xp 'string(//h2/@id)' "site/$p100")"
check_eq "every rule has its number as id" "100.1 100.1a 100.2" \
	"$(xp '//div[@class="rule"]/@id' "site/$p100" | sed 's/ *id="\([^"]*\)"/\1\n/g' | grep . | paste -sd ' ')"
check_eq "a rule's number links to its own anchor" "#100.1a" \
	"$(xp 'string(//div[@id="100.1a"]/p/a[@class="num"]/@href)' "site/$p100")"
check_eq "rules are nested by number: 100.1a inside 100.1" "100.1" \
	"$(xp 'string(//div[@id="100.1a"]/parent::div/@id)' "site/$p100")"
check_eq "a reference in the text links the rule on its page" "$s702#702.19a" \
	"$(xp 'string(//div[@id="100.2"]//a[.="702.19a"]/@href)' "site/$p100")"
check_eq "... and back" "$p100#100.1a" \
	"$(xp 'string(//div[@id="702.19a"]//a[.="100.1a"]/@href)' "site/$s702")"
check_eq "702.19a and b are under 702.19, 702.190 is not" "702.19|702.19|" \
	"$(for r in 702.19a 702.19b 702.190; do printf '%s\n' "$(xp "string(//div[@id='$r']/parent::div/@id)" "site/$s702")"; done | paste -sd '|')"
check_eq "previous, contents, next: the pages in order" "$p100|$toc" \
	"$(xp 'string(//a[@rel="prev"]/@href)' "site/$s702")|$(xp 'string((//div[@class="pager"])[1]/span[.//text()="Contents: "]/a/@href)' "site/$s702")"
tpage=$(ls site | grep '^glossary-t-magic-')
check_eq "the next page of the last chapter is the first letter" \
	"$(ls site | grep '^glossary-a-magic-')" "$(xp 'string(//a[@rel="next"]/@href)' "site/$s702")"
check_eq "a glossary term links the rule it names" "$s702#702.19" \
	"$(xp 'string(//dd//a[.="702.19"]/@href)' "site/$tpage")"

# ---- the seeds' numbered rules (data/004) ------------------------------------------
check_not_contains "no numbered rule on the page of the rulings with no tag" \
	"$(cat site/untagged.html)" "512.1"
book=$(grep -l 'id="512.1"' site/*.html | xargs -n1 basename)
check_match "data/004's rules have a page, 512.1 its anchor" '^511-[a-z0-9-]*[0-9a-f]{12}\.html$' "$book"

# ---- txt: the faq-tags round-trip format, no book (rulings(1), export) ----------
rl --db s.db export --all --format txt -o txt
check_exit "export --all --format txt" 0
check_eq "txt writes no page of the book's rules (its importer could not read one)" "" \
	"$(grep -l '702\.19a' txt/*.txt 2>/dev/null)"
check_match "... and its warning counts them among the rulings with no tag" \
	'warning: [0-9]+ rulings with no tag are on no tag page' "$(cat "$ERR")"

# ---- md: the same books in Markdown (point 1) -------------------------------------
rl --db s.db export --all --format md -o md
check_exit "export --all --format md" 0
run python3 "$_lib_dir/md-site-check.py" md s.db "$_lib_dir/../../po"
mdc=$(cat "$OUT")
check_match "md: every relative link and #anchor resolves (and there are links to anchors)" \
	'^anchored-links: [1-9][0-9]*$' "$(grep -E '^(broken|anchored-links):' <<<"$mdc" | head -5)"
check_eq "md: every page is reached from index.md" "" "$(grep '^unreached:' <<<"$mdc" | head -5)"
check_match "... in three clicks or fewer" '^max-clicks: [0-3]$' "$(grep '^max-clicks:' <<<"$mdc")"
check_eq "md: two books, the rules in number order, the contents in their order" "books: 2" \
	"$(grep -E '^(books|order|toc):' <<<"$mdc" | paste -sd '|')"
check_eq "md: each ruling of a book once on its pages, none elsewhere" "" \
	"$(grep -E '^(missing|twice|stray|untagged):' <<<"$mdc" | head -5)"
check_match "md: untagged.md holds the rulings with no tag outside the books" \
	'^untagged-count: ([0-9]+) \1$' "$(grep '^untagged-count:' <<<"$mdc")"
mtoc=$(ls md | grep '^contents-magic-the-gathering-comprehensive-rules-[0-9a-f]\{12\}\.md$')
m702=$(ls md | grep '^702-magic-')
m100=$(ls md | grep '^100-magic-')
check_eq "md: the contents, chapters as headings with anchors, sections linked to page#number" \
	"## <a id=\"1\"></a>1. Game Concepts|- [100. General]($m100#100)|## <a id=\"7\"></a>7. Additional Rules|- [702. Keyword Abilities]($m702#702)|## Glossary" \
	"$(grep -E '^(## |- \[[0-9])' "md/$mtoc" | paste -sd '|')"
check_contains "md: the index lists the book" "$(cat md/index.md)" \
	"- [Magic: The Gathering Comprehensive Rules]($mtoc) (11 rules, 2 glossary entries)"
check_match "md: ... and links a page per game" '^- \[Magic: The Gathering\]\(game-magic-the-gathering-[0-9a-f]{12}\.md\) \([0-9]+\)$' \
	"$(grep '^- \[Magic: The Gathering\]' md/index.md)"
check_eq "md: a rule is an item with its number as anchor, 702.19a nested in 702.19" \
	"- <a id=\"702.19\"></a>**702.19** Trample|  - <a id=\"702.19a\"></a>**702.19a** Trample is a static ability. See rule [100.1a]($m100#100.1a).|- <a id=\"702.190\"></a>**702.190** Not a subrule of 702.19." \
	"$(grep -E '702\.19(0|a)?"' "md/$m702" | paste -sd '|')"
check_contains "md: a reference links the rule on its page" "$(cat "md/$m100")" "See rule [702.19a]($m702#702.19a) for trample."
check_eq "md: previous, contents, next" \
	"Previous: [1. Game Concepts]($m100) · Contents: [Magic: The Gathering Comprehensive Rules]($mtoc) · Next: [Glossary: A]($(ls md | grep '^glossary-a-magic-'))" \
	"$(sed -n 3p "md/$m702")"
check_contains "md: a glossary term links the rule it names" "$(cat md/glossary-t-magic-*.md)" "[702.19]($m702#702.19)"
check_not_contains "md: no rule of a book on untagged.md" "$(cat md/untagged.md)" "702.19a"
# the Markdown as a CommonMark renderer reads it (cmark, the reference
# implementation; --unsafe: raw HTML kept, as GitHub's renderer keeps it)
if command -v cmark >/dev/null; then
	cmark --unsafe "md/$m702" >702.html
	check_eq "md: in CommonMark every anchor stays, 702.19a is nested in 702.19's item, 702.190 is not" \
		"$(grep -c '<a id=' "md/$m702")|702.19|" \
		"$(grep -o '<a id=' 702.html | wc -l)|$(xp 'string(//a[@id="702.19a"]/ancestor::li[2]/p/a/@id)' 702.html)|$(xp 'string(//a[@id="702.190"]/ancestor::li[2]/p/a/@id)' 702.html)"
else
	echo "cmark is missing (Debian cmark): the CommonMark rendering is not checked"
fi
mb=$(grep -l '^# Быстрые и медленные атаки' md/contents-*.md)
check_eq "md: a Russian book's words are Russian (plural forms: 3 правила; no '0 статей глоссария')" \
	"Далее: |3 правила · Berserk|## Правила|Содержание: |Теги: " \
	"$(sed -n 3p "$mb" | sed 's/: .*/: /')|$(sed -n 5p "$mb")|$(grep '^## ' "$mb")|$(sed -n 3p md/511-*.md | sed 's/: .*/: /')|$(grep -o 'Теги: ' md/511-*.md | head -n 1)"
# tag pages: their words in their language, an anchor per entry (issue 14,
# point 3 in md)
check_eq "md: no English interface word on a French or Russian tag page (site-crawl.py's words)" "" \
	"$(grep '^english:' <<<"$mdc" | head -5)"
check_match "... and there are French and Russian ones to check" '^interface: fr [1-9][0-9]*\|interface: ru [1-9][0-9]*$' \
	"$(grep '^interface:' <<<"$mdc" | paste -sd '|')"
check_match "md: a rule naming an FAQ ruling links its entry on the tag page (page.md#r123)" \
	'^entry-links: [1-9][0-9]*$' "$(grep '^entry-links:' <<<"$mdc")"
mp=$(ls md | grep '^pietinement-[0-9a-f]\{12\}\.md$')
check_match "... 702.19b links it" "See rule \[702\.20\]\($mp#r[0-9]+\)\.$" "$(grep -o 'See rule \[702.20\].*' "md/$m702")"
check_eq "md: a French tag page reads French: its changed, errata and tags words" \
	"**Réponse modifiée.**|*Errata :* Fondations, p. 12|*Étiquettes :* " \
	"$(grep -E '^\*' "md/$mp" | sed 's/\[.*//; s/\xc2\xa0/ /g' | paste -sd '|')"
check_eq "md: untagged.md's title is in its rulings' language (French)" "# Décisions sans étiquette" "$(head -n 1 md/untagged.md)"
mm=md/$(ls md | grep '^mixed-.*\.md$')
check_eq "md: on the English Mixed page the French entry is marked French (heading, answer)" \
	"1|1|# Mixed|*Tags:* " \
	"$(grep -c '^#### <a id="r[0-9]*"></a><span lang="fr">Est-ce' "$mm")|$(grep -c '^<div lang="fr">$' "$mm")|$(head -n 1 "$mm")|$(grep -o '^\*Tags:\* ' "$mm" | sort -u)"

# ---- inline markup (point 5) -------------------------------------------------
mk=site/$(ls site | grep '^markup-test-.*\.html$')
check_eq "**strong**, *em* and [label](https://...) become HTML in a question" \
	"strong|em|a https://example.com/x" \
	"$(xp 'string(name(//div[@class="entry"]/h3/strong))' "$mk")|$(xp 'string(name(//div[@class="entry"]/h3/em))' "$mk")|a $(xp 'string(//div[@class="entry"]/h3/a[.="a link"]/@href)' "$mk")"
check_contains "... not 2 * 3 * 4 nor * a *" "$(xp '//div[@class="entry"]/h3' "$mk")" "2 * 3 * 4 and * a * work?"
check_eq "... nested in an answer" "nested" \
	"$(xp '//div[@class="answer"]/p/strong/em/text()' "$mk")"
check_eq "... a link in an answer leaves the site with rel=nofollow" "nofollow noopener noreferrer" \
	"$(xp 'string(//div[@class="answer"]//a/@rel)' "$mk")"
ast=$(grep -l 'Aid from Lesser Spirits' site/*.html | head -n 1)
check_eq "data/000's *Aid from Lesser Spirits* is emphasis, no asterisk" "0" \
	"$(grep -c '\*Aid from Lesser' "$ast")"
check_eq "a ruling the source says '(Discussion elsewhere)' of on three pages says it once" "" \
	"$(grep -h -o 'References: [^<]*' site/*.html | grep 'elsewhere).*elsewhere)' | head -3)"
check_contains "... and says it" "$(cat site/*.html)" "References: (Discussion elsewhere)"

# ---- languages (point 3) ----------------------------------------------------------
check_eq "a page of one French and two English entries is English" "en" \
	"$(xp 'string(/html/@lang)' "site/$(ls site | grep '^mixed-.*\.html$')")"
check_eq "a Russian tag on the index carries its lang" "ru" \
	"$(xp 'string(//ul[@class="index"]/li/a[.="Быстрые и медленные атаки"]/@lang)' site/index.html)"

# the interface words come from the catalog (po/*.po) in the page's language
btoc=$(xp 'string(//li[@lang="ru"]/a[.="Быстрые и медленные атаки"]/@href)' site/index.html)
bpage=$(xp 'string(//a[@rel="next"]/@href)' "site/$btoc")
check_eq "a Russian book's contents read Russian (plural forms: 3 правила; no '0 статей глоссария')" \
	"ru|Все теги|3 правила · Berserk|Правила|Далее: " \
	"$(xp 'string(/html/@lang)' "site/$btoc")|$(xp 'string(//div[@class="header"]/a)' "site/$btoc")|$(xp 'string(//p[@class="meta"])' "site/$btoc")|$(xp 'string(//h2)' "site/$btoc")|$(xp 'string(//div[@class="pager"]/span)' "site/$btoc" | sed 's/: .*/: /')"
check_eq "... its pages too" "Содержание: |Теги: " \
	"$(xp 'string(//div[@class="pager"]/span)' "site/$bpage" | sed 's/: .*/: /')|$(xp 'string(//div[@class="rule"]/p[@class="tags"]/text())' "site/$bpage")"
mixed=site/$(ls site | grep '^mixed-.*\.html$')
check_eq "the French entry of an English page: its interface words are English, with lang=\"en\"" \
	"Tags: |faq · French · Spirit Island" \
	"$(xp 'string(//div[@lang="fr"]/p[@class="tags"]/span[@lang="en"])' "$mixed")|$(xp 'string(//div[@lang="fr"]/p[@class="meta"][@lang="en"])' "$mixed")"
check_eq "... and its English entries' words carry no lang of their own" "Tags: " \
	"$(xp 'string(//div[@lang="en"]/p[@class="tags"]/text())' "$mixed")"

# changes.html and the feeds in their page's language: the French site's
# only change is French, so its changes.html and feed are French; the
# Mixed tag's page and feed are English, the entry's text marked French
rl --db s.db export --all --lang fr --format html -o site-fr
check_exit "export --lang fr" 0
check_eq "changes.html of French changes: French words, the language's name" \
	"fr|Modifiée · source : Mixte · Spirit Island" \
	"$(xp 'string(/html/@lang)' site-fr/changes.html)|$(xp 'string(//div[@class="entry"]/p[@class="meta"])' site-fr/changes.html)"
atom() {   # FILE: the feed's lang|title|label|the entry's facts|its text's lang
	python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
A, H, L = "{http://www.w3.org/2005/Atom}", "{http://www.w3.org/1999/xhtml}", "{http://www.w3.org/XML/1998/namespace}lang"
f = ET.parse(sys.argv[1]).getroot()
e = f.find(A + "entry")
p = e.find(A + "content").find(H + "div").findall(H + "p")
print("|".join([f.get(L, "-"), f.findtext(A + "title"), e.find(A + "category").get("label"),
                p[0].text.split(" (")[1], p[1].get(L, "-")]))
PY
}
day=$(xp 'string(//h2)' site-fr/changes.html)
check_eq "the site's feed of French changes: xml:lang, title, kind, facts in French" \
	"fr|Modifications : Décisions|Modifiée|version du $day) · Spirit Island · faq · français|-" \
	"$(atom site-fr/changes.atom)"
check_eq "an English tag's feed: English words, the French entry's text xml:lang=fr" \
	"en|Changes: Mixed|Edited|version of $day) · Spirit Island · faq · French|fr" \
	"$(atom "${mixed%.html}.atom")"


# ---- a glossary kept as a file per term -----------------------------------------
# The files of one game and language whose rulings are all glossary entries
# are one book, the glossary, titled in their language (each was a book of
# one entry: 207 on the index of the Marvel Champions corpus); a file alone
# of its game stays a book of its own title.
mkdir -p gl/Glossaire/D gl/Glossaire/P other
printf '# Défausser\nPlacer une carte dans la pile de défausse.\n' > gl/Glossaire/D/Defausser.md
printf '# Dégâts\nLes dégâts réduisent les points de vie.\n' > gl/Glossaire/D/Degats.md
printf '# Pouvoir\nUn pouvoir est une capacité.\n' > gl/Glossaire/P/Pouvoir.md
printf '# Lone Term\nA term alone of its game.\n' > other/Lone.md
rl --db gl.db import --no-thesaurus --game "Gloss Game" gl
rl --db gl.db import --no-thesaurus --game "Lone Game" other
check_exit "a glossary of a file per term imports" 0
rl --db gl.db export --all --format html -o gl-site
check_exit "... and exports" 0
# (a count of zero beside the other is left out: it read "0 règle, 3
# entrées de glossaire")
check_eq "its three files are one book, titled in French, beside the file alone of its game" \
	"Glossaire (3 entrées de glossaire)|Lone Term (1 entrée de glossaire)" \
	"$(grep 'href="contents-' gl-site/index.html | sed 's/<[^>]*>//g' | paste -sd '|')"
check_not_contains "an index with no tag page has no heading of tags (nor an empty list)" \
	"$(cat gl-site/index.html)" "<h2>Étiquettes</h2>"
check_not_contains "... nor an empty list" "$(tr -d '\n' <gl-site/index.html)" \
	'<ul class="index"></ul>'
check_eq "... whose pages are the letters of all three" "D (2)|P (1)" \
	"$(grep -l '<h1>Glossaire</h1>' gl-site/contents-*.html | head -n 1 | xargs -r sed -n 's/.*<a href="glossary-[^"]*">\([^<]*\)<\/a>.*/\1/p' | paste -sd '|')"

# ---- the crawl --------------------------------------------------------------------
run python3 "$_lib_dir/site-crawl.py" site "$_lib_dir/../../po"
check_exit "the crawl" 0
crawl=$(cat "$OUT")
check_eq "no broken link (page or anchor)" "" "$(grep '^broken:' <<<"$crawl")"
check_eq "every page is reached from index.html" "" "$(grep '^unreached:' <<<"$crawl")"
check_eq "every page's lang is the language of most of its entries" "" \
	"$(grep '^lang:' <<<"$crawl" | head -5)"
check_match "... in three clicks or fewer" '^max-clicks: [0-3]$' "$(grep '^max-clicks:' <<<"$crawl")"
check_eq "no link whose text is a bare # (without an aria-label)" "" \
	"$(grep '^bare-hash:' <<<"$crawl" | head -5)"
check_eq "no page skips a heading level" "" \
	"$(grep '^heading-skip:' <<<"$crawl" | head -5)"
check_eq "no English interface word in a French or Russian element, on any page" "" \
	"$(grep '^english:' <<<"$crawl" | head -5)"
check_match "... of the many texts checked" '^interface: [0-9]{3,}$' "$(grep '^interface:' <<<"$crawl")"
run python3 "$_lib_dir/site-crawl.py" site-fr "$_lib_dir/../../po"
check_eq "... nor on the French site's pages (changes.html)" "" \
	"$(grep -E '^(english|broken|unreached):' "$OUT" | head -5)"

finish
