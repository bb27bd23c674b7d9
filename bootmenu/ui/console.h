/* console.h - which terminals the menu draws on, and as what. Pure.
 *
 * The kernel lists its active consoles in /sys/class/tty/console/active
 * ("tty0 ttyS0"); the menu opens /dev/<name> for each and draws on all of
 * them. These helpers only parse and decide; ui/term.c opens.
 */
#ifndef BM_UI_CONSOLE_H
#define BM_UI_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>

#define UI_CONSOLE_MAX 8   /* terminals drawn on at once */
#define UI_CONSOLE_PATH 64 /* "/dev/ttyS0", "/dev/pts/3" */
#define UI_CONSOLE_ACTIVE "/sys/class/tty/console/active"

/* Split @text (names separated by spaces, commas or newlines) into device
 * paths: a bare name "ttyS0" becomes "/dev/ttyS0", a path must start with
 * "/dev/" and hold no "..". Bad or repeated names are skipped; at most
 * @max are kept. Returns how many were written to @paths. */
int ui_console_parse(const char *text, char paths[][UI_CONSOLE_PATH], int max);

/* Where the menu draws, into buf[0..len): @opt (--console) when given;
 * else "" (stdin/stdout) when @stdio (--root, --dry-run) or when stdin
 * is not /dev/console; else the kernel's active consoles. */
void ui_pick_consoles(const char *opt, bool stdio, char *buf, size_t len);

/* The terminfo name for a console: "linux" for a VT (@is_vt), else
 * @override (bootmenu.term=) when not empty, else "vt220". */
const char *ui_console_term(bool is_vt, const char *override);

#endif
