/*
 * rulings/query.h — part of the public interface of librulings (rulings.h
 * includes every part; include rulings.h, not this file).
 * Queries and history.
 */
#ifndef RULINGS_QUERY_H
#define RULINGS_QUERY_H

#include "database.h"

/* ---- Queries ----------------------------------------------------------- */

struct rl_query {
	const char *const *words; size_t nwords;  /* full text; may be empty */
	bool raw;               /* words are FTS5 query syntax */
	const char *const *tags; size_t ntags;    /* all must match */
	const char *category;
	const char *kind;
	const char *lang;       /* NULL or "any": every language */
	const char *game;
	bool changed_only;      /* rulings the source marks as changed */
	bool include_withdrawn; /* withdrawn rulings too */
	const char *as_of;      /* rulings as they stood then (a date: its
	                           end; a time: rl_when_parse()), or NULL;
	                           RL_EUSAGE when it is neither */
	bool no_thesaurus;      /* match tags and words only as given */
	long limit;             /* <= 0: no limit */
	bool no_total;          /* when more match than limit, do not count
	                           them (total = -1): a query costs what its
	                           results do */
};

struct rl_source_ref {
	char *document;         /* the document's title (a tag page's tag) */
	char *path;             /* the file it was last imported from */
	char *date;             /* the document's own date, or NULL */
	unsigned line;
	int hidden_tags;        /* -1 when the page gave none */
};

struct rl_ref_out {
	char *kind, *target;
	long long target_id;    /* 0 when unresolved */
	char *target_rule, *target_title;
};

/* A numbered rule beside another: its ruling, number and title. */
struct rl_rule_ref {
	long long id;
	char *rule, *title;
};

struct rl_ruling {
	long long id;
	char *kind, *game, *lang, *title, *text, *rule, *category, *section;
	char *date, *author;    /* a dated ruling's own, or NULL */
	char *withdrawn_at;     /* when no document listed it any more, or NULL */
	bool changed;
	double score;           /* bm25, lower is better; 0 without words */
	char *snippet;          /* with \x02 … \x03 around matches; NULL without words */
	char **tags; size_t ntags;          /* display forms, sorted */
	int hidden_tags;        /* largest "N more..." of its pages, -1 if none */
	struct rl_source_ref *sources; size_t nsources;
	struct rl_errata *errata;           /* NULL unless kind is errata */
	struct rl_ref_out *refs; size_t nrefs;
	struct rl_ref_out *backlinks; size_t nbacklinks;  /* refs that point here */
	/* rl_show() of a numbered rule, among the current rules of its game:
	 * the rule it is under (702.19a: 702.19), the rules before and after
	 * it in number order, and the rules directly under it (702.19:
	 * 702.19a, 702.19b, ...). NULL and none otherwise. */
	struct rl_rule_ref *parent, *previous, *next;
	struct rl_rule_ref *subrules; size_t nsubrules;
};

struct rl_results {
	long long total;        /* every match, beyond the limit too; -1 when
	                           more matched than the limit and no_total
	                           said not to count them */
	struct rl_ruling *v;
	size_t n;
	char *unknown;          /* why nothing matches when a filter names what
	                           the database does not know: "no tag
	                           'Repeet'; did you mean 'Repeat'?"; else NULL */
};

#define RL_SNIPPET_OPEN  "\x02"
#define RL_SNIPPET_CLOSE "\x03"

/* Runs a search. q->words are the query language (man page, SEARCH
 * SYNTAX) unless q->raw; the options AND with them. Fills out on RL_OK and
 * on RL_NOTFOUND (nothing matched: out->n is 0, and out->unknown says why
 * when a tag, game, language or kind is unknown). */
int rl_search(rl_db *db, const struct rl_query *q, struct rl_results *out);
/* What a search is made of, for people and tests, one item a line: the
 * query as read ("query:"), the FTS5 expression that finds and ranks
 * ("match:") or only ranks ("rank:"), the subselects ("f1:"), the SQL
 * conditions over rulings r with their values written in ("where:"), what
 * ranks first ("first:") and the full-text tables. RL_NOTFOUND, with
 * rl_db_errmsg() saying why, for an unknown name. *out is malloc'd. */
int rl_search_explain(rl_db *db, const struct rl_query *q, char **out);
void rl_results_free(struct rl_results *r);
/* The rulings whose rule number is rule, in game (NULL: any game): one
 * per game that has the number (the most recently stored one, should a
 * game have several), with its game (NULL for none). RL_NOTFOUND when
 * there is none. */
int rl_find_rule(rl_db *db, const char *rule, const char *game,
                 long long **ids, char ***games, size_t *n);
/* One ruling with refs and backlinks. RL_NOTFOUND when id is unknown. */
int rl_show(rl_db *db, long long id, struct rl_ruling *out);

/* What reference x is shown as: a term it resolves to by that term's
 * title (a card's text, keyed "card: NAME", as NAME), any other as its
 * target was written. */
const char *rl_ref_shown(const struct rl_ref_out *x);
/* rl_show() with the title and text the ruling had at when (a date: its
 * end; rl_when_parse()): those of its latest version dated at or before
 * when (by the versions' dates, as search's as_of), withdrawn_at NULL;
 * the rest is the ruling as it stands. RL_NOTFOUND when it did not stand
 * then (no version yet, or withdrawn by then); RL_EUSAGE for a bad when. */
int rl_show_as_of(rl_db *db, long long id, const char *when,
                  struct rl_ruling *out);
void rl_ruling_clear(struct rl_ruling *r);

struct rl_tag_count { char *name; long long count; };
/* The tags of current rulings (of game, unless NULL), with how many
 * rulings carry each: by name (case aside), or with by_count the most
 * carried first. RL_NOTFOUND when there is none. */
int rl_tags(rl_db *db, const char *game, bool by_count,
            struct rl_tag_count **out, size_t *n);
void rl_tags_free(struct rl_tag_count *v, size_t n);
/* RL_OK when the database knows the game (case aside), else RL_NOTFOUND
 * with rl_db_errmsg() "no game 'x'; did you mean 'y'?". */
int rl_game_check(rl_db *db, const char *name);
/* RL_OK when the database knows every tag, game, language and kind that
 * q's options name (its words aside), else RL_NOTFOUND with
 * rl_db_errmsg() "no tag 'x'; did you mean 'y'?", as rl_search() says. */
int rl_filters_check(rl_db *db, const struct rl_query *q);
/* RL_OK when the database has a document of this title (case aside), else
 * RL_NOTFOUND with rl_db_errmsg() "no document 'x'; did you mean 'y'?". */
int rl_document_check(rl_db *db, const char *title);

/* Cross-references, for listings: every one, or only those whose target
 * (a rule, a ruling, a term) does not exist. */
struct rl_xref {
	long long from_id;
	char *from_title, *from_rule, *kind, *target;
	long long target_id;    /* 0 when unresolved */
	char *path;             /* where the citing ruling was read */
	unsigned line;
};
int rl_xrefs(rl_db *db, bool dangling_only, const char *kind,
             struct rl_xref **out, size_t *n);
void rl_xrefs_free(struct rl_xref *v, size_t n);

/* ---- History ------------------------------------------------------------ */

/* One change to a ruling: "marked" (the source says the answer changed),
 * or what an import recorded: "added", "edited", "withdrawn". */
struct rl_change {
	long long id;           /* the ruling */
	long long import_id;    /* the import that made it (for marked: whose
	                           version first carries the mark) */
	char *change, *kind, *game, *lang, *rule, *title;
	char *old_title, *old_text;   /* NULL for marked and for new rulings */
	char *new_title, *new_text;   /* NULL for withdrawn */
	char *at;               /* the import's time (ISO 8601, UTC) */
	char *document;         /* the document whose import it was */
	char *date;             /* that version's date (see rl_documents()) */
};

struct rl_change_query {
	struct rl_query filter; /* tags, category, kind, lang, game */
	/* The times below are rl_when_parse()'s UTC form. A version's date
	 * is the one its document states or was given (a day: its first
	 * second), else its import time (schema/010-version-dates.sql). */
	const char *since;      /* versions dated at or after this time */
	const char *until;      /* versions dated at or before this time */
	const char *from, *to;  /* --between: import IDs, or times: versions
	                           dated after from and up to to's day */
	const char *imported_since, *imported_until;   /* by import time */
	const char *document;   /* changes from this document's imports */
	bool marked;            /* include the source's own markers */
	bool recorded;          /* include the recorded changes */
	bool oldest_first;      /* the oldest version's changes first */
	long limit;             /* at most this many changes; <= 0: all */
};

/* Changes by version, the newest first (oldest_first: the oldest); in a
 * version the recorded changes by ruling, then the marked ones. RL_NOTFOUND
 * when none. */
int rl_changes(rl_db *db, const struct rl_change_query *q,
               struct rl_change **out, size_t *n);
void rl_changes_free(struct rl_change *v, size_t n);

/* Every version of one ruling: its texts in the order of their versions'
 * dates (then imports), with the change each import made (or "baseline"),
 * withdrawals included (no text). at is the import time, date the
 * version's date (as rl_document_version's). */
struct rl_version {
	long long import_id;
	char *change, *at, *document, *path;
	char *title, *text;     /* NULL for a withdrawal */
	char *date;
};
int rl_history(rl_db *db, long long id, struct rl_version **out, size_t *n);
void rl_history_free(struct rl_version *v, size_t n);

/* Every document and its versions (imports), for `rulings documents`. A
 * version's date is the one the document states (date_source "document"),
 * the one given on import ("given") or its import time ("imported"); added, edited and withdrawn are the
 * changes it recorded (a document's first version records none: there,
 * the rulings whose first text it gave and the other texts it gave),
 * unchanged its other entries. Documents by title, versions by date then
 * import number. game NULL: every game. RL_NOTFOUND when none. */
struct rl_doc_version {
	long long import_id;
	char *date, *date_source, *imported_at, *path;
	long long added, edited, withdrawn, unchanged;
};
struct rl_document {
	char *title, *game, *format, *lang;
	struct rl_doc_version *versions; size_t nversions;
};
int rl_documents(rl_db *db, const char *game, struct rl_document **out,
                 size_t *n);
void rl_documents_free(struct rl_document *v, size_t n);

/* A word-level diff (wdiff.c): runs of words kept (mark 0, from the new
 * text), removed (1, from the old) or added (2, from the new), white
 * space after them included, pointing into the two texts. A longest
 * common subsequence over words; texts too long for that (over four
 * million word pairs) give *whole set and the old text removed, the new
 * added. RL_OK or RL_ENOMEM; *ops is the caller's to free. */
struct rl_wdiff_op {
	int mark;
	const char *s;
	size_t n;
};
int rl_word_diff(const char *old, const char *new_text,
                 struct rl_wdiff_op **ops, size_t *nops, bool *whole);

/* The terms that mean the same as term (itself included), from the
 * thesaurus, for game (NULL: any game). */
int rl_synonyms(rl_db *db, const char *term, const char *game, char ***out,
                size_t *n);
void rl_strings_free(char **v, size_t n);

struct rl_count { char *key; long long count; };
struct rl_stats {
	long long rulings;      /* current ones */
	long long withdrawn;    /* no document lists them any more */
	long long tags, sources, imports, games;
	struct rl_count *languages; size_t nlanguages;
	struct rl_count *kinds; size_t nkinds;
	/* current rulings per game, by name; key NULL for those of no game */
	struct rl_count *by_game; size_t nby_game;
};
int rl_stats(rl_db *db, struct rl_stats *out);
void rl_stats_clear(struct rl_stats *s);

#endif
