/* import.c — importing files: rl_import_file() reads one file, checks
 * whether its bytes are already imported, parses and stores it;
 * rl_import_paths() does that for the files of a walk (walk.c), one
 * transaction per document or in bulk groups, and tells its caller how it
 * goes (the command line only draws).
 *
 * In a bulk load a document's report waits for its group: "imported"
 * means committed. When a group cannot be committed (a full disk, say),
 * its documents are imported again one by one, and each is reported once,
 * with what became of it then. */
#include "db.h"
#include "manifest.h"
#include "topk.h"
#include "walk.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void rl_file_report_clear(struct rl_file_report *r)
{
	if (!r)
		return;
	free(r->path);
	free(r->error);
	free(r->format);
	free(r->lang);
	free(r->langs);
	free(r->title);
	rl_diags_clear(&r->diags);
	*r = (struct rl_file_report){0};
}

/* Binary, going by its first bytes: NUL bytes and no UTF-16 byte order
 * mark (git's test). Images and archives in a walked directory are skipped
 * as not documents; a text file with a NUL byte named on the command line
 * is still an error. */
static bool looks_binary(const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return false;
	unsigned char buf[8000];
	size_t n = fread(buf, 1, sizeof buf, fp);
	fclose(fp);
	if (n >= 2 && ((buf[0] == 0xFE && buf[1] == 0xFF) ||
	               (buf[0] == 0xFF && buf[1] == 0xFE)))
		return false;
	return memchr(buf, 0, n) != NULL;
}

static int fail(struct rl_file_report *r, int status, const char *msg)
{
	r->outcome = RL_FILE_FAILED;
	r->status = status;
	if (msg && !(r->error = strdup(msg)))
		r->status = RL_ENOMEM;
	return r->status;
}

static int skip(struct rl_file_report *r, const char *why)
{
	r->outcome = RL_FILE_SKIPPED;
	return rl_diag_add(&r->diags, RL_WARNING, 0, 0, "%s", why);
}

/* Told when a file has been parsed and is being stored. */
typedef void (*storing_fn)(void *ctx, const char *path);

bool rl_withdraw_allowed(const struct rl_import_opts *o, size_t withdrawn,
                         size_t before)
{
	switch (o ? o->limit : RL_WITHDRAW_DEFAULT) {
	case RL_WITHDRAW_ANY:
		return true;
	case RL_WITHDRAW_COUNT:
		return withdrawn <= o->max_withdraw;
	case RL_WITHDRAW_PERCENT:
		/* withdrawn / before <= P / 100, without division or overflow
		 * (P is at most 100, before at most the rulings stored) */
		return (unsigned long long)withdrawn * 100 <=
		       (unsigned long long)o->max_withdraw * before;
	case RL_WITHDRAW_DEFAULT:
	default:
		return withdrawn < 5 || withdrawn * 2 <= before;
	}
}

const char *rl_doc_end_name(enum rl_doc_end end)
{
	switch (end) {
	case RL_END_IN_ENTRY: return "an entry";
	case RL_END_IN_SECTION: return "a section";
	case RL_END_IN_RULE: return "a rule";
	case RL_END_IN_RECORD: return "a record";
	case RL_END_COMPLETE: break;
	}
	return "";
}

/* What the import layer checks of a stored document before it commits:
 * a damaged document is refused (unless accepted) whatever it does, and
 * only after storing, so that the refusal can say what it would have
 * done; a sound one, by what it withdraws. */
struct guard {
	const struct rl_import_opts *opts;
	bool dry, damaged;
	struct rl_file_report *r;
};

static int check(void *ctx, const struct rl_import_result *res)
{
	struct guard *g = ctx;
	if (g->damaged)
		g->r->refusal = RL_REFUSED_DAMAGED;
	else if (!rl_withdraw_allowed(g->opts, res->withdrawn, res->before))
		g->r->refusal = RL_REFUSED_WITHDRAW;
	else
		return RL_OK;
	return g->dry ? RL_OK : RL_EDATA;
}

/* After parsing: what the report says of the document. */
/* The languages of doc's entries, the document's own first (an
 * interchange file's entries each have theirs), joined by ", ": the
 * distinct codes, few against the entries, in a small array searched
 * linearly. */
static int entry_langs(const struct rl_doc *doc, char **out)
{
	const char **codes = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i <= doc->n; i++) {
		const char *l = i ? doc->entries[i - 1].lang : doc->lang;
		if (!l || !*l)
			continue;
		size_t k = 0;
		while (k < n && strcmp(codes[k], l))
			k++;
		if (k < n)
			continue;
		if (!rl_grow(&codes, &cap, n + 1, sizeof *codes)) {
			free(codes);
			return RL_ENOMEM;
		}
		codes[n++] = l;
	}
	struct rl_buf b = {0};
	for (size_t k = 0; k < n; k++)
		rl_buf_addf(&b, "%s%s", k ? ", " : "", codes[k]);
	free(codes);
	*out = rl_buf_take(&b);
	return *out ? RL_OK : RL_ENOMEM;
}

static int describe(struct rl_file_report *r, const struct rl_doc *doc)
{
	r->parsed = true;
	r->concepts = doc->nconcepts;
	r->end = doc->end;
	r->end_line = doc->end_line;
	for (size_t i = 0; i < doc->n; i++)
		if ((unsigned)doc->entries[i].kind < 4)
			r->kinds[doc->entries[i].kind]++;
	r->format = strdup(doc->format ? doc->format : "");
	r->lang = strdup(doc->lang ? doc->lang : "");
	r->title = strdup(doc->title ? doc->title : "");
	if (!r->format || !r->lang || !r->title)
		return RL_ENOMEM;
	return entry_langs(doc, &r->langs);
}

/* True when every ruling of doc has a game: the document's (its own
 * words, else the caller's: --game or a directory manifest) or its own (an
 * interchange file's entries). A thesaurus stores no ruling. */
static bool names_game(const struct rl_doc *doc)
{
	if (doc->game)
		return true;
	for (size_t i = 0; i < doc->n; i++)
		if (!doc->entries[i].game)
			return false;
	return true;
}

/* A document whose game is neither in its words nor given is refused
 * (issue 12): stored, it would be a game-less duplicate of rulings the
 * database may already hold under their game. The message lists the
 * games the database holds rulings of, so that the user can pick one. rl_store()
 * itself does not refuse: a caller of the library may store what it
 * means to. */
static int refuse_gameless(rl_db *db, struct rl_file_report *r)
{
	struct rl_buf b = {0};
	rl_buf_adds(&b, "does not name its game; give --game (");
	sqlite3_stmt *st = rl_db_prepare(db, RL_GAMES_HELD " ORDER BY "
	                                 "name COLLATE NOCASE, name");
	int n = 0, rc = st ? SQLITE_ROW : sqlite3_errcode(db->h);
	while (st && (rc = sqlite3_step(st)) == SQLITE_ROW)
		rl_buf_addf(&b, "%s%s", n++ ? ", " : "games in this database: ",
		            (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		rl_buf_free(&b);
		return fail(r, rl_db_sqlite_fail(db, rc, "games"),
		            rl_db_errmsg(db));
	}
	rl_buf_adds(&b, n ? ")" : "this database has no game yet)");
	rl_buf_adds(&b, "; refused, nothing stored");
	char *msg = rl_buf_take(&b);
	if (!msg)
		return fail(r, RL_ENOMEM, "out of memory");
	r->error = msg;
	r->refusal = RL_REFUSED_NO_GAME;
	r->outcome = RL_FILE_REFUSED;
	r->status = RL_EDATA;
	return RL_EDATA;
}

static int parse_and_store(rl_db *db, const struct rl_source *src,
                           const struct rl_import_opts *o, unsigned flags,
                           struct rl_file_report *r, double t0,
                           storing_fn storing, void *ctx)
{
	struct rl_doc doc;
	int rc = rl_parse(src, o, &doc, &r->diags);
	if (rc == RL_NOTFOUND) {
		if (!(flags & RL_IMPORT_FOUND)) {
			rc = rl_diag_add(&r->diags, RL_ERROR, 0, 0, "not a document "
			                 "format rulings recognizes (see --format)");
			return fail(r, rc ? rc : RL_EDATA, NULL);
		}
		rc = skip(r, "not a document format rulings recognizes; skipped");
		return rc ? fail(r, rc, "out of memory") : RL_OK;
	}
	if (rc)
		return fail(r, rc, rc == RL_ENOMEM ? "out of memory" : NULL);
	if ((rc = describe(r, &doc))) {
		rl_doc_free(&doc);
		return fail(r, rc, "out of memory");
	}
	r->parse_seconds = now() - t0;
	if (!names_game(&doc)) {
		rl_doc_free(&doc);
		return refuse_gameless(db, r);
	}
	if (storing)
		storing(ctx, r->path);
	/* a date given (import --date, a manifest's) is for documents that
	 * state none: said when this one's own wins, rather than dropped */
	if (o->date && doc.date && strcmp(o->date, doc.date) != 0 &&
	    rl_diag_add(&r->diags, RL_WARNING, 0, 0, "the document states its "
	                "date, %s; the date given, %s, is not used for it",
	                doc.date, o->date)) {
		rl_doc_free(&doc);
		return fail(r, RL_ENOMEM, "out of memory");
	}
	struct rl_import_result res;
	struct guard g = { o, flags & RL_IMPORT_DRY_RUN,
	                   doc.end != RL_END_COMPLETE && !o->accept_damaged, r };
	const struct store_opts so = { .dry = g.dry, .check = check, .ctx = &g,
	                               .check_withdrawals_only = !g.damaged,
	                               .warn = &r->diags, .date = o->date };
	rc = rl_store_with(db, src, &doc, &so, &res);
	rl_doc_free(&doc);
	if (rc == RL_EDATA && r->refusal && !g.dry) {
		r->result = res;
		r->outcome = RL_FILE_REFUSED;
		r->status = RL_EDATA;
		return rc;
	}
	if (rc)
		return fail(r, rc, rl_db_errmsg(db));
	r->stored = true;
	r->store_seconds = now() - t0;
	r->result = res;
	r->outcome = res.unchanged ? RL_FILE_UNCHANGED : RL_FILE_IMPORTED;
	return RL_OK;
}

static int import_one(rl_db *db, const char *path,
                      const struct rl_import_opts *o, unsigned flags,
                      struct rl_file_report *r, storing_fn storing, void *ctx)
{
	*r = (struct rl_file_report){ .found = flags & RL_IMPORT_FOUND };
	if (!(r->path = strdup(path)))
		return fail(r, RL_ENOMEM, "out of memory");
	if (o->date && !rl_day_valid(o->date))
		return fail(r, RL_EUSAGE, "the date given is not a day of the "
		            "calendar written YYYY-MM-DD");
	double t0 = now();
	if ((flags & RL_IMPORT_FOUND) && looks_binary(path)) {
		int rc = skip(r, "a binary file, not a document; skipped");
		return rc ? fail(r, rc, "out of memory") : RL_OK;
	}
	struct rl_source src;
	int rc = rl_source_load(&src, path, &r->diags);
	if (rc)
		return fail(r, rc, rc == RL_ENOMEM ? "out of memory" : NULL);
	r->read_seconds = now() - t0;
	r->encoding = src.encoding;
	r->bytes = src.raw_size;
	memcpy(r->sha256, src.sha256, sizeof r->sha256);
	/* Without options that change what the bytes would become, bytes that
	 * are already some document's latest import are unchanged: a directory
	 * walk after "import --game G FILE" does not make FILE a second,
	 * game-less document. */
	bool seen = false;
	if (!o->game && !o->lang && !o->format && !o->document &&
	    (rc = rl_store_seen(db, src.sha256, &seen))) {
		fail(r, rc, rl_db_errmsg(db));
	} else if (seen) {
		r->outcome = RL_FILE_UNCHANGED;
		r->result.unchanged = true;
	} else {
		parse_and_store(db, &src, o, flags, r, t0, storing, ctx);
	}
	rl_source_free(&src);
	return r->status;
}

int rl_import_file(rl_db *db, const char *path, const struct rl_import_opts *o,
                   unsigned flags, struct rl_file_report *report)
{
	static const struct rl_import_opts none = {0};
	return import_one(db, path, o ? o : &none, flags, report, NULL, NULL);
}

/* ---- many files -------------------------------------------------------- */

/* A run of rl_import_paths(). */
struct run {
	rl_db *db;
	const struct rl_import_run *opt;
	struct rl_import_summary *sum;
	int worst;                /* the status to return */
	struct rl_import_progress p;
	double start;
	/* the open bulk group: its first file, when it opened, and the
	 * reports of its files, held until it commits */
	bool grouped;
	size_t first;
	double opened;
	struct rl_file_report *held;
	size_t nheld, heldcap;
	int busy_ms;              /* the caller's wait, restored at the end */
	struct rl_strset manifest_said;  /* manifest lines warned about, or
	                                    said to be wrong */
};

/* How many times its first wait an import that is under way waits for
 * each later lock. */
enum { UNDER_WAY_WAIT = 12 };

/* Once an import has had the write lock, it is under way: another writer
 * that came in between two of its transactions (a second import, a
 * reindex) holds the lock for a bulk group (10 s by default) and its
 * lists, longer than the 5 s a newcomer waits, and the import first
 * started used to be the one that gave up half-way (exit 75 after 244 of
 * 817 documents, the newcomer going on). It now waits UNDER_WAY_WAIT
 * times longer for each later transaction, so that the newcomer is the
 * one that waits or fails. A wait of 0 stays 0. */
static void under_way(struct run *r)
{
	rl_db *db = r->db;
	if (r->busy_ms >= 0 || !db->h)
		return;
	r->busy_ms = db->busy_ms;
	if (db->busy_ms > 0 && db->busy_ms <= INT_MAX / UNDER_WAY_WAIT) {
		db->busy_ms *= UNDER_WAY_WAIT;
		sqlite3_busy_timeout(db->h, db->busy_ms);
	}
}

static void tell(struct run *r, enum rl_import_event ev)
{
	r->p.event = ev;
	r->p.elapsed = now() - r->start;
	if (r->opt->progress)
		r->opt->progress(r->opt->ctx, &r->p);
	r->p.report = NULL;
	r->p.diag = NULL;
}

/* Busy and I/O problems outrank bad data: they say more about what to do
 * next (retry, check the disk). */
static void note_failure(struct run *r, int status)
{
	r->sum->failed++;
	if (!r->worst || status == RL_EBUSY ||
	    (status == RL_EIO && r->worst != RL_EBUSY))
		r->worst = status;
}

/* A problem with a path, or (path NULL) with the run. */
static void notice(struct run *r, const char *path, enum rl_severity sev,
                   int status, const char *message)
{
	struct rl_diag d = { sev, 0, 0, (char *)message };
	r->p.path = path;
	r->p.diag = &d;
	tell(r, RL_IMPORT_NOTICE);
	if (sev == RL_ERROR)
		note_failure(r, status);
}

static void walk_notice(void *ctx, const char *path, enum rl_severity sev,
                        int status, const char *message)
{
	notice(ctx, path, sev, status, message);
}

static void storing(void *ctx, const char *path)
{
	struct run *r = ctx;
	r->p.path = path;
	tell(r, RL_IMPORT_STORING);
}

/* Counts a file's report, tells the caller, and frees it. */
static void account(struct run *r, struct rl_file_report *rep)
{
	struct rl_import_summary *s = r->sum;
	switch (rep->outcome) {
	case RL_FILE_IMPORTED:
		s->imported++;
		s->added += rep->result.added;
		s->edited += rep->result.edited;
		s->withdrawn += rep->result.withdrawn;
		s->shortened += rep->result.shortened;
		break;
	case RL_FILE_UNCHANGED: s->unchanged++; break;
	case RL_FILE_SKIPPED: s->skipped++; break;
	case RL_FILE_FAILED: note_failure(r, rep->status); break;
	case RL_FILE_REFUSED:
		s->refused++;
		if (!r->worst)
			r->worst = RL_EDATA;
		break;
	}
	r->p.path = rep->path;
	r->p.report = rep;
	tell(r, RL_IMPORT_FILE);
	rl_file_report_clear(rep);
}

static unsigned file_flags(const struct run *r, const struct walk_file *f)
{
	return (f->found ? RL_IMPORT_FOUND : 0) |
	       (r->opt->dry_run ? RL_IMPORT_DRY_RUN : 0);
}

/* A manifest's date after today (2062 typed for 2026) makes the versions
 * it dates the newest for years, as an import --date after today does
 * (which the command line warns of): every later version dated by its
 * import goes into the history before them. Said once a manifest line, at
 * it, when the date is used (no --date). */
static void future_manifest_date(struct run *r, const struct manifest *m)
{
	char today[16], key[64];
	time_t t = time(NULL);
	struct tm tm;
	if (!m->date || !m->date_path || !gmtime_r(&t, &tm) ||
	    !strftime(today, sizeof today, "%Y-%m-%d", &tm) ||
	    strcmp(m->date, today) <= 0)
		return;
	snprintf(key, sizeof key, "%u:", m->date_line);
	struct rl_buf k = {0};
	rl_buf_adds(&k, key);
	rl_buf_adds(&k, m->date_path);
	int fresh = k.oom ? -1 : rl_strset_add(&r->manifest_said, k.s, k.len);
	rl_buf_free(&k);
	if (fresh <= 0)    /* said already (or no memory to remember it) */
		return;
	char msg[256];
	snprintf(msg, sizeof msg, "date %s is after today (%s): a version of "
	         "the documents it dates imported before that day without a "
	         "date given will be older than this one, its texts not made "
	         "current", m->date, today);
	struct rl_diag d = { RL_WARNING, m->date_line, 0, msg };
	r->p.path = m->date_path;
	r->p.diag = &d;
	tell(r, RL_IMPORT_NOTICE);
}

/* A manifest's error, at its line (as a diagnostic of the manifest's:
 * "DIR/.rulings:2: error: ..."), said once however many documents it
 * stops. */
static void manifest_wrong(struct run *r, const struct manifest_error *e)
{
	char key[32];
	snprintf(key, sizeof key, "error %u:", e->line);
	struct rl_buf k = {0};
	rl_buf_adds(&k, key);
	rl_buf_adds(&k, e->path);
	int fresh = k.oom ? 1 : rl_strset_add(&r->manifest_said, k.s, k.len);
	rl_buf_free(&k);
	if (fresh == 0)     /* said already (no memory to remember: said) */
		return;
	struct rl_diag d = { RL_ERROR, e->line, 0, e->msg };
	const char *path = r->p.path;
	r->p.path = e->path;
	r->p.diag = &d;
	tell(r, RL_IMPORT_NOTICE);
	r->p.path = path;
}

static int import_next(struct run *r, const struct walk_file *f,
                       struct rl_file_report *rep)
{
	static const struct rl_import_opts none = {0};
	r->p.path = f->path;
	tell(r, RL_IMPORT_READING);
	/* the directory's manifests name what the command line does not */
	struct rl_import_opts o = r->opt->opts ? *r->opt->opts : none;
	struct manifest m;
	struct manifest_error err;
	int rc = manifest_find(f->path, f->rootlen, &m, &err);
	if (rc) {
		*rep = (struct rl_file_report){ .found = f->found };
		if (!(rep->path = strdup(f->path))) {
			manifest_error_free(&err);
			return fail(rep, RL_ENOMEM, "out of memory");
		}
		if (!err.msg)
			return fail(rep, rc, "out of memory");
		manifest_wrong(r, &err);
		/* the document's own line: not imported, and why */
		fail(rep, rc, NULL);
		if (err.line)
			rl_diag_add(&rep->diags, RL_ERROR, 0, 0, "not imported: its "
			            "manifest %s has an error at line %u", err.path,
			            err.line);
		else
			rl_diag_add(&rep->diags, RL_ERROR, 0, 0, "not imported: its "
			            "manifest %s cannot be read", err.path);
		manifest_error_free(&err);
		return rep->status;
	}
	if (!o.game)
		o.game = m.game;
	if (!o.lang)
		o.lang = m.lang;
	if (!o.date) {
		o.date = m.date;
		future_manifest_date(r, &m);
		r->p.path = f->path;
	}
	rc = import_one(r->db, f->path, &o, file_flags(r, f), rep, storing, r);
	manifest_free(&m);
	return rc;
}

/* Commits the open group (its files first..last), then reports them; a
 * group that cannot be committed is imported again file by file. */
static void end_group(struct run *r, const struct walk *w, size_t last)
{
	r->p.group = r->nheld;
	tell(r, RL_IMPORT_COMMITTING);
	r->grouped = false;
	int rc = rl_bulk_end(r->db, true);
	for (size_t k = 0; k < r->nheld; k++) {
		if (!rc)
			account(r, &r->held[k]);
		else
			rl_file_report_clear(&r->held[k]);
	}
	r->nheld = 0;
	if (!rc)
		return;
	char msg[1024];
	snprintf(msg, sizeof msg, "%s; importing the %zu documents of the group "
	         "one by one", rl_db_errmsg(r->db), last + 1 - r->first);
	notice(r, NULL, RL_WARNING, RL_OK, msg);
	for (size_t j = r->first; j <= last; j++) {
		struct rl_file_report rep;
		import_next(r, &w->v[j], &rep);
		account(r, &rep);
	}
}

int rl_import_paths(rl_db *db, const char *const *paths, size_t npaths,
                    const struct rl_import_run *opt,
                    struct rl_import_summary *sum)
{
	*sum = (struct rl_import_summary){0};
	struct run r = { .db = db, .opt = opt, .sum = sum, .start = now(),
	                 .busy_ms = -1 };
	struct walk w = { .notice = walk_notice, .ctx = &r };
	for (size_t i = 0; i < npaths; i++)
		if (walk_path(&w, paths[i]) == RL_ENOMEM) {
			notice(&r, paths[i], RL_ERROR, RL_ENOMEM, "out of memory");
			break;
		}
	r.p.files = w.n;
	r.p.bytes = w.bytes;
	r.start = now();
	tell(&r, RL_IMPORT_WALKED);
	bool bulk = opt->bulk && !opt->dry_run;
	db->topk_later = bulk;      /* the lists: with the last group (topk.c) */
	if (bulk)
		rl_fts_note_rows(db);   /* its indexes merged then, if grown */
	for (size_t i = 0; i < w.n; i++) {
		if (bulk && !r.grouped) {
			int rc = rl_bulk_begin(db);
			if (rc) {
				notice(&r, NULL, RL_ERROR, rc, rl_db_errmsg(db));
				break;
			}
			under_way(&r);
			r.grouped = true;
			r.first = i;
			r.opened = now();
		}
		if (r.grouped && !rl_grow(&r.held, &r.heldcap, r.nheld + 1,
		                          sizeof *r.held)) {
			/* no room to hold a report: the group ends before it */
			if (r.nheld)
				end_group(&r, &w, i - 1);
			else
				rl_bulk_end(db, false);
			r.grouped = false;
			notice(&r, NULL, RL_ERROR, RL_ENOMEM, "out of memory");
			break;
		}
		struct rl_file_report rep;
		int rc = import_next(&r, &w.v[i], &rep);
		if (rc != RL_EBUSY)
			under_way(&r);
		r.p.files_done++;
		r.p.bytes_done += w.v[i].size;
		r.p.path = w.v[i].path;
		tell(&r, RL_IMPORT_DONE);
		if (r.grouped)
			r.held[r.nheld++] = rep;
		else
			account(&r, &rep);
		if (r.grouped && (i + 1 == w.n || rc == RL_EBUSY || db->bulk_lost ||
		                  now() - r.opened >= opt->group_seconds)) {
			db->topk_later = i + 1 < w.n && rc != RL_EBUSY;
			end_group(&r, &w, i);
		}
		if (rc == RL_EBUSY)
			break;    /* the next document would wait just as long */
	}
	db->fts_merge = false;      /* (a load that stopped early: not merged) */
	if (rl_topk_refresh_later(db)) {
		char msg[1024];
		snprintf(msg, sizeof msg, "%s; the search lists were not rebuilt"
		         " (searches stay exact; 'rulings reindex' rebuilds them)",
		         rl_db_errmsg(db));
		notice(&r, NULL, RL_WARNING, RL_OK, msg);
	}
	if (r.busy_ms >= 0 && db->busy_ms != r.busy_ms) {
		db->busy_ms = r.busy_ms;
		sqlite3_busy_timeout(db->h, db->busy_ms);
	}
	free(r.held);
	rl_strset_free(&r.manifest_said);
	walk_free(&w);
	return r.worst;
}
