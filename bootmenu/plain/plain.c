/* plain.c - the plain-text chooser. */
#include "plain/plain.h"
#include "boot/boot.h"
#include "entry/entry_print.h"
#include "scan/fs.h"
#include "session/session.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct session *jump_session;

static void unmount_hook(void)
{
	if (jump_session)
		session_unmount(jump_session);
}

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

static const struct entry *ask(struct session *s, const struct entry *def,
			       double timeout_s)
{
	char line[64];
	int rc, ms = timeout_s < 0 ? -1 : (int)(timeout_s * 1000);

	printf("\nbootmenu: %zu entries on %zu filesystems\n", s->list.count,
	       s->n_fss);
	entry_print_text(stdout, &s->list);
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
		return def;
	if (rc < 0)
		return NULL;
	{
		char *end;
		long n = strtol(line, &end, 10);
		const struct entry *e = *end ? NULL : session_nth(&s->list, n);

		if (!e)
			printf("bootmenu: no entry \"%s\"\n", line);
		return e ? e : ask(s, def, -1);
	}
}

int plain_boot(struct session *s, const struct entry *e,
	       const struct boot_opts *o)
{
	struct boot_opts bo = o ? *o : (struct boot_opts){0};
	const char *used = "kexec";
	char err[512];

	bo.syscall_used = &used;
	if (e->disabled) {
		printf("bootmenu: \"%s\" cannot be booted: %s\n", e->title,
		       e->disabled);
		return -EINVAL;
	}
	printf("bootmenu: loading \"%s\"\n", e->title);
	fflush(stdout);
	if (boot_load_entry(e, &bo, err, sizeof(err)) < 0) {
		printf("bootmenu: cannot boot \"%s\": %s\n", e->title, err);
		return -EIO;
	}
	if (o && o->dry_run)
		return 0;
	printf("Starting %s (loaded with %s)\n", e->title, used);
	fflush(stdout);
	jump_session = s;
	boot_jump(unmount_hook);
	printf("bootmenu: the jump failed: %s\n", strerror(errno));
	return -EIO;
}

int plain_menu(struct session *s, double timeout_s, const struct boot_opts *o)
{
	const struct entry *def = session_default(&s->list);

	if (!def) {
		printf("bootmenu: nothing bootable found on %zu filesystems\n",
		       s->n_fss);
		entry_print_text(stdout, &s->list);
		return 1;
	}
	for (;;) {
		const struct entry *e = ask(s, def, timeout_s);

		if (!e)
			return 1;
		timeout_s = -1;
		if (plain_boot(s, e, o) == 0)
			return 0;
	}
}
