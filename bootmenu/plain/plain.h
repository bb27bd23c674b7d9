/* plain.h - the plain-text chooser: numbered entries, a countdown, a
 * number and Enter to pick. For consoles where curses cannot start, and
 * what /init's bootmenu shows until the full-screen menu is built. */
#ifndef BM_PLAIN_H
#define BM_PLAIN_H

#include <stdbool.h>

struct session;
struct boot_opts;

/* Show @s's entries on stdout, wait @timeout_s seconds (-1: forever) for
 * a choice on stdin, then load and boot the choice (or the default).
 * A failed load prints the reason and asks again. Returns only when there
 * is nothing bootable, stdin closed, or with @o->dry_run after printing
 * the plan: 0 for a dry run, 1 otherwise. */
int plain_menu(struct session *s, double timeout_s, const struct boot_opts *o);

struct entry;
/* Load @e and jump (or print the plan with o->dry_run). Returns 0 after a
 * dry run, -errno after printing why the load or the jump failed. */
int plain_boot(struct session *s, const struct entry *e,
	       const struct boot_opts *o);

#endif
