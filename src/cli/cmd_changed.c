/* cmd_changed.c — rulings changed: what changed between versions of the
 * documents (added, edited, withdrawn), and what the sources themselves
 * mark as changed ("Changed answer:"). */
#include "cli.h"
#include "json.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char options_help[] =
	"  -s, --since WHEN   changes imported at or after WHEN (a date,\n"
	"                     2026-01-16, or a time, 2026-01-16T10:00, UTC\n"
	"                     unless it ends in an offset such as +02:00)\n"
	"      --between A B  changes made after version A up to version B: two\n"
	"                     import numbers (see history), or two dates/times\n"
	"  -d, --document D   changes from imports of document D\n"
	"  -t, --tag T        only rulings with tag T (repeatable)\n"
	"  -c, --category C   only rulings in category C\n"
	"  -k, --kind K       only rulings of kind K\n"
	"  -l, --lang L       only rulings in language L (any: all)\n"
	"  -g, --game G       only rulings of game G\n"
	"      --no-thesaurus match tags only as given, not their equivalents\n"
	"                     in other languages\n"
	"  -f, --format F     text (default), json or ndjson\n"
	"  -h, --help         show this help\n"
	"\nA change is added, edited or withdrawn, as an import of a new version\n"
	"of a document recorded it (a document's first import records none), or\n"
	"marked: the source itself says the answer changed. The text shows edits\n"
	"word by word. Exit status 1 when there is none.\n";

/* A change as JSON: what changed, and the ruling as it stands (text is the
 * change's new text, or its old one for a withdrawal). */
static void change_json(rl_db *db, struct json *j, const struct rl_change *c)
{
	struct rl_ruling r;
	bool have = rl_show(db, c->id, &r) == RL_OK;
	json_begin_map(j);
	json_key(j, "id"); json_int(j, c->id);
	json_key(j, "change"); json_string(j, c->change);
	json_key(j, "kind"); json_string(j, c->kind);
	json_key(j, "game"); json_string(j, c->game);
	json_key(j, "lang"); json_string(j, c->lang);
	json_key(j, "title"); json_string(j, c->title);
	json_key(j, "rule"); json_string(j, c->rule);
	json_key(j, "old"); json_string(j, c->old_text);
	json_key(j, "new"); json_string(j, c->new_text);
	json_key(j, "old_title"); json_string(j, c->old_title);
	json_key(j, "new_title"); json_string(j, c->new_title);
	json_key(j, "at"); json_string(j, c->at);
	json_key(j, "document"); json_string(j, c->document);
	json_key(j, "import");
	if (c->import_id)
		json_int(j, c->import_id);
	else
		json_null(j);
	json_key(j, "text");
	json_string(j, c->new_text ? c->new_text : c->old_text);
	if (have) {
		json_key(j, "category"); json_string(j, r.category);
		json_key(j, "section"); json_string(j, r.section);
		json_key(j, "changed"); json_bool(j, r.changed);
		json_key(j, "tags");
		json_begin_list(j);
		for (size_t i = 0; i < r.ntags; i++)
			json_string(j, r.tags[i]);
		json_end_list(j);
		json_key(j, "sources");
		json_begin_list(j);
		for (size_t i = 0; i < r.nsources; i++) {
			json_begin_map(j);
			json_key(j, "document"); json_string(j, r.sources[i].document);
			json_key(j, "path"); json_string(j, r.sources[i].path);
			json_key(j, "line"); json_int(j, r.sources[i].line);
			json_end_map(j);
		}
		json_end_list(j);
		rl_ruling_clear(&r);
	}
	json_end_map(j);
}

static void change_text(const struct ctx *c, const struct rl_change *x)
{
	printf("%s#%lld%s %s%s%s %s\n", c->color ? "\033[33m" : "", x->id,
	       c->color ? "\033[0m" : "", c->color ? "\033[1m" : "", x->change,
	       c->color ? "\033[0m" : "", x->title);
	printf("    %s \xC2\xB7 %s \xC2\xB7 %s%s%s \xC2\xB7 %s \xC2\xB7 %s\n", x->kind,
	       x->lang, x->game ? x->game : "(no game)", x->rule ? " \xC2\xB7 rule " : "",
	       x->rule ? x->rule : "", x->document, x->at);
	if (!strcmp(x->change, "edited")) {
		if (x->old_title && x->new_title && strcmp(x->old_title, x->new_title)) {
			fputs("    ", stdout);
			print_word_diff(stdout, x->old_title, x->new_title, "    ",
			                c->color);
		}
		fputs("    ", stdout);
		print_word_diff(stdout, x->old_text, x->new_text, "    ", c->color);
	} else if (!strcmp(x->change, "withdrawn")) {
		fputs("    (was)\n", stdout);
		print_indented(stdout, x->old_text ? x->old_text : "", "    ", false);
	} else {
		print_indented(stdout, x->new_text ? x->new_text : "", "    ", false);
	}
}

int cmd_changed(struct ctx *c, int argc, char **argv)
{
	enum { OPT_BETWEEN = 256 };
	static const struct option opts[] = {
		QUERY_LONGOPTS,
		{ "since", required_argument, NULL, 's' },
		{ "between", required_argument, NULL, OPT_BETWEEN },
		{ "document", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct rl_change_query q = { .marked = true, .recorded = true };
	char *since = NULL, *from = NULL, *to = NULL;   /* normalized WHENs */
	enum out_format fmt = OUT_TEXT;
	const char **tags = calloc((size_t)argc + 1, sizeof *tags);
	if (!tags) {
		error("out of memory");
		return EXIT_SOFTWARE;
	}
	int opt, status = EXIT_USAGE;
	reset_opts();
	while ((opt = next_opt(argc, argv, ":" QUERY_SHORTOPTS "s:d:h", opts,
	                       "changed", &status)) != -1) {
		if (query_option(opt, optarg, "changed", &q.filter, tags, &fmt,
		                 &status)) {
			if (status)
				goto out;
			continue;
		}
		switch (opt) {
		case 's':
			if (!valid_when(optarg)) {
				status = usage_error("changed", "--since takes %s, not "
				                     "'%s'", rl_when_forms, optarg);
				goto out;
			}
			free(since);
			if (!(since = full_when(optarg, false))) {
				status = EXIT_SOFTWARE;
				goto out;
			}
			q.since = since;
			break;
		case 'd': q.document = optarg; break;
		case OPT_BETWEEN:
			/* two values: this one and the next operand */
			if (optind >= argc || argv[optind][0] == '-') {
				status = usage_error("changed", "--between takes two "
				                     "versions");
				goto out;
			}
			q.from = optarg;
			q.to = argv[optind++];
			{
				long dummy;
				bool ids = parse_long(q.from, 0, 0x7fffffffL, &dummy) &&
				           parse_long(q.to, 0, 0x7fffffffL, &dummy);
				if (!ids && !(valid_when(q.from) && valid_when(q.to))) {
					status = usage_error("changed", "--between takes two "
					                     "import numbers or two of %s",
					                     rl_when_forms);
					goto out;
				}
				if (!ids) {
					/* after A's end, up to B's end */
					free(from);
					free(to);
					from = full_when(q.from, true);
					to = full_when(q.to, true);
					if (!from || !to) {
						status = EXIT_SOFTWARE;
						goto out;
					}
					q.from = from;
					q.to = to;
				}
			}
			break;
		case 'h':
			command_help(find_command("changed"), options_help);
			status = 0;
			goto out;
		default:
			goto out;
		}
	}
	if (optind < argc) {
		status = usage_error("changed", "unexpected argument '%s'",
		                     argv[optind]);
		goto out;
	}
	if ((status = open_db(c)))
		goto out;
	struct rl_change *v;
	size_t n;
	int rc = rl_changes(c->db, &q, &v, &n);
	if (rc && rc != RL_NOTFOUND) {
		error("changed: %s", rl_db_errmsg(c->db));
		status = exit_status(rc);
		goto out;
	}
	struct json j;
	if (fmt == OUT_JSON) {
		json_init(&j, stdout, true);
		json_begin_map(&j);
		json_key(&j, "format_version"); json_int(&j, 1);
		json_key(&j, "changes");
		json_begin_list(&j);
		for (size_t i = 0; i < n; i++)
			change_json(c->db, &j, &v[i]);
		json_end_list(&j);
		json_end_map(&j);
		json_end(&j);
	} else {
		for (size_t i = 0; i < n; i++) {
			if (fmt == OUT_NDJSON) {
				json_init(&j, stdout, false);
				change_json(c->db, &j, &v[i]);
				json_end(&j);
			} else {
				if (i)
					fputc('\n', stdout);
				change_text(c, &v[i]);
			}
		}
	}
	rl_changes_free(v, n);
	status = exit_status(rc);
out:
	free(since);
	free(from);
	free(to);
	free(tags);
	return status;
}
