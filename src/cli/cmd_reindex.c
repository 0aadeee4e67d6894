/* cmd_reindex.c — rulings reindex: the fold columns and keys computed
 * again, the full-text tables rebuilt (rl_reindex()). */
#include "cli.h"

static const char notes[] =
	"In one transaction: computes every stored fold and key again with\n"
	"this rulings' folding, merging the rulings and tags that have become\n"
	"equal, and rebuilds every full-text table from the rulings' text. An\n"
	"older database is upgraded first. What 'rulings check' finds wrong in\n"
	"the full-text tables, folds and keys, this repairs, and the rows that a\n"
	"DELETE run without PRAGMA foreign_keys = ON left pointing at deleted\n"
	"rows it deletes, or unlinks, as the key's ON DELETE says. Full-text\n"
	"tables that are missing (a copy by sqlite3's .clone, made without the\n"
	"rulings_fts extension) it makes again. A missing or empty file is not\n"
	"made a database: exit status 74, as for a reader.\n";

int cmd_reindex(struct ctx *c, int argc, char **argv)
{
	const struct opt opts[] = { { 0 } };
	const struct opt_spec spec = {
		.opts = opts, .notes = notes, .no_operands = true,
		.then = open_db,
	};
	/* a mistyped --db or an empty file is said, not made a database of
	 * nothing to reindex */
	c->open_flags |= RL_OPEN_EXISTING;
	int n, status = opt_parse(c, &spec, argc, argv, &n);
	if (status >= 0)
		return status;
	long long rulings, tags, dangling;
	int rc = rl_reindex(c->db, &rulings, &tags, &dangling);
	if (rc)
		return library_error(c, rc);
	printf("reindexed: the full-text tables rebuilt; %lld rulings and %lld "
	       "tags merged", rulings, tags);
	if (dangling)
		printf("; %lld rows of deleted rulings removed or unlinked (a "
		       "DELETE without PRAGMA foreign_keys = ON leaves them)",
		       dangling);
	printf("\n");
	return 0;
}
