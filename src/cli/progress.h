/* progress.h — the progress line of an import on a terminal (progress.c). */
#ifndef RL_CLI_PROGRESS_H
#define RL_CLI_PROGRESS_H

#include "rulings.h"

struct progress;

/* Starts drawing on standard error (a terminal): NULL when the drawing
 * thread cannot be started, and then there is no progress line. */
struct progress *progress_start(void);
/* Takes what an import event says (counters, the step under way). */
void progress_update(struct progress *p, const struct rl_import_progress *ev);
/* Between these two, other output may be printed: the line is cleared
 * first and drawn again after, below what was printed. p may be NULL. */
void progress_hold(struct progress *p);
void progress_release(struct progress *p);
/* n bytes as people read them: "312 kB", "2.5 MB". */
void size_str(char *buf, size_t cap, uint64_t n);
/* Clears the line and stops drawing. p may be NULL. */
void progress_stop(struct progress *p);

#endif
