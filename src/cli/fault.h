/* fault.h — allocation and write failure injection (fault.c), compiled in
 * only with meson -Dfault_injection=true (RL_FAULT_INJECTION defined). */
#ifndef RL_FAULT_H
#define RL_FAULT_H

/* Reads RULINGS_FAIL_ALLOC, RULINGS_FAIL_ALLOC_PERSIST, RULINGS_FAIL_WRITE
 * and RULINGS_FAIL_WRITE_FULL and installs the hooks they ask for. Called
 * first thing in main(), before SQLite is initialized. */
void rl_fault_init(void);

#endif
