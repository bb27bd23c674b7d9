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
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define PLAIN_TRIES 3	      /* passphrase tries, as the menu's */
#define PLAIN_SECRET_MAX 256  /* UI_PASS_MAX */
#define PLAIN_SETTLE_MS 10000 /* most an unlocked volume is waited for */

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

/* A line of stdin, not echoed when stdin is a terminal: a secret. */
static int read_secret(char *buf, size_t len)
{
	struct termios old, quiet;
	bool tty = tcgetattr(0, &old) == 0;
	int rc;

	if (tty) {
		quiet = old;
		quiet.c_lflag &= ~(tcflag_t)ECHO;
		tcsetattr(0, TCSAFLUSH, &quiet);
	}
	rc = read_line(buf, len, -1);
	if (tty) {
		tcsetattr(0, TCSAFLUSH, &old);
		putchar('\n');
	}
	return rc;
}

static bool has_line(const struct entry_list *l, const char *dev)
{
	for (const struct entry *e = l->head; e; e = e->next)
		if (e->method == ENTRY_UNLOCK && !strcmp(e->unlock_dev, dev))
			return true;
	return false;
}

/* An unlocked volume comes as a hot-plugged disk does: take the
 * session's events until its line went and nothing is being probed
 * (twice in a row: the mapping's uevent comes a moment later). */
static void wait_volume(struct session *s, const char *dev)
{
	char st[256];
	int quiet = 0;

	for (int ms = 0; ms < PLAIN_SETTLE_MS && quiet < 2; ms += 250) {
		struct pollfd p = {.fd = session_fd(s), .events = POLLIN};

		if (p.fd >= 0)
			poll(&p, 1, 250);
		session_update(s);
		if (!has_line(&s->list, dev) &&
		    !session_status(s, st, sizeof(st)))
			quiet++;
		else
			quiet = 0;
	}
}

/* The TPM first (session_unlock_tpm(), its PIN asked when it wants
 * one; an empty line goes to the passphrase, as Esc does in the menu):
 * 0 unlocked, -EPIPE stdin closed, else the passphrase is asked for. */
static int plain_tpm(struct session *s, const char *dev)
{
	char err[256], pin[PLAIN_SECRET_MAX];
	int rc = session_unlock_tpm(s, dev, NULL, err, sizeof(err));

	if (rc == -ENOKEY) {
		int n;

		printf("TPM PIN (empty: the passphrase instead): ");
		fflush(stdout);
		n = read_secret(pin, sizeof(pin));
		if (n < 0)
			return -EPIPE;
		if (n == 0)
			return -ENOENT;
		rc = session_unlock_tpm(s, dev, pin, err, sizeof(err));
		explicit_bzero(pin, sizeof(pin));
	}
	if (rc < 0 && rc != -ENOENT && rc != -ENOKEY)
		printf("TPM: %s\n", err);
	return rc;
}

/* A locked volume's line chosen (or the only lines there are): its
 * passphrase, three tries, the same sentences as the menu's. */
static int plain_unlock(struct session *s, const struct entry *e)
{
	char dev[128], vol[128], pass[PLAIN_SECRET_MAX], err[512];
	int rc;

	snprintf(dev, sizeof(dev), "%s", e->unlock_dev);
	snprintf(vol, sizeof(vol), "%s", e->id ? e->id : dev);
	printf("bootmenu: %s\n", e->title);
	rc = plain_tpm(s, dev);
	for (int i = 0; rc && rc != -EPIPE && i < PLAIN_TRIES; i++) {
		printf("Passphrase: ");
		fflush(stdout);
		if (read_secret(pass, sizeof(pass)) < 0)
			return -EPIPE;
		printf("Trying the passphrase...\n");
		fflush(stdout);
		rc = session_unlock(s, dev, pass, strlen(pass), NULL, NULL, err,
				    sizeof(err));
		explicit_bzero(pass, sizeof(pass));
		if (rc && rc != -EACCES) {
			printf("bootmenu: cannot unlock %s: %s\n", dev, err);
			return rc;
		}
		if (rc && i + 1 < PLAIN_TRIES)
			printf("Wrong passphrase, try %d of %d.\n", i + 2,
			       PLAIN_TRIES);
	}
	if (rc == -EACCES)
		printf("bootmenu: Wrong passphrase %d times: %s stays locked\n",
		       PLAIN_TRIES, dev);
	if (rc == 0) {
		printf("bootmenu: %s unlocked as %s\n", dev, vol);
		wait_volume(s, dev);
	}
	fflush(stdout);
	return rc;
}

static const struct entry *first_locked(const struct entry_list *l)
{
	for (const struct entry *e = l->head; e; e = e->next)
		if (e->method == ENTRY_UNLOCK)
			return e;
	return NULL;
}

/* The list and a prompt; then a line. 1: the default (the countdown ran
 * out, or Enter), 0: the entry in *out, -1: stdin closed. */
static int ask(struct session *s, const struct entry *def, double timeout_s,
	       const struct entry **out)
{
	char line[64], *end;
	int rc, ms = timeout_s < 0 ? -1 : (int)(timeout_s * 1000);

	/* a locked volume's line is no boot entry */
	printf("\nbootmenu: %zu entries on %zu filesystems\n",
	       s->list.count > s->n_locked ? s->list.count - s->n_locked : 0,
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

	/* nothing but locked volumes: ask at once, as the menu does */
	if (!def && (e = first_locked(&s->list)) &&
	    plain_unlock(s, e) != -EPIPE)
		def = choose_default(c, &s->list);
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
		if (rc == 0 && e->method == ENTRY_UNLOCK) {
			if (plain_unlock(s, e) == -EPIPE)
				return 1;
			def = choose_default(c, &s->list) ?: def;
		} else if (rc == 0 && plain_boot(e, o) == 0) {
			return 0;
		}
		timeout_s = -1;
	}
}
