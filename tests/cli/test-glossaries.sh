#!/usr/bin/env bash
# Glossaries and RST rules through the database: the rst-glossary and
# markdown-glossary formats and numbered rules written as reStructuredText,
# on small inputs written here. Tags, term references resolved by title,
# file name or alias (case and accents aside), dangling references, show by
# a section's rule number, a directory walk that skips what is not Markdown.
# Card FAQs (card-faq) beside a glossary and each other: a card named like a
# term, two FAQs ruling on one card, in either order, again.
# (The real corpora are in test-corpus-glossaries.sh, test-corpus-cardfaq.sh.)
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

# ---- rst-glossary -------------------------------------------------------------
cat >dict.rst <<'EOF'
Глоссарий
=========

**Б**
-----
.. glossary::

  **Броня Х.**
    :term:`Постоянная способность.` Предотвращает первые X ран.

  **Бешенство.**
    :term:`Постоянная способность.` Обязан атаковать; см. :term:`Нигде.`

**П**
-----
.. glossary::

  **Постоянная способность.**
    Действует всегда.

  **Постоянная способность**
    Повтор термина: добавляется к первому.
EOF
rl --db g.db import --game Берсерк dict.rst
check_exit "an RST glossary imports" 0
check_match "as rst-glossary, three entries (the repeated term is one)" \
	"^imported dict\.rst: 3 entries, 3 added.*\(rst-glossary, ru\)" "$(cat "$OUT")"
check_match "the repeated term is warned about with its line" \
	"^rulings: dict\.rst:21: warning: term 'Постоянная способность' appears again \(first at line 18\)" \
	"$(cat "$ERR")"

rl --db g.db search --kind glossary --format json
cp "$OUT" g-all.json
check_json "the letter heading is the section of the two Б terms, no tag (issue 14)" \
	'sorted(r["title"] for r in d["results"] if r["section"] == "Б") == ["Бешенство", "Броня Х"] and all(r["tags"] == [] for r in d["results"])'
perm=$(json_get '[r["id"] for r in d["results"] if r["title"] == "Постоянная способность"][0]' g-all.json)
check_json "the merged entry keeps both definitions" \
	'[r["text"] for r in d["results"] if r["title"] == "Постоянная способность"] == ["Действует всегда.\n\nПовтор термина: добавляется к первому."]' g-all.json

rl --db g.db xrefs --kind term --format json
check_json "every :term: reference to an existing term resolves to it" \
	"sorted((x['target'], x['id']) for x in d['xrefs'] if x['resolved']) == [('Постоянная способность', $perm)] * 2"
rl --db g.db xrefs --dangling --format json
check_json "the :term: to a missing term is the one dangling reference" \
	'[(x["from_title"], x["kind"], x["target"]) for x in d["dangling"]] == [("Бешенство", "term", "Нигде")]'
rl --db g.db show "$perm"
check_out_contains "show lists the back-links of a term" "Броня Х"

# ---- numbered rules written in RST ----------------------------------------------
cat >rules.rst <<'EOF'
Основы игры
===========

101. Общие сведения
-------------------

101.1. Игра для двух игроков.
•	первый пункт;
•	второй пункт.

102. Объекты игры
-----------------

102.1. Карты (п.101.1).
EOF
rl --db r.db import --game Берсерк rules.rst
check_exit "RST numbered rules import" 0
check_match "as numbered-rules: two sections and two rules" \
	"^imported rules\.rst: 4 entries, 4 added.*\(numbered-rules, ru\)" "$(cat "$OUT")"
rl --db r.db show 101
check_exit "show 101: the section's rule number" 0
check_out_contains "show 101 is the section" "Общие сведения"
rl --db r.db show 101.1 --format json
check_json "rule 101.1 keeps its bullets, tabs made spaces" \
	'd["text"] == "Игра для двух игроков.\n• первый пункт;\n• второй пункт." and d["section"] == "101. Общие сведения"'
rl --db r.db search --kind rule --format json
check_json "the rule numbers are the headings' and the rules'" \
	'sorted(r["rule"] for r in d["results"]) == ["101", "101.1", "102", "102.1"]'
rl --db r.db xrefs --dangling
check_exit "the rule reference (п.101.1) resolves: nothing dangles" 1

# ---- a Markdown vault -------------------------------------------------------------
mkdir -p vault/Glossaire/A vault/Glossaire/D vault/.obsidian
printf '# Allié\nUn allié est un personnage.\n' >vault/Glossaire/A/Allie.md
printf '# Dégâts\nLes dégâts réduisent les points de vie.\n\n**Voir aussi :**\n[[Allie|Allié]]\n[[DEGATSENEXCES|excès]]\n' \
	>vault/Glossaire/D/Degats.md
cat >vault/Glossaire/D/DegatsEnExces.md <<'EOF'
# Dégâts en excès
Les dégâts au-delà des points de vie restants ![[Icone.png|20]].

**Voir aussi :**
[[Dégâts]]
[[dégats EN excès|cette page, par son titre]]
[[Nulle Part|une page qui n’existe pas]]
EOF
printf 'Des notes en texte libre, sans format.\n' >vault/notes.txt
printf '<svg xmlns="http://www.w3.org/2000/svg"></svg>\n' >vault/icone.svg
printf '# Cachée\n[[Allie]]\n' >vault/.obsidian/hidden.md
rl --db m.db import --no-thesaurus --game "Marvel Champions" vault
check_exit "a directory of Markdown glossary files imports (the rest skipped)" 0
check_match "three files imported, two skipped" \
	"^5 documents: 3 imported, 0 unchanged, 2 skipped, 0 failed" "$(cat "$OUT")"
check_match "the text file is skipped with a warning" \
	"^rulings: vault/notes\.txt: warning: .*skipped" "$(cat "$ERR")"
check_match "the SVG file is skipped with a warning" \
	"^rulings: vault/icone\.svg: warning: .*skipped" "$(cat "$ERR")"
check_not_contains "hidden directories are passed over" "$(cat "$OUT" "$ERR")" "hidden.md"

rl --db m.db search --kind glossary --format json
cp "$OUT" m-all.json
check_json "one glossary entry a file, titled by its '# ' heading" \
	'sorted(r["title"] for r in d["results"]) == ["Allié", "Dégâts", "Dégâts en excès"]' m-all.json
check_json "each file is its own document, named by its title" \
	'all(r["sources"][0]["document"] == r["title"] for r in d["results"])' m-all.json
check_json "the see-also block and the embedded image are not in the text" \
	'[r["text"] for r in d["results"] if r["title"] == "Dégâts en excès"] == ["Les dégâts au-delà des points de vie restants."]' m-all.json
allie=$(json_get '[r["id"] for r in d["results"] if r["title"] == "Allié"][0]' m-all.json)
degats=$(json_get '[r["id"] for r in d["results"] if r["title"] == "Dégâts"][0]' m-all.json)
exces=$(json_get '[r["id"] for r in d["results"] if r["title"] == "Dégâts en excès"][0]' m-all.json)
check_json "a file in a one-letter folder has the letter for its section, no tag (issue 14)" \
	'sorted(r["title"] for r in d["results"] if r["section"] == "D") == ["Dégâts", "Dégâts en excès"] and all(r["tags"] == [] for r in d["results"])' m-all.json

rl --db m.db xrefs --kind term --format json
cp "$OUT" m-xrefs.json
check_json "[[Allie|Allié]] resolves by file name" \
	"[x['id'] for x in d['xrefs'] if x['from_title'] == 'Dégâts' and x['target'] == 'Allie'] == [$allie]" m-xrefs.json
check_json "[[DEGATSENEXCES|…]] resolves by file name only (the alias), case aside" \
	"[x['id'] for x in d['xrefs'] if x['target'] == 'DEGATSENEXCES'] == [$exces]" m-xrefs.json
check_json "[[Dégâts]] resolves by title" \
	"[x['id'] for x in d['xrefs'] if x['target'] == 'Dégâts'] == [$degats]" m-xrefs.json
check_json "[[dégats EN excès]] resolves by title only, case and accents aside" \
	"[x['id'] for x in d['xrefs'] if x['target'] == 'dégats EN excès'] == [$exces]" m-xrefs.json
rl --db m.db xrefs --dangling --format json
check_json "the link to a page that does not exist is the one dangling reference" \
	'[(x["from_title"], x["target"], x["path"]) for x in d["dangling"]] == [("Dégâts en excès", "Nulle Part", "vault/Glossaire/D/DegatsEnExces.md")]'

# The missing page appears: the link resolves on its import.
printf '# Nulle part\nNulle part.\n' >vault/Glossaire/NullePart.md
rl --db m.db import --no-thesaurus --game "Marvel Champions" vault/Glossaire/NullePart.md
check_exit "the missing page imports" 0
rl --db m.db xrefs --dangling
check_exit "then nothing dangles" 1
rl --db m.db import --no-thesaurus --game "Marvel Champions" vault
check_match "importing the vault again changes nothing" \
	"^6 documents: 0 imported, 4 unchanged, 2 skipped, 0 failed" "$(cat "$OUT")"


# ---- a card named like a term (card-faq beside rst-glossary) -------------------
# A card FAQ's card text is a glossary entry titled by the card. A hero named
# exactly like a term of the game's dictionary was the same ruling (game,
# kind, language, key): whichever document was imported last replaced the
# other's text, without a word, in either order.
mkdir clash
cat >clash/dict.rst <<'EOF'
Глоссарий
=========

.. glossary::

  **Амулет.**
    Класс карты поддержки.

  **Экипировка.**
    Общее название для :term:`Амулет.` и оружия.
EOF
cat >clash/heroes.rst <<'EOF'
FAQ по картам "Герой"
=====================

Амулет
------
.. image:: ./images/amulet.png
Когда вы разыгрываете амулет, ранить персонажа на 1.

.. admonition:: Комьюнити FAQ

  Срабатывает и на амулеты противника.

Тилия
-----
.. image:: ./images/tilia.png
Вы можете вернуть существо в руку.

.. admonition:: Комьюнити FAQ

  Работает в конце хода каждого игрока.
EOF
for order in "dict.rst heroes.rst" "heroes.rst dict.rst"; do
	db=clash-${order%% *}.db
	for f in $order ${order%% *}; do
		rl --db "$db" import --no-thesaurus --game "Берсерк. Герои" "clash/$f"
		check_exit "[$order] clash/$f imports" 0
		check_err_empty "[$order] clash/$f: no warning"
	done
	rl --db "$db" search --kind glossary --format json
	cp "$OUT" clash-g.json
	check_json "[$order] the term and the card's text are two rulings, each its own text" \
		'sorted(r["text"] for r in d["results"] if r["title"] == "Амулет") == ["Класс карты поддержки.", "Когда вы разыгрываете амулет, ранить персонажа на 1."]' clash-g.json
	term=$(json_get '[r["id"] for r in d["results"] if r["text"] == "Класс карты поддержки."][0]' clash-g.json)
	card=$(json_get '[r["id"] for r in d["results"] if r["text"].startswith("Когда")][0]' clash-g.json)
	tilia=$(json_get '[r["id"] for r in d["results"] if r["title"] == "Тилия"][0]' clash-g.json)
	rl --db "$db" xrefs --kind term --format json
	cp "$OUT" clash-x.json
	check_json "[$order] the dictionary's :term:\`Амулет.\` is the term, whichever came first" \
		"[x['id'] for x in d['xrefs'] if x['from_title'] == 'Экипировка'] == [$term]" clash-x.json
	check_json "[$order] each ruling on a card refers to its card's text" \
		"sorted((x['from_title'], x['id']) for x in d['xrefs'] if x['from_title'] in ('Амулет', 'Тилия')) == [('Амулет', $card), ('Тилия', $tilia)]" clash-x.json
done

# The card's text is keyed "card: NAME"; a reference to it is shown by the
# card's name, not by that key (an English "card:" on a Russian page)
faq=$(json_get '[x["from"] for x in d["xrefs"] if x["from_title"] == "Тилия"][0]' clash-x.json)
rl --db "$db" show "$faq"
check_out_contains "show: the ruling refers to its card by the card's name" \
	"refs: term Тилия → #$tilia"
rl --db "$db" export --all --format html -o clash-site
check_exit "the clash's site exports" 0
check_eq "the site names no card by its key" "" \
	"$(grep -rl 'card: ' clash-site || true)"

# ---- a card named like a term (card-rulings beside rst-glossary) ---------------
# A card-rulings file's abilityText is the card's text, titled by the card.
# It was keyed by the card alone: a card named like a term of the game's
# dictionary was the term's ruling, its text the document's imported last.
cat >clash/cards.json <<'EOF'
{ "General": [
  { "card": "Anti-air", "abilityText": "Can attack flying units.",
    "ruling": "You don't have to attack.", "date": "2016-03-14T07:00:00.000Z" },
  { "card": "Sparrowhawk", "abilityText": "Flying.",
    "ruling": "Anti-air can block it.", "date": "2016-03-15T07:00:00.000Z" } ] }
EOF
sed 's/"date": "2016-03-15T07:00:00.000Z" } ] }/"date": "2016-03-15T07:00:00.000Z" },\
  { "card": "Tower", "ruling": "It detects.", "date": "2016-03-16" } ] }/' \
	clash/cards.json >clash/cards-2.json
cat >clash/codex.rst <<'EOF'
Glossary
========

.. glossary::

  **Anti-air.**
    A unit that can block flyers.
EOF
for order in "codex.rst cards.json" "cards.json codex.rst"; do
	db=codex-${order%% *}.db
	for f in $order ${order%% *}; do
		rl --db "$db" import --no-thesaurus --game Codex "clash/$f"
		check_exit "[$order] clash/$f imports" 0
	done
	rl --db "$db" search --kind glossary --format json
	check_json "[$order] the term and the card's text are two rulings, each its own text" \
		'sorted(r["text"] for r in d["results"] if r["title"] == "Anti-air") == ["A unit that can block flyers.", "Can attack flying units."]'
done

# A database whose card texts an older rulings keyed by the card (schema
# before *-card-text-keys.sql): its upgrade gives them the new key, so they
# keep their identity and history — the same file again is unchanged, and
# the next version adds what it adds, and withdraws nothing.
SCHEMA=$(cd "$_lib_dir/../../schema" && pwd)
BEFORE=$(($(cd "$SCHEMA" && ls [0-9][0-9][0-9]-card-text-keys.sql | sed 's/^0*//; s/-.*//') - 1))
rl --db old.db import --no-thesaurus --game Codex clash/cards.json
sqlite3 old.db "UPDATE rulings SET key = substr(key, 7) WHERE key LIKE 'card: %';
	PRAGMA user_version = $BEFORE"
glossary_keys() {
	sqlite3 "$1" "SELECT group_concat(key, ' ') FROM (SELECT key FROM rulings
		WHERE kind = 'glossary' ORDER BY key)"
}
check_eq "(the old keys: the cards alone)" "anti-air sparrowhawk" "$(glossary_keys old.db)"
ids=$(sqlite3 old.db "SELECT group_concat(id) FROM rulings WHERE kind = 'glossary'")
rl --db old.db import --no-thesaurus --game Codex clash/cards.json
check_exit "an older database: the same file imports" 0
check_out_contains "...unchanged" "unchanged clash/cards.json"
check_err_contains "...upgrading it" "upgraded the database from schema version $BEFORE"
check_eq "...its card texts keyed 'card: CARD'" "card: anti-air card: sparrowhawk" \
	"$(glossary_keys old.db)"
rl --db old.db import --no-thesaurus --game Codex clash/cards-2.json
check_out_contains "the next version: one ruling added, none withdrawn" \
	"1 added, 0 edited, 0 withdrawn"
check_eq "...the card texts the same rulings" "$ids" \
	"$(sqlite3 old.db "SELECT group_concat(id) FROM rulings WHERE kind = 'glossary'")"
rl --db old.db history "${ids%%,*}" --format json
check_json "...each with its one version" 'len(d["versions"]) == 1'

# ---- two card FAQs of a game ruling on one card ---------------------------------
# A ruling titled by its card was keyed by the card alone: a second FAQ of
# the game with an entry for the same card replaced the first one's answer
# (0 edited), and re-importing the first changed nothing back.
cat >clash/faq12.rst <<'EOF'
FAQ Возвращения древних
=======================
1.  Вожак стаи

.. image:: ./images/image2.png

Игрок может отказаться от выполнения Поиска.

2.  Грозящий расправой

.. image:: ./images/image3.png

Особенность срабатывает в начале хода каждого игрока.
EOF
cat >clash/faq13.rst <<'EOF'
FAQ Новой эры
=============
1.  Вожак стаи

.. image:: ./images/image7.png

Поиск выполняется до розыгрыша.

2.  Другая карта

.. image:: ./images/image8.png

Текст.
EOF
for f in faq12.rst faq13.rst faq12.rst; do
	rl --db faqs.db import --no-thesaurus --game "Берсерк. Герои" "clash/$f"
	check_exit "clash/$f imports" 0
done
rl --db faqs.db search --kind faq --format json
check_json "each FAQ's answer on 'Вожак стаи' is a ruling, both tagged with the card" \
	'sorted((r["text"], r["tags"]) for r in d["results"] if r["title"] == "Вожак стаи") == [("Игрок может отказаться от выполнения Поиска.", ["Вожак стаи"]), ("Поиск выполняется до розыгрыша.", ["Вожак стаи"])]'
rl --db faqs.db import --no-thesaurus --game "Берсерк. Герои" clash/faq12.rst clash/faq13.rst
check_match "again: both unchanged" "^2 documents: 0 imported, 2 unchanged" "$(cat "$OUT")"
finish
