/* term.c - ncurses screens on stdin/stdout or on every console. */
#include "ui/term.h"
#include "util/cmdline.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/kd.h>
#include <time.h>
#include <unistd.h>

#define ESC_WAIT_MS 60
/* printk stores a record, then the console prints it: redraw after that */
#define KMSG_SETTLE_MS 150
#define VT_UTF8 "/sys/module/vt/parameters/default_utf8"

static bool locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
}

#define BG (-2) /* the terminal's own background */

/* Colour pairs by role (foreground, background). */
static const short pairs[UI_R_ROLES][2] = {
    [UI_R_TEXT] = {-1, -1},
    [UI_R_TITLE] = {COLOR_WHITE, COLOR_BLUE},
    [UI_R_SEL] = {COLOR_BLACK, COLOR_CYAN},
    [UI_R_FS] = {COLOR_YELLOW, BG},
    [UI_R_DISABLED] = {COLOR_RED, BG},
    [UI_R_STATUS] = {COLOR_CYAN, BG},
    [UI_R_COUNT] = {COLOR_GREEN, BG},
    [UI_R_KEYS] = {COLOR_BLACK, COLOR_WHITE},
    [UI_R_DIALOG] = {COLOR_WHITE, COLOR_BLUE},
    [UI_R_ERROR] = {COLOR_WHITE, COLOR_RED},
    [UI_R_DEFAULT] = {COLOR_GREEN, BG},
};

/* Without colours: what reads well in black and white. */
static const int mono[UI_R_ROLES] = {
    [UI_R_TITLE] = A_REVERSE,
    [UI_R_SEL] = A_REVERSE,
    [UI_R_FS] = A_BOLD,
    [UI_R_DISABLED] = A_DIM,
    [UI_R_STATUS] = 0,
    [UI_R_COUNT] = A_BOLD,
    [UI_R_KEYS] = 0,
    [UI_R_DIALOG] = A_REVERSE,
    [UI_R_ERROR] = A_REVERSE | A_BOLD,
    [UI_R_DEFAULT] = A_BOLD,
};

int ui_term_attr(const struct ui_term *t, enum ui_role role)
{
	if (role <= UI_R_TEXT || role >= UI_R_ROLES)
		return 0;
	if (!t->colour)
		return mono[role];
	return COLOR_PAIR(role) |
	       (role == UI_R_FS || role == UI_R_TITLE || role == UI_R_ERROR
		    ? A_BOLD
		    : 0);
}

static void start_colours(struct ui_term *t, bool want)
{
	short bg;

	t->colour = want && has_colors() && start_color() == OK &&
		    COLOR_PAIRS > UI_R_ROLES;
	if (!t->colour)
		return;
	/* keep a light terminal light; black where defaults are unknown */
	bg = use_default_colors() == OK ? -1 : COLOR_BLACK;
	for (int r = 1; r < UI_R_ROLES; r++)
		init_pair((short)r, pairs[r][0],
			  pairs[r][1] == BG ? bg : pairs[r][1]);
}

/* Curses on @t (its in/out set): the modes every screen gets. */
static int start_term(struct ui_term *t, bool colour, bool raw_keys)
{
	t->scr = newterm(t->type, t->out, t->in);
	if (!t->scr)
		return -ENOTTY;
	set_term(t->scr);
	if (raw_keys)
		raw(); /* Ctrl-Z or Ctrl-C must not stop a boot loader */
	else
		cbreak();
	noecho();
	nonl();
	typeahead(-1); /* we read the keys; curses must not look at them */
	curs_set(0);
	start_colours(t, colour);
	return 0;
}

/* A VT answers KDGKBTYPE; a serial line does not. */
static bool is_vt(int fd)
{
	char kb;

	return ioctl(fd, KDGKBTYPE, &kb) == 0;
}

int ui_terms_stdio(struct ui_terms *ts, bool colour)
{
	struct ui_term *t = &ts->t[0];
	const char *term = getenv("TERM");

	memset(ts, 0, sizeof(*ts));
	ts->kmsg_fd = -1;
	if (!isatty(0) || !isatty(1) || (term && !strcmp(term, "dumb")))
		return -ENOTTY;
	setlocale(LC_ALL, "");
	t->vt = is_vt(0);
	t->type = term && *term && (strcmp(term, "linux") || t->vt)
		      ? term
		      : ui_console_term(t->vt, NULL);
	t->fd = 0;
	t->in = stdin;
	t->out = stdout;
	t->utf8 = locale_utf8();
	if (start_term(t, colour, false))
		return -ENOTTY;
	ts->n = 1;
	return 0;
}

static bool vt_utf8(void)
{
	char c = '0';
	int fd = open(VT_UTF8, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (read(fd, &c, 1) != 1)
			c = '0';
		close(fd);
	}
	return c == '1' || c == 'Y';
}

/* bootmenu.utf8=1|0, else the locale's word. */
static bool line_utf8(const char *cmdline)
{
	char v[8];

	if (cmdline_value(cmdline, "utf8", v, sizeof(v)))
		return v[0] == '1' || v[0] == 'y' || v[0] == 'Y';
	return locale_utf8();
}

static int open_console(struct ui_term *t, const char path[UI_CONSOLE_PATH],
			const char *cmdline, const char *override)
{
	int fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	int out;

	if (fd < 0)
		return -errno;
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (!isatty(fd) || (out = fcntl(fd, F_DUPFD_CLOEXEC, 3)) < 0) {
		close(fd);
		return -ENOTTY;
	}
	memcpy(t->path, path, sizeof(t->path));
	t->fd = fd;
	t->in = fdopen(fd, "r");
	t->out = fdopen(out, "w");
	if (!t->in || !t->out) {
		if (!t->in)
			close(fd);
		if (!t->out)
			close(out);
		return -ENOMEM;
	}
	t->vt = is_vt(fd);
	t->type = ui_console_term(t->vt, override);
	t->utf8 = t->vt ? vt_utf8() : line_utf8(cmdline);
	return 0;
}

static void close_one(struct ui_term *t)
{
	if (t->scr) {
		set_term(t->scr);
		if (!isendwin())
			endwin();
		delscreen(t->scr);
		t->scr = NULL;
	}
	if (t->path[0]) {
		if (t->in)
			fclose(t->in);
		if (t->out)
			fclose(t->out);
	}
	t->in = t->out = NULL;
}

/* One process-wide locale: UTF-8 when any terminal takes it. */
static void pick_locale(struct ui_terms *ts)
{
	bool want = false;

	setlocale(LC_ALL, "");
	for (int i = 0; i < ts->n; i++)
		want |= ts->t[i].utf8;
	if (!want || locale_utf8())
		return;
	if (!setlocale(LC_CTYPE, "C.UTF-8") || !locale_utf8())
		for (int i = 0; i < ts->n; i++)
			ts->t[i].utf8 = false;
}

int ui_terms_consoles(struct ui_terms *ts, const char *list,
		      const char *cmdline, bool colour)
{
	char paths[UI_CONSOLE_MAX][UI_CONSOLE_PATH], term[64];
	int n = ui_console_parse(list, paths, UI_CONSOLE_MAX), k = 0;

	memset(ts, 0, sizeof(*ts));
	ts->kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (ts->kmsg_fd >= 0)
		lseek(ts->kmsg_fd, 0, SEEK_END);
	cmdline_value(cmdline, "term", term, sizeof(term));
	for (int i = 0; i < n; i++) {
		struct ui_term *t = &ts->t[k];

		memset(t, 0, sizeof(*t));
		if (open_console(t, paths[i], cmdline, term) == 0)
			k++;
		else
			close_one(t);
	}
	ts->n = k;
	pick_locale(ts);
	for (int i = 0; i < ts->n; i++)
		if (start_term(&ts->t[i], colour, true))
			ts->t[i].dead = true;
	for (int i = 0; i < ts->n; i++)
		if (!ts->t[i].dead)
			return 0;
	ui_terms_close(ts);
	return -ENOTTY;
}

void ui_terms_close(struct ui_terms *ts)
{
	for (int i = 0; i < ts->n; i++)
		close_one(&ts->t[i]);
	ts->n = 0;
	if (ts->kmsg_fd >= 0)
		close(ts->kmsg_fd);
	ts->kmsg_fd = -1;
}

static long long mono_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

/* Every new kernel record read (one per read(2), kmsg's rule); the
 * screens get redrawn once the console has printed them. */
static void kmsg_drain(struct ui_terms *ts)
{
	char rec[1024];
	ssize_t n;

	while ((n = read(ts->kmsg_fd, rec, sizeof(rec))) > 0 ||
	       (n < 0 && errno == EPIPE))
		;
	if (n < 0 && errno != EAGAIN && errno != EINTR) {
		close(ts->kmsg_fd);
		ts->kmsg_fd = -1;
	}
	ts->repaint_at = mono_ms() + KMSG_SETTLE_MS;
}

bool ui_terms_repaint_due(struct ui_terms *ts)
{
	if (!ts->repaint_at || mono_ms() < ts->repaint_at)
		return false;
	ts->repaint_at = 0;
	return true;
}

void ui_term_select(struct ui_term *t)
{
	struct winsize ws;

	set_term(t->scr);
	/* serial lines report 0x0: keep terminfo's size there */
	if (!ioctl(t->fd, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col &&
	    (ws.ws_row != LINES || ws.ws_col != COLS))
		resizeterm(ws.ws_row, ws.ws_col);
}

void ui_terms_suspend(struct ui_terms *ts)
{
	for (int i = 0; i < ts->n; i++) {
		if (ts->t[i].dead || !ts->t[i].scr)
			continue;
		set_term(ts->t[i].scr);
		if (!isendwin())
			endwin();
		fflush(ts->t[i].out);
	}
}

void ui_terms_resume(struct ui_terms *ts)
{
	for (int i = 0; i < ts->n; i++) {
		if (ts->t[i].dead || !ts->t[i].scr)
			continue;
		set_term(ts->t[i].scr);
		reset_prog_mode();
		clearok(curscr, TRUE);
	}
}

/* No byte came in time: a lone ESC or a cut sequence on any terminal. */
static int key_timeout(struct ui_terms *ts)
{
	for (int i = 0; i < ts->n; i++) {
		int k;

		if (ts->t[i].dead || !ui_key_pending(&ts->t[i].kd))
			continue;
		k = ui_key_timeout(&ts->t[i].kd);
		if (k != UI_KEY_NONE && k != UI_KEY_UNKNOWN) {
			ts->from = i;
			return k;
		}
	}
	return UI_KEY_NONE;
}

/* One byte from terminal @i; a key when it completes one. */
static int key_byte(struct ui_terms *ts, int i)
{
	struct ui_term *t = &ts->t[i];
	unsigned char c;
	int k;

	errno = 0;
	if (read(t->fd, &c, 1) != 1) {
		if (errno != EINTR && errno != EAGAIN)
			t->dead = true;
		return UI_KEY_NONE;
	}
	k = ui_key_feed(&t->kd, c);
	if (k == UI_KEY_UNKNOWN)
		return UI_KEY_NONE;
	ts->from = i;
	return k;
}

int ui_terms_key(struct ui_terms *ts, int ms, int extra_fd)
{
	for (;;) {
		struct pollfd p[UI_CONSOLE_MAX + 2];
		int who[UI_CONSOLE_MAX], n = 0, rc;
		bool pending = false;

		for (int i = 0; i < ts->n; i++) {
			if (ts->t[i].dead)
				continue;
			pending |= ui_key_pending(&ts->t[i].kd);
			p[n] = (struct pollfd){.fd = ts->t[i].fd,
					       .events = POLLIN};
			who[n++] = i;
		}
		if (!n)
			return UI_TERM_GONE;
		p[n] = (struct pollfd){.fd = extra_fd, .events = POLLIN};
		p[n + 1] = (struct pollfd){.fd = ts->kmsg_fd, .events = POLLIN};
		if (pending && (ms < 0 || ms > ESC_WAIT_MS))
			ms = ESC_WAIT_MS;
		if (ts->repaint_at && (ms < 0 || ms > KMSG_SETTLE_MS))
			ms = KMSG_SETTLE_MS;
		/* poll(2) skips entries with a negative fd */
		rc = poll(p, (nfds_t)n + 2, ms);
		if (rc == 0)
			return key_timeout(ts);
		if (rc < 0)
			return errno == EINTR ? UI_KEY_NONE : UI_TERM_GONE;
		for (int j = 0; j < n; j++) {
			int k;

			if (p[j].revents & POLLIN)
				k = key_byte(ts, who[j]);
			else if (p[j].revents & (POLLHUP | POLLERR | POLLNVAL))
				ts->t[who[j]].dead = true, k = UI_KEY_NONE;
			else
				continue;
			if (k != UI_KEY_NONE)
				return k;
		}
		if (p[n + 1].revents) {
			kmsg_drain(ts);
			return UI_KEY_NONE;
		}
		if (extra_fd >= 0 && p[n].revents)
			return UI_TERM_EVENT;
	}
}
