/* draw.c - the menu and boxes, drawn on the current terminal. */
#include "ui/screen.h"
#include "ui/text.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "session/session.h"

#include <stdio.h>
#include <string.h>

#define BOX_LINES 12 /* text lines a box shows at most */

void ui_paint(struct ui *u, ui_paint_fn fn, const void *arg)
{
	bool full = ui_terms_repaint_due(&u->ts);

	for (int i = 0; i < u->ts.n; i++) {
		struct ui_term *t = &u->ts.t[i];

		if (t->dead)
			continue;
		ui_term_select(t);
		if (full)
			clearok(curscr, TRUE);
		u->cur = t;
		fn(u, arg);
		wnoutrefresh(stdscr);
		doupdate();
	}
}

void ui_put(struct ui *u, const char *text, int w)
{
	char buf[2048];

	if (w <= 0)
		return;
	ui_text_fit(buf, sizeof(buf), text, w, u->cur->utf8);
	addstr(buf);
}

void ui_line(struct ui *u, int y, int x, enum ui_role role, const char *text)
{
	int attr = ui_term_attr(u->cur, role);
	/* the bottom-right cell would scroll some terminals */
	int w = y == LINES - 1 ? COLS - 1 : COLS;

	if (y < 0 || y >= LINES)
		return;
	attrset(attr);
	move(y, 0);
	for (int i = 0; i < w; i++)
		addch(' ');
	move(y, x);
	ui_put(u, text, w - x);
	attrset(A_NORMAL);
}

static void draw_fs(struct ui *u, int y, const struct ui_row *r)
{
	char buf[1024];

	if (!r->fs) { /* the locked volumes' header (model.c) */
		ui_line(u, y, 0, UI_R_FS, "Encrypted volumes");
		return;
	}
	snprintf(buf, sizeof(buf), "%s  %s  %s%s%s", r->fs->name,
		 r->fs->fstype ? r->fs->fstype : "?",
		 r->fs->label ? r->fs->label : "", r->configs ? "  " : "",
		 r->configs ? r->configs : "");
	ui_line(u, y, 0, UI_R_FS, buf);
}

static void draw_row(struct ui *u, int y, const struct ui_row *r, bool sel)
{
	const struct entry *e = r->e;
	enum ui_role role = UI_R_TEXT;
	char buf[1024];

	if (r->kind == UI_ROW_FS) {
		draw_fs(u, y, r);
		return;
	}
	if (r->kind == UI_ROW_GROUP) {
		snprintf(buf, sizeof(buf), "%*s%s %s", 2 + 2 * r->depth, "",
			 r->open ? "[-]" : "[+]", r->label);
	} else {
		snprintf(buf, sizeof(buf), "%*s%c %s%s%s%s", 2 + 2 * r->depth,
			 "", e == u->m.def ? '*' : ' ', e->title,
			 e->disabled ? "  (" : "",
			 e->disabled ? e->disabled : "",
			 e->disabled ? ")" : "");
		role = e->disabled     ? UI_R_DISABLED
		       : e == u->m.def ? UI_R_DEFAULT
				       : UI_R_TEXT;
	}
	if (sel) {
		/* dim stays visible under the bar in black and white */
		int extra = e && e->disabled && !u->cur->colour ? A_DIM : 0;

		ui_line(u, y, 0, UI_R_SEL, buf);
		if (extra)
			mvchgat(y, 0, -1,
				ui_term_attr(u->cur, UI_R_SEL) | extra, 0,
				NULL);
		return;
	}
	ui_line(u, y, 0, role, buf);
}

/* No entry yet. Once the disks settled, while the network still works
 * and no key came, its entries may yet arrive and boot at the end of
 * their countdown (screen.c settle()): say what is awaited; any key
 * (Esc) stops that wait, as it stops a countdown. */
static void draw_empty(struct ui *u)
{
	char net[300], line[400];

	if (u->settled && !u->touched &&
	    session_source_status(u->s, "network", net, sizeof(net))) {
		snprintf(line, sizeof(line),
			 "Waiting for the network: %s. Esc stops waiting.",
			 net);
		ui_line(u, 2, 2, UI_R_TEXT, line);
		return;
	}
	ui_line(u, 2, 2, UI_R_TEXT,
		u->settled
		    ? "No boot entries found. r scans again, s opens a shell."
		    : "Looking for boot entries...");
}

/* The line above the keys: countdown, else the message. */
static void draw_count(struct ui *u)
{
	char buf[600];
	long long now = ui_now_ms();
	int left = ui_count_left(&u->m, now);

	if (left >= 0 && u->m.def) {
		/* a note said before the countdown stays in sight */
		snprintf(buf, sizeof(buf), "%.150s%s%.200s%sBooting %s in %d s",
			 u->unlock_said, u->unlock_said[0] ? " -- " : "",
			 u->note, u->note[0] ? " -- " : "", u->m.def->title,
			 left);
		ui_line(u, LINES - 2, 0, UI_R_COUNT, buf);
	} else {
		ui_line(u, LINES - 2, 0, u->msg[0] ? u->msg_role : UI_R_TEXT,
			u->msg);
	}
}

void ui_draw_menu(struct ui *u, const void *arg)
{
	char buf[600];
	int h = LINES - 4 > 1 ? LINES - 4 : 1;
	const struct entry *sel = ui_model_selected(&u->m);
	/* a locked volume's line is no boot entry */
	size_t n = u->s->list.count > u->s->n_locked
		       ? u->s->list.count - u->s->n_locked
		       : 0;

	erase();
	curs_set(0);
	snprintf(buf, sizeof(buf),
		 "bootmenu %s - %zu entries on %zu filesystems%s%s%s%s",
		 BOOTMENU_VERSION, n, u->s->n_fss, u->sb_note[0] ? " - " : "",
		 u->sb_note, u->tpm_note[0] ? " - " : "", u->tpm_note);
	ui_line(u, 0, 0, UI_R_TITLE, buf);
	ui_model_scroll(&u->m, h);
	for (int i = 0; i < h && u->m.top + i < u->m.n_rows; i++)
		draw_row(u, 1 + i, &u->m.rows[u->m.top + i],
			 u->m.top + i == u->m.sel);
	if (!u->m.n_rows)
		draw_empty(u);
	if (session_status(u->s, buf, sizeof(buf)))
		ui_line(u, LINES - 3, 0, UI_R_STATUS, buf);
	draw_count(u);
	ui_line(u, LINES - 1, 0, UI_R_KEYS,
		sel && sel->method == ENTRY_UNLOCK
		    ? "Enter unlock  r rescan  s shell  ? help"
		    : "Enter boot  e edit  i info  "
		      "d default  r rescan  s shell  ? help");
}

/* The next line of @text that fits @w bytes, cut at a space when one is
 * there; *len is its length, the return value where the next one starts. */
static const char *wrap(const char *text, int w, int *len)
{
	int n = (int)strlen(text), cut = w;

	if (n <= w) {
		*len = n;
		return text + n;
	}
	while (cut > w / 2 && text[cut] != ' ')
		cut--;
	if (text[cut] != ' ')
		cut = w;
	*len = cut;
	return text + cut + (text[cut] == ' ');
}

void ui_draw_box(struct ui *u, enum ui_role role, const char *title,
		 const char *text, const char *footer)
{
	int bw = COLS - 8 < 20 ? COLS : COLS - 8 > 76 ? 76 : COLS - 8;
	int n = 0, x = (COLS - bw) / 2, y0;
	const char *p = text;
	char lines[BOX_LINES][256];

	while (*p && n < BOX_LINES && n < LINES - 5) {
		int len;
		const char *next = wrap(p, bw - 4 < 255 ? bw - 4 : 255, &len);

		snprintf(lines[n++], sizeof(lines[0]), "%.*s", len, p);
		p = next;
	}
	y0 = (LINES - (n + 5)) / 2;
	if (y0 < 0)
		y0 = 0;
	attrset(ui_term_attr(u->cur, role));
	for (int y = y0; y < y0 + n + 5 && y < LINES; y++) {
		move(y, x);
		for (int i = 0; i < bw; i++)
			addch(' ');
	}
	move(y0 + 1, x + 2);
	attron(A_BOLD);
	ui_put(u, title, bw - 4);
	attroff(A_BOLD);
	for (int i = 0; i < n; i++) {
		move(y0 + 2 + i, x + 2);
		ui_put(u, lines[i], bw - 4);
	}
	move(y0 + n + 3, x + 2);
	ui_put(u, footer, bw - 4);
	attrset(A_NORMAL);
}
