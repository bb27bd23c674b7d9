/* session.h - one scan of every disk, turned into one list of entries.
 *
 * The wiring between the scan room, the parsers and the entry list that
 * both the menu and `--list` without `--root` use. The session owns the
 * scan, the arena and the list; session_free() releases all of them.
 */
#ifndef BM_SESSION_H
#define BM_SESSION_H

#include "entry.h"
#include "util/arena.h"

#include <stdio.h>

struct scan;
struct fs_root;

#define SESSION_MAX_FS 256

struct session {
	struct arena arena;
	struct scan *scan;
	const struct fs_root *fss[SESSION_MAX_FS];
	size_t n_fss;
	struct entry_list list;
};

/* Scan every block device (waiting at most @settle_s for them), mount
 * what can be mounted read-only, parse every filesystem. Returns 0 or
 * -errno (the scan could not start: no /sys). */
int session_scan_devices(struct session *s, double settle_s);
/* One line per device that was not mounted, with the scan's reason
 * ("device: vdb3 crypto_LUKS: skipped: encrypted, not opened"). */
void session_print_devices(struct session *s, FILE *f);
/* Unmount everything the scan mounted (before a kexec). */
void session_unmount(struct session *s);
void session_free(struct session *s);

/* The entry to boot without asking: the first default that is not
 * disabled, else the first entry that is not disabled; NULL if none. */
const struct entry *session_default(const struct entry_list *l);
/* Entry number @n (0-based) of @l, or NULL. */
const struct entry *session_nth(const struct entry_list *l, long n);

/* Seconds from "bootmenu.NAME=VALUE" in the kernel command line text
 * @cmdline; @def when absent or not a number. "-1" means wait forever. */
double session_cmdline_number(const char *cmdline, const char *name, double def);

#endif
