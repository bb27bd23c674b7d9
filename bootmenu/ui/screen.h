/* screen.h - the menu's state and its drawing, shared by the ui/ files.
 *
 * Internal to the ui room. Every view is a paint function drawing on the
 * current curses screen; ui_paint() runs it on each terminal in turn, so
 * every console shows the same thing.
 */
#ifndef BM_UI_SCREEN_H
#define BM_UI_SCREEN_H

#include "ui/model.h"
#include "ui/term.h"
#include "ui/ui.h"

#include <stdbool.h>

struct entry;
struct entry_file;
struct ui_form;

struct ui {
	struct session *s;
	const struct ui_opts *uo;
	const struct boot_opts *o;
	struct ui_terms ts;
	struct ui_term *cur; /* the terminal being drawn on */
	struct ui_model m;
	char msg[512]; /* the message line; "" none */
	enum ui_role msg_role;
	/* said before the countdown and kept in sight during it (the OS's
	 * Boot Loader Interface request that names no entry); "" none */
	char note[400];
	bool touched;		  /* a key came: no countdown from now on */
	bool settled;		  /* the session's start-up probing is over */
	bool counted;		  /* the countdown was started once */
	long long fetch_drawn_ms; /* a network fetch's line was drawn */
	/* the network file being fetched (its path's pointer, NULL before
	 * the first), when it began and its bytes so far, for the rate */
	const char *fetch_path;
	long long fetch_start_ms;
	unsigned long long fetch_done;
	bool unlocked;	   /* the password was given */
	char sb_note[64];  /* "Secure Boot: on" for the title line, or "" */
	char tpm_note[64]; /* "TPM 2.0: measuring" for the title line, or "" */
	/* the disks settled with only locked volumes' lines, or with one
	 * bootmenu.conf's unlock_at_start names: open its dialog by itself
	 * (once, from the loop) */
	bool ask_unlock, asked_unlock;
	/* while that dialog is open: the countdown's end, by which a first
	 * key must come or the default boots (0: no countdown, it waits) */
	long long unlock_deadline_ms;
	/* "vda3 unlocked as luks-..." kept in sight during the countdown
	 * that follows an unlock, until a key; "" none */
	char unlock_said[200];
};

typedef void (*ui_paint_fn)(struct ui *u, const void *arg);

/* CLOCK_MONOTONIC in milliseconds. */
long long ui_now_ms(void);
/* Take the session's queued events (rows, default, countdown follow). */
void ui_session_event(struct ui *u);

/* Draw with @fn on every terminal and show it. */
void ui_paint(struct ui *u, ui_paint_fn fn, const void *arg);

/* --- draw.c: pieces of a screen, on the current terminal */
/* @text in at most @w columns at the cursor (ui/text.h's rules). */
void ui_put(struct ui *u, const char *text, int w);
/* Line @y cleared and filled in @role's attribute, @text at column @x. */
void ui_line(struct ui *u, int y, int x, enum ui_role role, const char *text);
/* The menu: title, rows, status, countdown or message, key line. */
void ui_draw_menu(struct ui *u, const void *arg);
/* A box over the menu: @title, @text wrapped, then @footer. */
void ui_draw_box(struct ui *u, enum ui_role role, const char *title,
		 const char *text, const char *footer);

/* --- dialog.c: views that wait for keys */
/* A box with @footer for @ms at most: UI_KEY_NONE when the time ran out,
 * else the key that came first (or UI_TERM_GONE). */
int ui_timed_box(struct ui *u, const char *title, const char *text,
		 const char *footer, int ms);
/* Show a box until a key (or every terminal went away). */
void ui_dialog(struct ui *u, enum ui_role role, const char *title,
	       const char *text);
void ui_info(struct ui *u, const struct entry *e);
void ui_help(struct ui *u);
/* The masked password prompt, three tries. True when it matched; else
 * u->msg says why. */
bool ui_password(struct ui *u, const char *why);

#define UI_PASS_MAX 256 /* bytes a typed secret may have, with its NUL */

/* A secret typed in a box over the menu: @title, @note (may be "") then
 * "@label " and a star per byte typed, or nothing (@stars false: not even
 * the length shows). */
struct ui_prompt {
	const char *title, *label;
	bool stars;
	char note[300];
	size_t len; /* typed bytes */
	/* ui_now_ms() by which a first key must come, 0: none (the
	 * countdown's end, for a dialog opened by itself) */
	long long deadline_ms;
	bool expired; /* the deadline passed with no key */
	bool touched; /* a key came */
};
/* One try: the typed text into buf[UI_PASS_MAX], NUL-terminated. False
 * on Esc, when no terminal is left, or when p->deadline_ms passed before
 * any key (p->expired; buf is then wiped). The caller wipes @buf after
 * use. */
bool ui_prompt_read(struct ui *u, struct ui_prompt *p, char *buf);

/* --- unlock.c: a locked LUKS volume's line (ENTRY_UNLOCK) */
/* The TPM first, then the passphrase dialog, three tries (issue #33);
 * u->msg says how it ended. 0 when @e's device was unlocked, else
 * -errno (-ECANCELED: Esc). */
int ui_unlock(struct ui *u, const struct entry *e);
/* The editor form over @e; true with *out (using @f's text and @files)
 * when Enter was pressed and the fields were good, false on Esc. */
bool ui_edit_form(struct ui *u, const struct entry *e, struct ui_form *f,
		  struct entry *out, struct entry_file *files);
/* Paint @fn on every terminal until a key comes from one of them; the
 * key, or UI_TERM_GONE (which ends every wait). */
int ui_wait_key(struct ui *u, ui_paint_fn fn, const void *arg);
/* ui_wait_key() until ui_now_ms() reaches @end_ms (0: no end), then
 * UI_KEY_NONE. */
int ui_wait_key_until(struct ui *u, ui_paint_fn fn, const void *arg,
		      long long end_ms);

#endif
