/* cmd_publish.c — rulings publish -o FILE: a compacted, self-contained
 * copy to serve read-only (rl_publish()). */
#include "cli.h"

#include <string.h>

static const char notes[] =
	"Writes a snapshot of the database to FILE: compacted (VACUUM INTO, each\n"
	"full-text index merged into one segment), in journal_mode=DELETE, so\n"
	"that it is read with no -wal or -shm file, from a read-only mount too;\n"
	"checked with PRAGMA integrity_check; written whole (a temporary file\n"
	"beside FILE, renamed over it). FILE is replaced only when it is a\n"
	"rulings database. Reads the database only: imports may go on.\n";

static const char *check_output(const struct opt *o, const char *v,
                                const char *v2)
{
	(void)o;
	(void)v2;
	return strcmp(v, "-") ? NULL
	       : "a file (a database copy cannot go to standard output)";
}

int cmd_publish(struct ctx *c, int argc, char **argv)
{
	const char *out = NULL;
	const struct opt opts[] = {
		{ .name = "output", .letter = 'o', .type = OPT_STRING, .out = &out,
		  .arg = "FILE", .help = "the copy to write (required)",
		  .flags = OPTF_NONEMPTY, .check = check_output },
		{ 0 }
	};
	const struct opt_spec spec = {
		.opts = opts, .synopsis = "-o FILE", .notes = notes,
		.no_operands = true,
	};
	int n, status = opt_parse(c, &spec, argc, argv, &n);
	if (status >= 0)
		return status;
	if (!out)
		return usage_error("publish", "give the copy to write: -o FILE");
	if ((status = open_db(c)))
		return status;
	long long bytes;
	int rc = rl_publish(c->db, out, &bytes);
	if (rc)
		return library_error(c, rc);
	printf("published %s: %lld bytes\n", out, bytes);
	return 0;
}
