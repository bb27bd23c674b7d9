/* ui.h - the full-screen boot menu (ncurses) on the controlling terminal.
 *
 * The only room that includes curses. ui_menu() draws @s's entries on
 * stdin/stdout, counts down, and boots the choice with boot_load_entry()
 * and boot_jump(); the session stays the caller's.
 */
#ifndef BM_UI_H
#define BM_UI_H

struct session;
struct boot_opts;
struct entry;

struct ui_opts {
	double timeout_s;          /* -1: wait; 0 is handled by the caller */
	const struct entry *def;   /* the default entry (may be NULL) */
};

/* Run the menu. Returns -ENOTTY when curses cannot start here (the caller
 * then uses the plain chooser); 0 after a dry run printed its plan on
 * stdout; 1 when the user left (or nothing is bootable). Does not return
 * when an entry boots. */
int ui_menu(struct session *s, const struct ui_opts *uo,
	    const struct boot_opts *o);

#endif
