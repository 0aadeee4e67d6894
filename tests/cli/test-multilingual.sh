#!/usr/bin/env bash
# Multilingual search: the sample data of every format and language imported
# as the README does, stemming (en, fr, ru; case, accents and ё/е fold),
# phrase and prefix queries, --lang, the thesaurus across languages, and
# cross-references (show refs/back-links, xrefs --dangling).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

# The whole data directory, copied so that the recorded paths are inside $T
# and the commands below read exactly like the README's.
cp -R "$DATA" "$T/data" || exit 2
M=(--db m.db)

# Lists the ids of a search/--format json answer in $OUT as a Python list.
ids() {
	json_get 'sorted(r["id"] for r in d["results"])'
}

# ==== import: no flags but --game for the FAQ pages and for 004 ================
# (--no-thesaurus: the thesaurus comes with data/ below, as a document of
# the directory)
rl "${M[@]}" import --no-thesaurus --game "Spirit Island" data/000_*.txt data/001_*.txt
check_exit "import --game 'Spirit Island' 000 001 succeeds" 0
check_match "000 is detected as faq-tags, en" \
	'^imported data/000_033b5c31b01b6f02\.txt: .*\(faq-tags, en\)$' "$(cat "$OUT")"
check_match "001 is detected as faq-tags, en" \
	'^imported data/001_8e68847c21c72d28\.txt: .*\(faq-tags, en\)$' "$(cat "$OUT")"
check_err_empty "the FAQ pages import without diagnostics"

rl "${M[@]}" import --game Berserk data/004_*.txt
check_exit "import --game Berserk 004 succeeds" 0
check_match "004 is detected as numbered-rules, ru" \
	'^imported data/004_ef987a4e02cf8b4c\.txt: .*\(numbered-rules, ru\)$' "$(cat "$OUT")"
check_err_empty "004 imports without diagnostics"

# A glossary entry of a few words is told by them: "Voir :", "de", French
# quotes (the Marvel Champions corpus's tiny pages were detected English);
# its English twin stays English.
printf '# Deck vide\n**Voir :**  \n[[DeckJoueur|Deck joueur]]\n' >tiny-fr1.md
printf '# \xc2\xabChaque fois\xc2\xbb\n**Voir :**  \n[[EffetsAlteration]]\n' >tiny-fr2.md
printf '# ATQ\n**Voir :**  \n[[PouvoirDeBase|Pouvoir de base]]\n' >tiny-fr3.md
printf '# Deck out\n**See:**  \n[[DiscardPile|Discard pile]]\n' >tiny-en.md
tiny=
for f in tiny-fr1 tiny-fr2 tiny-fr3 tiny-en; do
	tiny+="$f=$("$RULINGS" parse "$f.md" 2>/dev/null | sed -n 's/^  "lang": "\(.*\)",$/\1/p') "
done
check_eq "tiny glossary pages: French ones French, the English one English" \
	"tiny-fr1=fr tiny-fr2=fr tiny-fr3=fr tiny-en=en " "$tiny"

rl "${M[@]}" import data
check_exit "import data (no flags) succeeds" 0
import_out=$(cat "$OUT")
check_match "002 is detected as encyclopedia, fr" \
	'^imported data/002_7fed5f086b7fccf3\.txt: .*\(encyclopedia, fr\)$' "$import_out"
check_match "003 is detected as rules-summary, fr" \
	'^imported data/003_ec034672c1b9d987\.txt: .*\(rules-summary, fr\)$' "$import_out"
check_match "thesaurus.txt is detected as a thesaurus, with its concepts" \
	'^imported data/thesaurus\.txt: [1-9][0-9]* concepts \(thesaurus\)$' "$import_out"
# The bytes of 000, 001 and 004 are already the latest version of their
# documents (imported with --game): import data leaves them alone.
for f in 000_033b5c31b01b6f02 001_8e68847c21c72d28 004_ef987a4e02cf8b4c; do
	check_contains "import data: $f is unchanged" "$import_out" "unchanged data/$f.txt"
done
check_contains "import data: 3 imported, 3 unchanged, nothing failed" "$import_out" \
	"6 documents: 3 imported, 3 unchanged, 0 skipped, 0 failed"
check_not_contains "import data: no errors (002's side-box warnings are expected)" \
	"$(cat "$ERR")" ": error:"

rl "${M[@]}" stats --format json
check_json "stats: rulings in en, fr and ru" 'set(d["languages"]) == {"en", "fr", "ru"}'
check_json "stats: three games, each named with its rulings" \
	'[g["name"] for g in d["games"]] == ["Berserk", "NeuroScape", "Spirit Island"] and all(g["rulings"] > 0 for g in d["games"])'
n_all=$(json_get 'd["rulings"]')
n_fr=$(json_get 'd["languages"]["fr"]')

# Every ruling per language, for what the checks below expect.
rl "${M[@]}" search --lang en -n 0 --format json; cp "$OUT" en.json
rl "${M[@]}" search --lang fr -n 0 --format json; cp "$OUT" fr.json
rl "${M[@]}" search --lang ru -n 0 --format json; cp "$OUT" ru.json
check_json "the French rulings come from 002 and 003" \
	'd["total"] > 0 and {r["sources"][0]["path"][-24:-20] for r in d["results"]} == {"002_", "003_"}' fr.json
check_json "002 names its game: NeuroScape" \
	'all(r["game"] == "NeuroScape" for r in d["results"] if "/002_" in r["sources"][0]["path"]) and any("/002_" in r["sources"][0]["path"] for r in d["results"])' fr.json
check_json "003 names its game: Spirit Island" \
	'all(r["game"] == "Spirit Island" for r in d["results"] if "/003_" in r["sources"][0]["path"]) and any("/003_" in r["sources"][0]["path"] for r in d["results"])' fr.json
check_json "the Russian rulings are 004's, game Berserk (import data kept it)" \
	'd["total"] == 4 and all(r["game"] == "Berserk" and "/004_" in r["sources"][0]["path"] for r in d["results"])' ru.json
check_json "the English rulings are the FAQ pages', game Spirit Island" \
	'd["total"] == 35 and all(r["game"] == "Spirit Island" for r in d["results"])' en.json
check_json "the Russian rules carry their numbers (511.8, 512.1, 512.2)" \
	'{"511.8", "512.1", "512.2"} <= {r["rule"] for r in d["results"]}' ru.json
rl "${M[@]}" search --game NeuroScape -n 0 --format json
check_json "--game NeuroScape: the encyclopedia's rulings and glossary, in French" \
	'd["total"] > 0 and all(r["lang"] == "fr" for r in d["results"]) and {r["kind"] for r in d["results"]} == {"rule", "glossary"}'

r511_8=$(json_get '[r["id"] for r in d["results"] if r["rule"] == "511.8"][0]' ru.json)
r512_1=$(json_get '[r["id"] for r in d["results"] if r["rule"] == "512.1"][0]' ru.json)
r_title=$(json_get '[r["id"] for r in d["results"] if r["title"] == "Быстрые и медленные атаки"][0]' ru.json)
isoler=$(json_get '[r["id"] for r in d["results"] if r["title"].startswith("Isoler")][0]' fr.json)
check_match "the ids to check were found" '^[0-9]+ [0-9]+ [0-9]+ [0-9]+$' \
	"$r511_8 $r512_1 $r_title $isoler"

# ==== stemming ====================================================================
# атаками (instrumental plural) finds the other forms: атака, атаки, атакой.
want_ataka=$(json_get 'sorted(r["id"] for r in d["results"] if re.search(r"\bатак(а|и|ой|у)\b", (r["title"] + " " + r["text"]).lower()))' ru.json)
check_match "the sample has several rulings with атака/атаки/атакой" \
	'^\[[0-9]+, [0-9]+, [0-9]+' "$want_ataka"
rl "${M[@]}" search атаками -n 0 --format json
check_exit "search атаками finds something" 0
n_attacks=$(json_get 'd["total"]')
rl "${M[@]}" search что с атаками -n 0 --format json
check_json "Russian stop words are left out too" "d['total'] == $n_attacks"
rl "${M[@]}" search атаками -n 0 --format json
check_json "search атаками: every ruling with атака/атаки/атакой/атаку" \
	"set(${want_ataka:-[0]}) <= {r['id'] for r in d['results']}"
check_json "search атаками: only Russian rulings" \
	'all(r["lang"] == "ru" for r in d["results"])'
check_json "search атаками: the snippets mark a form of the word" \
	'all(re.search(r"атак", r["snippet"].lower()) for r in d["results"])'

rl "${M[@]}" search медленная атака -n 0 --format json
check_exit "search медленная атака finds something" 0
check_json "search медленная атака finds rule 512.1 (медленной атакой)" \
	"$r512_1 in [r['id'] for r in d['results']]"
check_json "...and 512.1 is among the best two" \
	"$r512_1 in [r['id'] for r in d['results'][:2]]"

want_reponse=$(json_get 'sorted(r["id"] for r in d["results"] if re.search(r"\bréponses?\b", (r["title"] + " " + r["text"]).lower()))' fr.json)
check_match "the sample has French rulings with réponse(s)" '^\[[0-9]+' "$want_reponse"
rl "${M[@]}" search reponses -n 0 --format json
check_exit "search reponses finds something" 0
check_json "search reponses: every ruling with réponse or réponses" \
	"set(${want_reponse:-[0]}) <= {r['id'] for r in d['results']}"
check_json "search reponses: French rulings only" \
	'all(r["lang"] == "fr" for r in d["results"])'
rl "${M[@]}" search RÉPONSE -n 0 --format json
check_json "search RÉPONSE (case, accent): the same rulings" \
	"set(${want_reponse:-[0]}) <= {r['id'] for r in d['results']}"

rl "${M[@]}" search --tag Defend -n 0 --format json
want_defend=$(json_get 'sorted(r["id"] for r in d["results"] if re.search(r"\bdefend", (r["title"] + " " + r["text"]).lower()))')
rl "${M[@]}" search defended -n 0 --format json
check_exit "search defended finds something" 0
check_json "search defended: every Defend ruling that says defend/defends/defended" \
	"sorted(r['id'] for r in d['results']) == ${want_defend:-[0]} and len(d['results']) >= 10"
check_json "search defended: all are tagged Defend, in English" \
	'all("defend" in tagset(r) and r["lang"] == "en" for r in d["results"])'

want_desolee=$(json_get 'sorted(r["id"] for r in d["results"] if re.search(r"\bdésolées?\b", r["text"].lower()))' fr.json)
check_match "the sample has French rulings with désolée(s)" '^\[[0-9]+' "$want_desolee"
# the forms of désoler, and "Désolation", which Snowball stems with them
want_desol=$(json_get 'sorted(r["id"] for r in d["results"] if re.search(r"\bdésol(e|es|ent|er|ez|é|ée|és|ées|ation)\b", r["text"].lower()))' fr.json)
# (without the thesaurus, which also widens "désolée" to English "Blighted")
rl "${M[@]}" search désolée --no-thesaurus -n 0 --format json; cp "$OUT" desolee.json
rl "${M[@]}" search desolee --no-thesaurus -n 0 --format json
check_exit "search desolee finds something" 0
check_json "search desolee: the rulings with désolées, désoler's other forms and désolation" \
	"sorted(r['id'] for r in d['results']) == ${want_desol:-[0]} and set(${want_desolee:-[0]}) <= set(${want_desol:-[0]})"
check_json "...what 'désolée' typed with its accents finds" \
	"sorted(r['id'] for r in d['results']) == $(json_get 'sorted(r["id"] for r in d["results"])' desolee.json)"
rl "${M[@]}" search desolee -n 0 --format json
check_json "search desolee with the thesaurus: those and English Blighted ones" \
	"set(${want_desolee:-[0]}) < set(r['id'] for r in d['results']) and any(r['lang'] == 'en' for r in d['results'])"

# ё = е, on a document of our own (a separate database).
mkdir -p own
cat >own/yo.txt <<'EOF'
Ёлки и атаки

Вступление: правила о лесе.

101.1. Ёлка стоит в лесу.

101.2. Атакующий игрок рубит ёлку.

101.3. Зелёная ель растёт у дороги.
EOF
O=(--db o.db)
rl "${O[@]}" import --game "Yo Test" own/yo.txt
check_exit "import of the ё document succeeds" 0
check_out_contains "the ё document is numbered-rules, ru" "(numbered-rules, ru)"
check_err_empty "the ё document imports without diagnostics"
for q in елка ёлка ЁЛКА ЕЛКА елку; do
	rl "${O[@]}" search "$q" -n 0 --format json
	check_json "search $q: Ёлка (101.1) and ёлку (101.2), not 101.3" \
		'{"101.1", "101.2"} <= {r["rule"] for r in d["results"]} and "101.3" not in {r["rule"] for r in d["results"]}'
done
rl "${O[@]}" search зеленая --format json
check_json "search зеленая finds Зелёная (101.3)" \
	'[r["rule"] for r in d["results"]] == ["101.3"]'
rl "${O[@]}" search '"елка стоит"' --format json
check_json "phrase \"елка стоит\" finds \"Ёлка стоит\" (101.1) alone" \
	'[r["rule"] for r in d["results"]] == ["101.1"]'
for q in 'елк*' 'ёлк*' 'ЁЛК*'; do
	rl "${O[@]}" search "$q" -n 0 --format json
	check_json "prefix $q finds Ёлка and ёлку, not 101.3" \
		'{"101.1", "101.2"} <= {r["rule"] for r in d["results"]} and "101.3" not in {r["rule"] for r in d["results"]}'
done

# ---- phrases and prefixes --------------------------------------------------------
rl "${M[@]}" search '"медленной атакой"' -n 0 --format json
check_exit "phrase \"медленной атакой\" finds something" 0
check_json "phrase \"медленной атакой\" finds rule 512.1" \
	"$r512_1 in [r['id'] for r in d['results']]"
check_json "phrase: Russian rulings only" 'all(r["lang"] == "ru" for r in d["results"])'
rl "${M[@]}" search '"атакой медленной"'
check_exit "the words in the other order are not the phrase: nothing" 1

rl "${M[@]}" search 'атак*' -n 0 --format json
check_exit "prefix атак* finds something" 0
check_json "prefix атак*: every ruling with атака/атаки/атакой" \
	"set(${want_ataka:-[0]}) <= {r['id'] for r in d['results']}"
rl "${O[@]}" search 'атакую*' -n 0 --format json
check_exit "prefix атакую* finds Атакующий" 0
check_json "prefix атакую* (not a stem): exactly rule 101.2 (Атакующий)" \
	'[r["rule"] for r in d["results"]] == ["101.2"]'
want_atakuyu=$(json_get 'sorted(r["id"] for r in d["results"] if re.search(r"\bатакую", r["text"].lower()))' ru.json)
rl "${M[@]}" search 'атакую*' -n 0 --format json
check_json "prefix атакую* on the sample: the rules saying атакующий/атакующем" \
	"sorted(r['id'] for r in d['results']) == ${want_atakuyu:-[0]} and len(d['results']) >= 1"

# ==== --lang ======================================================================
rl "${M[@]}" search --lang fr -n 0 --format json
check_json "--lang fr alone: every French ruling, nothing else" \
	"d['total'] == ${n_fr:-0} and all(r['lang'] == 'fr' for r in d['results'])"
rl "${M[@]}" search --tag 'Swift (rapide)' --lang fr -n 0 --format json
check_json "--tag 'Swift (rapide)' --lang fr: French entries only" \
	'd["total"] > 0 and all(r["lang"] == "fr" for r in d["results"])'
rl "${M[@]}" search Isolate --game 'Spirit Island' --lang fr -n 0 --format json
check_json "search Isolate --lang fr: the French Isoler ruling alone" \
	"[r['id'] for r in d['results']] == [${isoler:-0}]"
rl "${M[@]}" search reponses --lang ru
check_exit "search reponses --lang ru: nothing" 1
rl "${M[@]}" search атаками --lang fr
check_exit "search атаками --lang fr: nothing" 1
rl "${M[@]}" search defended --lang en -n 0 --format json
check_json "search defended --lang en: the same Defend rulings" \
	"sorted(r['id'] for r in d['results']) == ${want_defend:-[0]}"

rl "${M[@]}" search --lang any -n 0 --format json
check_json "--lang any alone: every ruling" "d['total'] == ${n_all:-0}"
rl "${M[@]}" search --tag 'Speed (Fast/Slow)' --lang any -n 0 --format json
any_speed=$(ids)
rl "${M[@]}" search --lang any -n 0 --format json 'Isolate OR tag:Isolate'
any_isolate_tag=$(ids)
check_json "--lang any: English and French" \
	'{r["lang"] for r in d["results"]} == {"en", "fr"}'
# Observed (and documented in README and --help): without --lang, search
# covers every language, exactly like --lang any.
rl "${M[@]}" search -n 0 --format json 'Isolate OR tag:Isolate'
check_eq "the default is any: the same rulings as with --lang any" \
	"$any_isolate_tag" "$(ids)"
rl "${M[@]}" search Isolate --game 'Spirit Island' --lang any -n 0 --format json
any_isolate=$(ids)
rl "${M[@]}" search Isolate --game 'Spirit Island' -n 0 --format json
check_eq "the default is any: words give the same rulings as with --lang any" \
	"$any_isolate" "$(ids)"
rl "${M[@]}" search атаками -n 0 --format json
check_json "the default is any: Russian words find Russian rulings" 'd["total"] >= 3'
rl "${M[@]}" search reponses -n 0 --format json
check_json "the default is any: French words find French rulings" 'd["total"] >= 1'

# (FR is fr, as lang:FR in a query is: test-arguments.sh)
for bad in english e '' f1 'fr,ru' 'f r' FRA1; do
	rl "${M[@]}" search reponses --lang "$bad"
	check_exit "--lang '$bad' is a usage error (exit 2)" 2
	check_err_contains "--lang '$bad': the message names --lang" "--lang"
	check_out_empty "--lang '$bad': nothing on stdout"
done
rl "${M[@]}" search --lang english
check_exit "--lang english as the only filter: exit 2" 2

# ==== the thesaurus ===============================================================
# A concept widens a search within its game only: no concept ties Spirit
# Island's "Speed (Fast/Slow)" to NeuroScape's "Swift (rapide)" or to
# Berserk's fast and slow attacks, three different rules.
rl "${M[@]}" search --tag 'Speed (Fast/Slow)' --lang any -n 0 --format json
check_json "--tag 'Speed (Fast/Slow)': Spirit Island's 18 English entries" \
	'd["total"] == 18 and all(r["lang"] == "en" and r["game"] == "Spirit Island" for r in d["results"])'
rl "${M[@]}" search --tag 'Speed (Fast/Slow)' --lang any --no-thesaurus -n 0 --format json
check_eq "--tag 'Speed (Fast/Slow)': the same with --no-thesaurus" "$any_speed" "$(ids)"
rl "${M[@]}" search --tag 'Swift (rapide)' --lang any -n 0 --format json
check_json "--tag 'Swift (rapide)': NeuroScape's alone" \
	'd["total"] > 0 and all(r["game"] == "NeuroScape" for r in d["results"])'
rl "${M[@]}" search --tag 'Быстрые и медленные атаки' -n 0 --format json
check_json "--tag 'Быстрые и медленные атаки': Berserk's alone" \
	'd["total"] > 0 and all(r["game"] == "Berserk" for r in d["results"])'
# A game's own concepts, in a thesaurus of that game (import --game), and
# the same French tag and word in another game: widened in the game only.
printf '# rulings thesaurus\nen:Speed (Fast/Slow) = fr:Rapide\nen:Shroud = fr:Voile\n' \
	>own/si-thesaurus.txt
for g in "Spirit Island" NeuroScape; do
	slug=$(printf %s "$g" | tr -dc 'A-Za-z')
	printf 'Rapide\n\nQuestions\n\nG\xc3\xa9n\xc3\xa9ral\n\n\xe2\x80\xa2 Une question de %s ?\n  Le Voile couvre tout.\n  Tags: Rapide\n' \
		"$slug" >"own/rapide-$slug.txt"
	rl "${M[@]}" import --game "$g" --lang fr "own/rapide-$slug.txt"
	check_exit "a French page tagged Rapide, of $g, imports" 0
done
rl "${M[@]}" import --game "Spirit Island" own/si-thesaurus.txt
check_exit "a thesaurus of Spirit Island's own imports" 0
rl "${M[@]}" search --tag 'Speed (Fast/Slow)' -n 0 --format json
check_json "--tag 'Speed (Fast/Slow)': Spirit Island's Rapide entry too" \
	'any(r["lang"] == "fr" and r["game"] == "Spirit Island" for r in d["results"]) and d["total"] == 19'
check_json "...but not NeuroScape's Rapide entry" \
	'not any(r["game"] == "NeuroScape" for r in d["results"])'
rl "${M[@]}" search --tag 'Speed (Fast/Slow)' --game NeuroScape
check_exit "--tag 'Speed (Fast/Slow)' --game NeuroScape: nothing" 1
rl "${M[@]}" search --tag Rapide -n 0 --format json
check_json "--tag Rapide: both Rapide entries, and Spirit Island's Speed ones" \
	'd["total"] == 20 and {r["game"] for r in d["results"]} == {"Spirit Island", "NeuroScape"}'
rl "${M[@]}" search shroud -n 0 --format json
check_json "search shroud: Spirit Island's Voile, not NeuroScape's" \
	'[r["game"] for r in d["results"] if r["lang"] == "fr"] == ["Spirit Island"]'
rl "${M[@]}" search shroud --game NeuroScape
check_exit "search shroud --game NeuroScape: the concept is not NeuroScape's" 1
# A thesaurus's version replaces the concepts of the one before; the older
# version imported again is in force again (its bytes were "unchanged":
# the newer one's concepts stayed, and Shroud found no Voile any more).
printf '# rulings thesaurus\nen:Speed (Fast/Slow) = fr:Rapide\nen:Cloak = fr:Voile\n' \
	>own/si-thesaurus-2.txt
rl "${M[@]}" import --game "Spirit Island" own/si-thesaurus-2.txt
check_out_contains "the thesaurus's second version imports" "imported own/si-thesaurus-2.txt"
rl "${M[@]}" search shroud --lang fr -n 0 --format json
check_json "...search shroud: no Voile by it" 'd["total"] == 0'
rl "${M[@]}" search cloak --lang fr -n 0 --format json
check_json "...search cloak: Spirit Island's Voile" \
	'[r["game"] for r in d["results"]] == ["Spirit Island"]'
rl "${M[@]}" import --game "Spirit Island" own/si-thesaurus.txt
check_out_contains "the first version again is imported, not unchanged" \
	"imported own/si-thesaurus.txt"
rl "${M[@]}" search shroud --lang fr -n 0 --format json
check_json "...search shroud: Spirit Island's Voile again" \
	'[r["game"] for r in d["results"]] == ["Spirit Island"]'
rl "${M[@]}" search cloak --lang fr -n 0 --format json
check_json "...search cloak: nothing, as before the second" 'd["total"] == 0'
rl "${M[@]}" import --game "Spirit Island" own/si-thesaurus.txt
check_out_contains "...and once more: unchanged" "unchanged own/si-thesaurus.txt"

# search and export select the same rulings for a tag
for tg in 'Speed (Fast/Slow)' Rapide Defend 'Swift (rapide)'; do
	rl "${M[@]}" search --tag "$tg" -n 0 --format json
	want=$(ids)
	rl "${M[@]}" export --tag "$tg" --format json -o -
	check_eq "export --tag '$tg' selects what search --tag does" "$want" "$(ids)"
done

rl "${M[@]}" search Isolate --lang any --game 'Spirit Island' -n 0 --format json
check_exit "search Isolate --game 'Spirit Island' finds something" 0
check_json "search Isolate finds the French Isoler ruling" \
	"${isoler:-0} in [r['id'] for r in d['results']]"
check_json "search Isolate still finds the English Isolate rulings" \
	'any(r["lang"] == "en" and "isolate" in (r["title"] + r["text"]).lower() for r in d["results"])'
rl "${M[@]}" search isolate --game 'spirit island' -n 0 --format json
check_json "lower-case isolate and game: the Isoler ruling too" \
	"${isoler:-0} in [r['id'] for r in d['results']]"
rl "${M[@]}" search Isoler --game 'Spirit Island' -n 0 --format json
check_json "search Isoler finds the French and the English rulings" \
	'any(r["lang"] == "en" for r in d["results"]) and any(r["lang"] == "fr" for r in d["results"])'
# (Isoler and Isolate share an English stem; Conflit and Strife share none.)
rl "${M[@]}" search Conflit --game 'Spirit Island' --lang en -n 0 --format json
check_json "search Conflit --lang en finds the English Strife rulings (both ways)" \
	'd["total"] >= 1 and all("strife" in (r["title"] + r["text"]).lower() for r in d["results"])'
rl "${M[@]}" search Conflit --game 'Spirit Island' --lang en --no-thesaurus
check_exit "...and --no-thesaurus turns that off" 1
rl "${M[@]}" search Isolate --lang any --game 'Spirit Island' --no-thesaurus -n 0 --format json
check_exit "--no-thesaurus: search Isolate still finds the English ruling" 0
check_json "--no-thesaurus: search Isolate finds no French ruling" \
	'all(r["lang"] == "en" for r in d["results"])'
rl "${M[@]}" search Isolate --game NeuroScape
check_exit "Isolate = Isoler is Spirit Island's: --game NeuroScape finds nothing" 1
rl "${M[@]}" search '"power card"' --game 'Spirit Island' --lang fr -n 0 --format json
check_json "a phrase that is a term: \"power card\" finds \"Carte Pouvoir\"" \
	'd["total"] >= 1 and all("carte pouvoir" in r["text"].lower() for r in d["results"])'
rl "${M[@]}" search Défendre --game 'Spirit Island' --lang en -n 0 --format json
check_json "search Défendre --lang en finds the English Defend rulings" \
	"set(${want_defend:-[0]}) <= {r['id'] for r in d['results']}"

# An edited thesaurus, imported again, replaces the concepts of the old one:
# Isolate = Isoler is gone, and a new concept Attack = Атака (every game's)
# appears.
rl "${M[@]}" search Attack --lang ru
check_exit "before the edit: Attack finds no Russian ruling" 1
sed -e '/^en:Isolate = fr:Isoler$/d' data/thesaurus.txt >own/thesaurus.txt
printf '\n[*]\nen:Attack = ru:Атака\n' >>own/thesaurus.txt
check_eq "the edited copy differs in two places" 2 \
	"$(diff data/thesaurus.txt own/thesaurus.txt | grep -c '^[0-9]')"
rl "${M[@]}" import own/thesaurus.txt
check_exit "importing the edited thesaurus succeeds" 0
check_match "the edited thesaurus is imported (not unchanged)" \
	'^imported own/thesaurus\.txt: [1-9][0-9]* concepts \(thesaurus\)$' "$(cat "$OUT")"
rl "${M[@]}" search Attack --lang ru -n 0 --format json
check_exit "after the edit: Attack finds Russian rulings (the new concept)" 0
check_json "after the edit: Attack finds the rulings with атака/атаки/атакой" \
	"set(${want_ataka:-[0]}) <= {r['id'] for r in d['results']}"
rl "${M[@]}" search Isolate --lang fr --game 'Spirit Island'
check_exit "after the edit: Isolate no longer finds the French ruling" 1
rl "${M[@]}" stats --format json
check_json "the edited thesaurus replaced the old one (no new document)" \
	'd["sources"] == 9'
# The original's bytes were imported before, but they are not the latest
# version: imported again, they are in force again (they were "unchanged",
# and the edited version's concepts stayed). The original's text in new
# bytes is a new version, the latest once more.
rl "${M[@]}" import data/thesaurus.txt
check_exit "importing the original thesaurus again succeeds" 0
check_contains "...its bytes are an older version: imported again" \
	"$(cat "$OUT")" "imported data/thesaurus.txt"
rl "${M[@]}" search Attack --lang ru
check_exit "...Attack no longer finds Russian rulings" 1
rl "${M[@]}" import data/thesaurus.txt
check_contains "...and again: the latest version, unchanged" \
	"$(cat "$OUT")" "unchanged data/thesaurus.txt"
{ cat data/thesaurus.txt; echo; } >own/thesaurus.txt
rl "${M[@]}" import own/thesaurus.txt
check_contains "the original's text in new bytes is imported" "$(cat "$OUT")" \
	"imported own/thesaurus.txt"
rl "${M[@]}" search Isolate --lang fr --game 'Spirit Island' -n 0 --format json
check_json "original again: Isolate finds the French ruling again" \
	"[r['id'] for r in d['results']] == [${isoler:-0}]"
rl "${M[@]}" search Attack --lang ru
check_exit "original again: Attack no longer finds Russian rulings" 1
rl "${M[@]}" search -n 0 --format json 'Isolate OR tag:Isolate'
check_eq "original again: Isolate as before" "$any_isolate_tag" "$(ids)"

# ==== references: show and xrefs ===================================================
rl "${M[@]}" show "$r511_8" --format json
check_exit "show of rule 511.8 succeeds" 0
check_json "rule 511.8 has a rule reference 514.6, unresolved" \
	'{"kind": "rule", "target": "514.6", "resolved": False, "id": None} in d["refs"]'
rl "${M[@]}" show "$r511_8"
check_out_contains "show (text) of rule 511.8 lists refs: rule 514.6" "refs: rule 514.6"
rl "${M[@]}" show "$r_title" --format json
check_json "the title section's reference (п.303.3) is a rule ref, unresolved" \
	'{"kind": "rule", "target": "303.3", "resolved": False, "id": None} in d["refs"]'

rl "${M[@]}" xrefs --format json
check_exit "xrefs succeeds" 0
cp "$OUT" xrefs.json
check_json "xrefs JSON: format_version 1 and the list under xrefs" \
	'set(d) == {"format_version", "xrefs"} and d["format_version"] == 1'
check_json "xrefs: entries have the documented members" \
	'all(set(x) >= {"from", "from_rule", "from_title", "kind", "target", "resolved", "id", "path", "line"} for x in d["xrefs"])'
check_json "xrefs lists resolved and unresolved references" \
	'any(x["resolved"] for x in d["xrefs"]) and any(not x["resolved"] for x in d["xrefs"])'
check_json "xrefs lists page and discussion references too" \
	'{"page", "discussion", "rule", "ruling", "term"} <= {x["kind"] for x in d["xrefs"]}'
check_json "resolved is true exactly when id is set" \
	'all(x["resolved"] == (x["id"] is not None) for x in d["xrefs"])'

glossary=$(json_get 'sorted(r["id"] for r in d["results"] if r["kind"] == "glossary")' fr.json)
encyclo=$(json_get 'sorted(r["id"] for r in d["results"] if r["game"] == "NeuroScape" and r["kind"] == "rule")' fr.json)
swift=$(json_get '[r["id"] for r in d["results"] if r["kind"] == "glossary" and r["title"] == "Swift"][0]' fr.json)
check_match "the encyclopedia has glossary entries and rulings" '^\[[0-9]+.*\] \[[0-9]+.*\] [0-9]+$' \
	"$glossary $encyclo $swift"
check_json "the encyclopedia's term references are all resolved to glossary entries" \
	"[x for x in d['xrefs'] if x['kind'] == 'term'] != [] and all(x['resolved'] and x['id'] in ${glossary:-[]} for x in d['xrefs'] if x['kind'] == 'term')" xrefs.json
for id in $(printf '%s' "$encyclo" | tr -d '[],'); do
	rl "${M[@]}" show "$id" --format json
	check_json "show #$id (encyclopedia): term refs, resolved to glossary entries" \
		"[x for x in d['refs'] if x['kind'] == 'term'] != [] and all(x['resolved'] is True and x['id'] in ${glossary:-[]} for x in d['refs'] if x['kind'] == 'term')"
done
citing=$(json_get "sorted({x['from'] for x in d['xrefs'] if x['id'] == ${swift:-0}})" xrefs.json)
rl "${M[@]}" show "$swift" --format json
check_exit "show of the glossary entry Swift succeeds" 0
check_json "the glossary entry Swift is French, of NeuroScape" \
	'd["kind"] == "glossary" and d["lang"] == "fr" and d["game"] == "NeuroScape"'
check_json "its back-links are the rulings whose references resolve to it" \
	"sorted(b['id'] for b in d['backlinks']) == ${citing:-[0]} and len(d['backlinks']) >= 2"
check_json "back-links have id, kind, rule and title" \
	'all(set(b) >= {"id", "kind", "rule", "title"} and b["title"] for b in d["backlinks"])'
first_citing=$(printf '%s' "$citing" | tr -d '[]' | cut -d, -f1)
rl "${M[@]}" show "$swift"
check_out_contains "show (text) of Swift lists 'cited by:'" "cited by:"
check_out_contains "show (text) of Swift lists a citing ruling" "#$first_citing "

rl "${M[@]}" xrefs --dangling --format json
check_exit "xrefs --dangling succeeds" 0
check_json "xrefs --dangling JSON: {format_version: 1, dangling: [...]}" \
	'set(d) == {"format_version", "dangling"} and d["format_version"] == 1 and isinstance(d["dangling"], list)'
check_json "dangling: Apprendre, 303.3 and 514.6 are listed" \
	'{"Apprendre", "303.3", "514.6"} <= {x["target"] for x in d["dangling"]}'
check_json "dangling: all unresolved, id null" \
	'all(x["resolved"] is False and x["id"] is None for x in d["dangling"])'
check_json "dangling: never page or discussion references" \
	'all(x["kind"] in ("rule", "ruling", "term") for x in d["dangling"])'
check_json "dangling: 514.6 comes from rule 511.8 of 004" \
	"any(x['target'] == '514.6' and x['from'] == ${r511_8:-0} and x['from_rule'] == '511.8' and x['path'].endswith('004_ef987a4e02cf8b4c.txt') and x['line'] > 0 for x in d['dangling'])"
check_json "dangling: Apprendre comes from the encyclopedia (002)" \
	'any(x["target"] == "Apprendre" and x["path"].endswith("002_7fed5f086b7fccf3.txt") for x in d["dangling"])'
check_json "dangling: exactly the unresolved rule/ruling/term refs of xrefs" \
	"sorted((x['from'], x['target']) for x in d['dangling']) == sorted((x['from'], x['target']) for x in __import__('json').load(open('xrefs.json'))['xrefs'] if not x['resolved'] and x['kind'] in ('rule', 'ruling', 'term'))"
rl "${M[@]}" xrefs --dangling
check_exit "xrefs --dangling (text) succeeds" 0
for t in Apprendre 303.3 514.6; do
	check_match "xrefs --dangling (text) lists $t as unresolved" " $t \(unresolved\)" "$(cat "$OUT")"
done
check_not_contains "xrefs --dangling (text) lists no resolved reference" "$(cat "$OUT")" "→"
rl "${M[@]}" xrefs
check_exit "xrefs (text) succeeds" 0
check_out_contains "xrefs (text) lists resolved references with an arrow" "→ #$swift"
check_out_contains "xrefs (text) lists the unresolved ones too" "514.6 (unresolved)"
rl "${M[@]}" xrefs --dangling --kind rule --format json
check_json "xrefs --dangling --kind rule: 303.3 and 514.6" \
	'sorted(x["target"] for x in d["dangling"]) == ["303.3", "514.6"]'
rl "${M[@]}" xrefs --kind term --format json
check_json "xrefs --kind term: only term references" \
	'd["xrefs"] and all(x["kind"] == "term" for x in d["xrefs"])'
# (Rule is rule, as kind:Rule in a query is: test-arguments.sh)
for bad in bogus '' terms; do
	rl "${M[@]}" xrefs --kind "$bad"
	check_exit "xrefs --kind '$bad' is a usage error (exit 2)" 2
	check_out_empty "xrefs --kind '$bad': nothing on stdout"
done
rl "${M[@]}" xrefs --dangling --kind bogus --format json
check_exit "xrefs --dangling --kind bogus: exit 2" 2
check_err_contains "the message names the bad kind" "bogus"

# ---- several words, some with thesaurus equivalents ---------------------------
# Each widened word is an OR group joined to the others by AND.
rl "${M[@]}" search defend dahan --format json
check_exit "search defend dahan (Defend has equivalents): found" 0
check_eq "search defend dahan: nothing on stderr" "" "$(cat "$ERR")"
check_json "search defend dahan: every result has both words (or Défendre)" \
	'all(("defend" in (r["title"]+r["text"]).lower() or "défend" in (r["title"]+r["text"]).lower()) and "dahan" in (r["title"]+r["text"]).lower() for r in d["results"])'
rl "${M[@]}" search '"power card"' fast Isolate --format json
check_eq "a phrase, a plain word and a widened word: no error" "" "$(cat "$ERR")"
rl "${M[@]}" search defend '!' dahan --format json
check_exit "punctuation next to widened words is passed over" 0
rl "${M[@]}" search '!' '?'
check_exit "only punctuation still matches nothing" 1

finish
