/* ui.h - the full-screen boot menu (ncurses).
 *
 * The only room that includes curses. ui_menu() draws @s's entries at
 * once, on stdin/stdout or on every console, and follows the session as
 * devices are probed, arrive and go (session.h's event-driven calls):
 * rows are rebuilt on each change, a status line says what is still being
 * probed, and once the session has settled the default is chosen (the
 * policy's, choose.h) and the countdown starts. When it runs out, the
 * unattended boot tries the policy's candidates in turn, each failure
 * shown for CHOOSE_FAIL_SHOW_S seconds (a key stops it). It boots the choice
 * with boot_run() (boot/transaction.h), giving it the loading bar, the
 * fetch line (Esc cancels), the "Starting" line and the terminals around
 * the jump; the session stays the caller's.
 */
#ifndef BM_UI_H
#define BM_UI_H

struct session;
struct boot_opts;
struct choose;
struct conf;

struct ui_opts {
	const struct conf *conf; /* bootmenu.conf: password, colour */
	/* The policy: default, timeout, fallback (choose.h). The menu puts
	 * the saved default into choose->saved_id once settled. */
	struct choose *choose;
	/* Draw on these consoles ("tty0 ttyS0", /dev paths); NULL or "":
	 * stdin/stdout. */
	const char *consoles;
	const char *cmdline; /* the kernel's (bootmenu.term=, .utf8=) */
	/* `r`: scan again into @s; NULL: session_rescan(). 0 or -errno. */
	int (*rescan)(struct session *s, void *data);
	void *rescan_data;
};

/* Run the menu. Returns -ENOTTY when curses cannot start here (the caller
 * then uses the plain chooser); 0 after a dry run printed its plan on
 * stdout; 1 when the user left (or every terminal went away). Does not
 * return when an entry boots. */
int ui_menu(struct session *s, const struct ui_opts *uo,
	    const struct boot_opts *o);

#endif
