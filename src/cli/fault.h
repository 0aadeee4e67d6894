/* fault.h — allocation and write failure injection (fault.c), compiled in
 * only with meson -Dfault_injection=true (RL_FAULT_INJECTION defined). */
#ifndef RL_FAULT_H
#define RL_FAULT_H

/* Reads RULINGS_FAIL_ALLOC, RULINGS_FAIL_ALLOC_PERSIST, RULINGS_FAIL_WRITE
 * and RULINGS_FAIL_WRITE_FULL and installs the hooks they ask for. Called
 * first thing in main(), before SQLite is initialized. */
void rl_fault_init(void);

/* The fault loops' fork server (tests/faults/faults.sh), when the
 * environment has RULINGS_FAULT_SERVER=1: instead of running the command
 * once, reads requests from standard input, one a line,
 *
 *     alloc|write N OUT ERR
 *
 * and for each forks a child that sets RULINGS_FAIL_ALLOC=N (or
 * RULINGS_FAIL_WRITE=N), calls rl_fault_init(), sends its standard output
 * to the file OUT and its standard error to ERR (paths without spaces,
 * relative to the server's working directory; standard input /dev/null),
 * and runs COMMAND(ARGC, ARGV) -- the whole of a run, from before anything
 * of it ran: the server itself initializes nothing (no SQLite, libxml2 or
 * hook state) -- then exit()s with its status, so that LeakSanitizer
 * checks every child at its exit. The child is killed after 120 s
 * (SIGALRM). The server answers each request with one line on standard
 * output: the child's exit status, or 128 + the signal that ended it.
 * Returns 0 at the end of its input, 70 when it cannot go on. */
int rl_fault_serve(int (*command)(int argc, char **argv), int argc,
                   char **argv);

#endif
