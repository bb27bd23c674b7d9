/* term.h - the terminals the menu draws on: one ncurses SCREEN each.
 *
 * Either stdin/stdout (a workstation, tmux, --dry-run), or every console
 * the kernel writes to (ui/console.h), each opened here. Keys are read as
 * bytes from every terminal at once and decoded per terminal (ui/key.h);
 * drawing goes to each in turn (ui_term_select() then curses calls), so
 * all show the same state. The set owns what it opened; ui_terms_close()
 * releases it.
 */
#ifndef BM_UI_TERM_H
#define BM_UI_TERM_H

#include "ui/console.h"
#include "ui/key.h"

#include <ncursesw/curses.h>

#include <stdbool.h>
#include <stdio.h>

#define UI_TERM_GONE (-1000)  /* every terminal closed or failed */
#define UI_TERM_EVENT (-1001) /* the extra descriptor is readable */

/* What a piece of the screen is, for its colour or mono attribute. */
enum ui_role {
	UI_R_TEXT,
	UI_R_TITLE,
	UI_R_SEL,
	UI_R_FS,
	UI_R_DISABLED,
	UI_R_STATUS,
	UI_R_COUNT,
	UI_R_KEYS,
	UI_R_DIALOG,
	UI_R_ERROR,
	UI_R_DEFAULT,
	UI_R_ROLES
};

struct ui_term {
	char path[UI_CONSOLE_PATH]; /* "/dev/ttyS0"; "" for stdin/stdout */
	const char *type;	    /* terminfo name */
	int fd;			    /* keys are read from here */
	FILE *in, *out;
	SCREEN *scr;
	struct ui_keydec kd;
	bool utf8, colour, vt, dead;
};

struct ui_terms {
	struct ui_term t[UI_CONSOLE_MAX];
	int n;
	int from; /* the terminal the last key came from */
	/* /dev/kmsg on consoles: a kernel message printed over the menu
	 * makes every screen redraw in full shortly after. -1 when none. */
	int kmsg_fd;
	long long repaint_at; /* ms (CLOCK_MONOTONIC); 0 when none due */
};

/* stdin/stdout as the one terminal (TERM from the environment). 0, or
 * -ENOTTY when they are not a terminal curses can use. */
int ui_terms_stdio(struct ui_terms *ts, bool colour);
/* Every console in @list ("tty0 ttyS0", or /dev paths). A VT is "linux",
 * another line is "vt220" or bootmenu.term= of @cmdline; UTF-8 on a VT
 * when the kernel's vt.default_utf8 is on, elsewhere with bootmenu.utf8=1
 * or a UTF-8 locale. Consoles that do not open are skipped. 0 when one
 * opened at least, else -ENOTTY. */
int ui_terms_consoles(struct ui_terms *ts, const char *list,
		      const char *cmdline, bool colour);
void ui_terms_close(struct ui_terms *ts);

/* Make @t's screen the current one, following its size. */
void ui_term_select(struct ui_term *t);
/* True (once per due repaint) when the screens must be redrawn in full:
 * the kernel printed over them. */
bool ui_terms_repaint_due(struct ui_terms *ts);
/* The attribute for @role on @t: a colour pair where it has colours,
 * reverse, bold and dim elsewhere. */
int ui_term_attr(const struct ui_term *t, enum ui_role role);

/* Leave curses mode on every terminal (a shell, a boot, an exit), and go
 * back to it, redrawing from scratch. */
void ui_terms_suspend(struct ui_terms *ts);
void ui_terms_resume(struct ui_terms *ts);

/* Wait up to @ms (-1: forever) for a key on any terminal (ts->from says
 * which). Returns the key, UI_KEY_NONE on timeout or a signal,
 * UI_TERM_EVENT when @extra_fd (when >= 0) is readable, UI_TERM_GONE when
 * no terminal is left. */
int ui_terms_key(struct ui_terms *ts, int ms, int extra_fd);

#endif
