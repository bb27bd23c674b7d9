/* plain.h - the plain-text chooser: numbered entries, a countdown, a
 * number and Enter to pick. For consoles where curses cannot start, and
 * for the command line's unattended boots. It prints and reads lines;
 * what boots, and what when it fails, is the policy's (choose.h). */
#ifndef BM_PLAIN_H
#define BM_PLAIN_H

#include <stdbool.h>

struct boot_opts;
struct choose;
struct entry;
struct session;

/* Show @s's entries on stdout and count down choose_timeout() for a
 * choice on stdin; then the unattended boot (plain_autoboot()), or the
 * entry chosen: a failed load prints the reason and asks again. Without
 * a password prompt, a menu with a password boots the default only.
 * A locked LUKS volume's line (ENTRY_UNLOCK) chosen, or the only lines
 * there are, asks for its passphrase on stdin (not echoed on a terminal;
 * the TPM first, as the menu does) and waits for the volume's entries.
 * Returns only when nothing could boot, stdin closed, or after a dry
 * run printed its plan: 0 for a dry run, 1 otherwise. */
int plain_menu(struct session *s, const struct choose *c,
	       const struct boot_opts *o);

/* The unattended boot: choose_autoboot() over @s's entries, each failure
 * printed ("bootmenu: cannot boot "T": why", then what is tried next).
 * Each try is boot_run() (boot/transaction.h), which clears grub's
 * next_entry once a kernel is loaded. Returns 0 after a dry run, else
 * -errno when nothing booted. */
int plain_autoboot(struct session *s, const struct choose *c,
		   const struct boot_opts *o);

/* Boot @e with boot_run() (or print the plan with o->dry_run), its
 * sentences one line each on stdout. Returns 0 after a dry run, -errno
 * after printing why the load or the jump failed. */
int plain_boot(const struct entry *e, const struct boot_opts *o);

#endif
