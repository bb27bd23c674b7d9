/* plain.c - the plain-text chooser. */
#include "plain/plain.h"
#include "boot/transaction.h"
#include "session/listing.h"
#include "scan/fs.h"
#include "session/session.h"
#include "choose/choose.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Read one line from stdin within @ms (-1: no limit). Returns the length,
 * -ETIMEDOUT, or -EPIPE when stdin is closed. */
static int read_line(char *buf, size_t len, int ms)
{
	struct pollfd p = {.fd = 0, .events = POLLIN};
	size_t got = 0;
	int rc = poll(&p, 1, ms);

	if (rc == 0)
		return -ETIMEDOUT;
	if (rc < 0)
		return -errno;
	while (got + 1 < len) {
		char c;
		ssize_t n = read(0, &c, 1);

		if (n <= 0)
			return got ? (int)got : -EPIPE;
		if (c == '\n' || c == '\r')
			break;
		buf[got++] = c;
	}
	buf[got] = '\0';
	return (int)got;
}

/* The list and a prompt; then a line. 1: the default (the countdown ran
 * out, or Enter), 0: the entry in *out, -1: stdin closed. */
static int ask(struct session *s, const struct entry *def, double timeout_s,
	       const struct entry **out)
{
	char line[64], *end;
	int rc, ms = timeout_s < 0 ? -1 : (int)(timeout_s * 1000);

	printf("\nbootmenu: %zu entries on %zu filesystems\n", s->list.count,
	       s->n_fss);
	listing_text(stdout, &s->list, def);
	if (ms >= 0)
		printf("Booting \"%s\" in %.0f s. Type a number and Enter to "
		       "choose, Enter to boot it now.\n",
		       def->title, timeout_s);
	else
		printf("Type a number and Enter to boot it (Enter: \"%s\").\n",
		       def->title);
	fflush(stdout);
	rc = read_line(line, sizeof(line), ms);
	if (rc == -ETIMEDOUT || rc == 0)
		return 1;
	if (rc < 0)
		return -1;
	*out = session_nth(&s->list, strtol(line, &end, 10));
	if (*end || !*out) {
		printf("bootmenu: no entry \"%s\"\n", line);
		return ask(s, def, -1, out);
	}
	return 0;
}

/* The boot's sentences (boot/transaction.h), one line each. */
static void said(void *ctx, enum boot_say what, const char *text)
{
	printf("%s%s\n", what == BOOT_SAY_LOADING ? "bootmenu: " : "", text);
	fflush(stdout);
}

static const struct boot_front plain_front = {.say = said};

int plain_boot(const struct entry *e, const struct boot_opts *o)
{
	char err[512];
	int rc = boot_run(e, o, &plain_front, err, sizeof(err));

	if (rc < 0)
		printf("bootmenu: cannot boot \"%s\": %s\n", e->title, err);
	return rc;
}

static int auto_boot(void *ctx, const struct entry *e, char *err, size_t len)
{
	const struct boot_opts *const *o = ctx;

	return boot_run(e, *o, &plain_front, err, len);
}

static bool auto_failed(void *ctx, const struct entry *e, const char *err,
			const struct entry *next)
{
	printf("bootmenu: cannot boot \"%s\": %s\n", e->title, err);
	if (next)
		printf("bootmenu: trying \"%s\"\n", next->title);
	fflush(stdout);
	return true;
}

int plain_autoboot(struct session *s, const struct choose *c,
		   const struct boot_opts *o)
{
	struct choose_ops ops = {
	    .boot = auto_boot, .failed = auto_failed, .ctx = &o};

	return choose_autoboot(c, &s->list, false, &ops);
}

int plain_menu(struct session *s, const struct choose *c,
	       const struct boot_opts *o)
{
	const struct entry *def = choose_default(c, &s->list), *e = NULL;
	double timeout_s = choose_timeout(c, &s->list);

	if (!def) {
		printf("bootmenu: nothing bootable found on %zu filesystems\n",
		       s->n_fss);
		listing_text(stdout, &s->list, NULL);
		return 1;
	}
	if (!choose_plain_may_choose(c)) {
		printf("bootmenu: no terminal for the menu; a password is set, "
		       "so only the default boots\n");
		return plain_autoboot(s, c, o) == 0 ? 0 : 1;
	}
	for (;;) {
		int rc = ask(s, def, timeout_s, &e);

		if (rc < 0)
			return 1;
		if (rc == 1 && plain_autoboot(s, c, o) == 0)
			return 0;
		if (rc == 0 && plain_boot(e, o) == 0)
			return 0;
		timeout_s = -1;
	}
}
