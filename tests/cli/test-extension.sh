#!/usr/bin/env bash
# The loadable extension rulings_fts: the sqlite3 shell reaches the rl_stem
# full-text tables of a rulings database with it (and only with it), finds
# what rulings search finds, and the tables pass SQLite's integrity checks.
#
#   bash tests/cli/test-extension.sh BUILD/rulings BUILD/rulings_fts.so
#
# The extension comes from $RULINGS_FTS or the second argument. Skipped
# (exit 77) when there is no sqlite3 shell.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"
need_extension


# sq DB SQL...: the sqlite3 shell in batch mode, stopping at the first
# error, able to load the extension (lib.sh's ext_sqlite3).
sq() {
	run ext_sqlite3 "$EXT" -batch -bail "$@"
}

# check_fails DESC: the last command failed (any non-zero status).
check_fails() {
	if [ "$STATUS" != 0 ]; then
		_pass "$1"
	else
		_fail "$1" "expected a non-zero exit status" "$(_last_output)"
		return 1
	fi
}

cp -R "$DATA" "$T/data" || exit 2
DB=m.db
rl --db "$DB" import --quiet --game "Spirit Island" data/000_*.txt data/001_*.txt
check_exit "import of the FAQ pages succeeds" 0
rl --db "$DB" import --quiet --game Berserk data/004_*.txt
check_exit "import of 004 succeeds" 0
rl --db "$DB" import --quiet data
check_exit "import data succeeds" 0
# A ruling in a language without a stemmer goes to rulings_fts_xx.
mkdir -p own
cat >own/de.txt <<'EOF'
Übungen

1.1. Die erste Übung beginnt am Morgen.

1.2. Die zweite Übung endet am Abend.
EOF
rl --db "$DB" import --quiet --lang de --game Demo own/de.txt
check_exit "import of a German document (--lang de) succeeds" 0

# ---- without the extension ---------------------------------------------------------
sq "$DB" "SELECT rowid FROM rulings_fts_ru WHERE rulings_fts_ru MATCH 'атаками'"
check_fails "without .load, MATCH on rulings_fts_ru fails"
check_err_contains "without .load: 'no such tokenizer: rl_stem'" "no such tokenizer: rl_stem"
check_out_empty "without .load: no rows"
sq "$DB" "SELECT count(*) FROM rulings"
check_exit "without .load, the ordinary tables can be read" 0
rl --db "$DB" stats --format json
n_rulings=$(json_get 'd["rulings"]')
sq "$DB" "SELECT count(*) FROM rulings"
check_eq "the sqlite3 shell counts as many rulings as stats" "$n_rulings" "$(cat "$OUT")"

# ---- with the extension: the same rows as rulings search ----------------------------
sq "$DB" ".load '$EXT_BASE'" \
	"SELECT rowid FROM rulings_fts_ru WHERE rulings_fts_ru MATCH 'атаками' ORDER BY rowid"
check_exit "with .load (path without suffix), MATCH 'атаками' succeeds" 0
check_err_empty "with .load: no error"
shell_ids=$(tr '\n' ' ' <"$OUT")
rl --db "$DB" search атаками --lang ru -n 0 --format json
cp "$OUT" ataka.json
check_exit "rulings search атаками --lang ru finds something" 0
cli_ids=$(json_get '" ".join(str(i) for i in sorted(r["id"] for r in d["results"])) + " "')
check_match "the search finds several rulings" '^[0-9]+ [0-9]+ [0-9]+ ' "$cli_ids"
check_eq "sqlite3 + extension: the same rulings as rulings search атаками --lang ru" \
	"$cli_ids" "$shell_ids"
sq "$DB" ".load '$EXT'" \
	"SELECT rowid FROM rulings_fts_ru WHERE rulings_fts_ru MATCH 'атаками' ORDER BY rowid"
check_exit ".load with the full file name works too" 0
check_eq "...with the same rows" "$cli_ids" "$(tr '\n' ' ' <"$OUT")"
sq "$DB" ".load '$EXT_BASE'" \
	"SELECT title FROM rulings_fts_ru WHERE rulings_fts_ru MATCH 'атаками' ORDER BY rowid"
check_eq "...and the same titles" \
	"$(json_get '"\n".join(r["title"] for r in sorted(d["results"], key=lambda r: r["id"]))' ataka.json)" \
	"$(cat "$OUT")"

# More words, phrases and prefixes, per language: the rows and the BM25 order
# (title weight 4, body 1; ties by id) that rulings search gives. The
# thesaurus is off: it widens what rulings search asks for.
# same_rows TABLE-LANG MATCH WORDS...: rulings_fts_TABLE-LANG MATCH 'MATCH'
# gives the rows of rulings search WORDS --lang TABLE-LANG (de for xx).
same_rows() {
	local lang=$1 match=$2 cli_lang=$1
	shift 2
	[ "$lang" = xx ] && cli_lang=de
	rl --db "$DB" search "$@" --lang "$cli_lang" --no-thesaurus -n 0 --format json
	local want
	want=$(json_get '" ".join(str(r["id"]) for r in d["results"])')
	local sql="SELECT rowid FROM rulings_fts_$lang WHERE rulings_fts_$lang MATCH '$match'"
	sql="$sql ORDER BY bm25(rulings_fts_$lang, 4.0, 1.0), rowid"
	sq "$DB" ".load '$EXT_BASE'" "$sql"
	check_exit "sqlite3: MATCH '$match' on rulings_fts_$lang succeeds" 0
	check_eq "sqlite3: MATCH '$match' on rulings_fts_$lang = rulings search $* --lang $cli_lang" \
		"$want" "$(tr '\n' ' ' <"$OUT" | sed 's/ $//')"
	[ -n "$want" ] || _fail "rulings search $* --lang $cli_lang should find something"
}
same_rows ru 'атаками' атаками
same_rows ru '"медленной атакой"' '"медленной атакой"'
same_rows ru 'медленная атака' медленная атака
same_rows ru 'атакую*' 'атакую*'
same_rows en 'defended' defended
same_rows en 'encompassing ward' encompassing ward
same_rows fr 'reponses' reponses
same_rows fr 'desolee' desolee
same_rows fr 'isoler' isoler
same_rows xx 'UBUNG' UBUNG

# ---- integrity ----------------------------------------------------------------------
sq "$DB" ".load '$EXT_BASE'" "PRAGMA integrity_check"
check_exit "PRAGMA integrity_check runs" 0
check_eq "PRAGMA integrity_check is ok" "ok" "$(cat "$OUT")"
sq "$DB" "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%' AND name LIKE 'rulings_fts_%' ORDER BY name"
fts_tables=$(tr '\n' ' ' <"$OUT")
check_eq "the full-text tables are rulings_fts_en, _fr, _ru and _xx" \
	"rulings_fts_en rulings_fts_fr rulings_fts_ru rulings_fts_xx " "$fts_tables"

check_fts_integrity() {
	local when=$1 t
	for t in $fts_tables; do
		sq "$DB" ".load '$EXT_BASE'" "INSERT INTO $t($t) VALUES ('integrity-check')"
		check_exit "$when: FTS5 integrity-check of $t passes" 0
		check_err_empty "$when: FTS5 integrity-check of $t reports nothing"
		# rank 1: the index is also checked against the content (the view).
		sq "$DB" ".load '$EXT_BASE'" "INSERT INTO $t($t, rank) VALUES ('integrity-check', 1)"
		check_exit "$when: integrity-check of $t against its content passes" 0
	done
}
check_fts_integrity "after import"

sq "$DB" "INSERT INTO rulings_fts_en(rulings_fts_en) VALUES ('integrity-check')"
check_fails "without .load the FTS5 integrity-check cannot run"
check_err_contains "...because rl_stem is missing" "rl_stem"

# A new version of 004 (one rule changed, one removed): the triggers keep
# the index right, as the extension sees it.
sed -e 's/Медленная атака может быть объявлена только при пустом стеке\./Медленная атака объявляется кракозяброй./' \
    -e '/^512\.2\. /d' data/004_ef987a4e02cf8b4c.txt >own/004.txt
rl --db "$DB" import --game Berserk own/004.txt
check_exit "import of the new version of 004 succeeds" 0
check_out_contains "the new version edits one rule and withdraws one" "1 edited, 1 withdrawn"
rl --db "$DB" search --lang ru -n 0 --format json
r512_1=$(json_get '[r["id"] for r in d["results"] if r["rule"] == "512.1"][0]')
sq "$DB" ".load '$EXT_BASE'" "SELECT rowid FROM rulings_fts_ru WHERE rulings_fts_ru MATCH 'кракозябры'"
check_eq "sqlite3: the changed rule 512.1 is found by its new word (another form)" \
	"$r512_1" "$(cat "$OUT")"
sq "$DB" ".load '$EXT_BASE'" "SELECT count(*) FROM rulings_fts_ru WHERE rulings_fts_ru MATCH 'приоритет'"
check_eq "sqlite3: the withdrawn rule 512.2 stays in the index (for history)" "1" "$(cat "$OUT")"
rl --db "$DB" search приоритет --lang ru --format json
check_exit "rulings search: the withdrawn rule is not a result" 1
rl --db "$DB" search приоритет --lang ru --include-withdrawn --format json
check_json "search --include-withdrawn finds it" '[r["rule"] for r in d["results"]] == ["512.2"]'
sq "$DB" ".load '$EXT_BASE'" "SELECT count(*) FROM rulings_fts_ru WHERE rulings_fts_ru MATCH '\"пустом стеке\"'"
check_eq "sqlite3: the old text of 512.1 is no longer found" "0" "$(cat "$OUT")"
check_fts_integrity "after an update"
sq "$DB" ".load '$EXT_BASE'" "PRAGMA integrity_check"
check_eq "after an update: PRAGMA integrity_check is ok" "ok" "$(cat "$OUT")"

# ---- the tokenizer itself, in a database of the shell's own ------------------------------
sq :memory: ".load '$EXT_BASE'" \
	"CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'rl_stem fr');
	 INSERT INTO t VALUES ('Les réponses rapides'), ('Une Terre désolée'), ('Ёлки и атаки');
	 SELECT rowid FROM t WHERE t MATCH 'reponse';
	 SELECT rowid FROM t WHERE t MATCH 'DESOLEES';
	 SELECT rowid FROM t WHERE t MATCH 'елка атаками';
	 SELECT rowid FROM t WHERE t MATCH 'répons*';"
check_exit "rl_stem fr in a new table: works" 0
check_eq "rl_stem fr: réponses/reponse, désolée/DESOLEES, Ёлки/елка, a prefix" \
	"1 2 3 1 " "$(tr '\n' ' ' <"$OUT")"
sq :memory: ".load '$EXT_BASE'" "CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'rl_stem klingon')"
check_fails "rl_stem with an unknown language is refused"

finish
