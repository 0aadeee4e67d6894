#!/usr/bin/env bash
# Unicode through utf8proc (issue 11, point 5): one tag and one ruling
# whichever way the same text is typed — curly or straight apostrophes,
# marks in or out of canonical order, capitals (full case folding: ß ẞ ss,
# final ς, İ) — and search that folds as its tokenizer does (Vietnamese,
# Romanian, Turkish, German, Greek).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

# page FILE TITLE QUESTION ANSWER TAGS: an FAQ tag page of one entry.
page() {
	printf '%s\n\nFrequently Asked Questions\n\nCards\n\n\xe2\x80\xa2 %s\n  %s\n  Tags: %s\n' \
		"$2" "$3" "$4" "$5" >"$1"
}
# count_tag DB TAG: how many rulings search --tag TAG finds.
count_tag() {
	rl --db "$1" search --tag "$2" --no-thesaurus --format json --limit 0
	json_get 'len(d["results"])' 2>/dev/null || echo "exit $STATUS"
}
tags_like() {
	rl --db "$1" tags
	grep -ci -- "$2" "$OUT"
}

# ---- apostrophes and quotes -----------------------------------------------------
page p1.txt "Page one" "Can Lightning’s Boon target “itself”?" "No." "Storm’s Oath, Sky"
page p2.txt "Page two" "Can Lightning's Boon target \"itself\"?" "No." "Storm's Oath"
page p3.txt "Page three" "Can Lightningʼs Boon target «itself»?" "No." "STORMʼS OATH"
rl --db a.db import --no-thesaurus p1.txt p2.txt p3.txt
check_exit "three pages, three apostrophes" 0
check_out_contains "...the second and third add no ruling" "3 documents: 3 imported"
rl --db a.db stats --format json
check_json "one ruling for the three spellings of the question" 'd["rulings"] == 1'
check_eq "one tag for Storm’s Oath, Storm's Oath and STORMʼS OATH" 1 \
	"$(tags_like a.db "^storm")"
for t in "Storm's Oath" "Storm’s Oath" "storm‘s oath" "STORMʼS OATH"; do
	check_eq "--tag $t finds the ruling" 1 "$(count_tag a.db "$t")"
done
rl --db a.db search --format json '“Lightning’s Boon”'
check_json "a typeset phrase in a query is a phrase" 'len(d["results"]) == 1'
rl --db a.db search --format json "Lightning's" boon
check_json "...a straight apostrophe finds the curly one" 'len(d["results"]) == 1'
rl --db a.db show 1 --format json
check_json "the ruling keeps its sources on the three pages" 'len(d["sources"]) == 3'

# ---- marks out of canonical order, Vietnamese -------------------------------------
# ậ: a + dot below (220) + circumflex (230), in either order, or composed
q1=$'C\xe1\xba\xadu h\xe1\xbb\x8fi?'                     # Cậu hỏi? (composed)
q2=$'Ca\xcc\xa3\xcc\x82u ho\xcc\x89i?'                  # dot below first
q3=$'Ca\xcc\x82\xcc\xa3u ho\xcc\x89i?'                  # circumflex first
page v1.txt "Trang một" "$q1" $'Ti\xe1\xba\xbfng Vi\xe1\xbb\x87t th\xc3\xb4i.' $'Ti\xe1\xba\xbfng Vi\xe1\xbb\x87t'
page v2.txt "Trang hai" "$q2" $'Tie\xcc\x82\xcc\x81ng Vie\xcc\xa3\xcc\x82t tho\xcc\x82i.' $'TIE\xcc\x82\xcc\x81NG VIE\xcc\xa3\xcc\x82T'
page v3.txt "Trang ba" "$q3" $'Ti\xe1\xba\xbfng Vi\xe1\xbb\x87t th\xc3\xb4i.' $'ti\xe1\xba\xbfng vi\xe1\xbb\x87t'
rl --db v.db import --no-thesaurus --lang vi v1.txt v2.txt v3.txt
check_exit "Vietnamese pages, composed and decomposed" 0
rl --db v.db stats --format json
check_json "marks in any order: one ruling" 'd["rulings"] == 1'
check_eq "...and one tag" 1 "$(tags_like v.db "^ti")"
rl --db v.db show 1 --format json
check_json "its text is stored composed (NFC)" \
	'd["title"] == "C\u1eadu h\u1ecfi?" and "Ti\u1ebfng Vi\u1ec7t" in d["text"]'
rl --db v.db search tieng viet --format json
check_json "tieng viet finds Tiếng Việt" 'len(d["results"]) == 1'
rl --db v.db search --tag 'TIẾNG VIỆT' --format json
check_json "--tag in capitals finds it" 'len(d["results"]) == 1'

# ---- Romanian, Turkish, German, Greek ---------------------------------------------------
page r1.txt "Pagina" "Ce face Știința?" "Ajută." "Știință"
page r2.txt "Pagina doi" "Ce face ȘTIINȚA?" "Ajută." "ȘTIINȚĂ"
page r3.txt "Pagina trei" "Ce face Ştiinţa veche?" "Ajută." "Ştiinţă"
rl --db r.db import --no-thesaurus --lang ro r1.txt r2.txt r3.txt
check_exit "Romanian pages" 0
check_eq "Știință and ȘTIINȚĂ (comma below) are one tag" 1 "$(count_tag r.db "știință")"
check_eq "Ştiinţă with cedillas is a tag of its own" 1 "$(count_tag r.db "Ştiinţă")"
rl --db r.db search stiinta --format json
check_json "search stiinta finds comma and cedilla spellings" 'len(d["results"]) == 2'

page t1.txt "Sayfa" "İstanbul nerede?" "Orada." "İstanbul"
page t2.txt "Sayfa iki" $'i\xcc\x87stanbul nerede?' "Orada." $'i\xcc\x87stanbul'
page t3.txt "Sayfa üç" "Ilık mı?" "Evet." "ılık"
rl --db t.db import --no-thesaurus --lang tr t1.txt t2.txt t3.txt
check_exit "Turkish pages" 0
rl --db t.db stats --format json
check_json "İstanbul and i + U+0307 stanbul: one ruling" 'd["rulings"] == 2'
check_eq "...one tag" 1 "$(count_tag t.db "İSTANBUL")"
check_eq "dotless ı stays itself: ılık is no ilik" 0 "$(count_tag t.db "ilik")"
check_eq "...ılık is ILIK (I folds to ı? no: to i) — found as ılık" 1 "$(count_tag t.db "ılık")"
rl --db t.db search istanbul --format json
check_json "search istanbul finds İstanbul" 'len(d["results"]) == 1'

page g1.txt "Seite" "Wie lang ist die Straße?" "Lang." "Straße"
page g2.txt "Seite zwei" "WIE LANG IST DIE STRAẞE?" "Lang." "STRAẞE"
page g3.txt "Seite drei" "Wie lang ist die Strasse?" "Lang." "STRASSE"
rl --db g.db import --no-thesaurus --lang de g1.txt g2.txt g3.txt
check_exit "German pages" 0
rl --db g.db stats --format json
check_json "Straße, STRAẞE and Strasse: one ruling" 'd["rulings"] == 1'
check_eq "...and one tag" 1 "$(tags_like g.db "^stra")"
check_eq "--tag strasse finds it" 1 "$(count_tag g.db strasse)"

page e1.txt "Σελίδα" "Τι είναι ο ΚΑΝΟΝΑΣ;" "Νόμος." "ΚΑΝΟΝΑΣ"
page e2.txt "Σελίδα δύο" "Τι είναι ο κανονας;" "Νόμος." "κανονας"
rl --db e.db import --no-thesaurus --lang el e1.txt e2.txt
check_exit "Greek pages" 0
rl --db e.db stats --format json
check_json "final ς and Σ: one ruling" 'd["rulings"] == 1'
check_eq "...one tag" 1 "$(count_tag e.db "κανονασ")"
rl --db e.db search κανονας --format json
check_json "search κανονας finds ΚΑΝΟΝΑΣ" 'len(d["results"]) == 1'

finish
