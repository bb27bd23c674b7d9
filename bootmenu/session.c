/* session.c - scan, parse, list: the pipeline over real devices. */
#include "session.h"
#include "cfg/cfg.h"
#include "scan/fs.h"
#include "scan/scan.h"
#include "util/log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int session_scan_devices(struct session *s, double settle_s)
{
	struct scan_opts opts = { .settle_s = settle_s, .hotplug = true };
	size_t n;

	memset(s, 0, sizeof(*s));
	entry_list_init(&s->list, &s->arena);
	s->scan = scan_new(&opts);
	if (!s->scan)
		return -errno;
	scan_all(s->scan, settle_s);
	n = scan_roots(s->scan, s->fss, SESSION_MAX_FS);
	if (n > SESSION_MAX_FS) {
		log_warn("%zu filesystems: only the first %d are read", n,
			 SESSION_MAX_FS);
		n = SESSION_MAX_FS;
	}
	s->n_fss = n;
	for (size_t i = 0; i < n; i++) {
		struct entry_list one;
		struct cfg_ctx ctx = {
			.a = &s->arena, .fs = s->fss[i], .out = &one,
			.all = s->fss, .n_all = n,
		};

		entry_list_init(&one, &s->arena);
		cfg_scan_fs(&ctx);
		entry_list_splice(&s->list, &one);
	}
	entry_finish(&s->list, s->fss, n);
	return 0;
}

void session_print_devices(struct session *s, FILE *f)
{
	struct scan_dev devs[SESSION_MAX_FS];
	size_t n = scan_devices(s->scan, devs, SESSION_MAX_FS);

	if (n > SESSION_MAX_FS)
		n = SESSION_MAX_FS;
	for (size_t i = 0; i < n; i++) {
		const struct scan_dev *d = &devs[i];

		if (d->state == SCAN_DEV_MOUNTED)
			continue;
		fprintf(f, "device: %s %s: %s%s%s\n", d->name,
			*d->fstype ? d->fstype : "-", scan_state_name(d->state),
			d->reason ? ": " : "", d->reason ? d->reason : "");
	}
}

void session_unmount(struct session *s)
{
	if (s->scan)
		scan_unmount_all(s->scan);
}

void session_free(struct session *s)
{
	scan_free(s->scan);
	s->scan = NULL;
	arena_free(&s->arena);
}

const struct entry *session_default(const struct entry_list *l)
{
	const struct entry *e;

	for (e = l->head; e; e = e->next)
		if (e->is_default && !e->disabled)
			return e;
	for (e = l->head; e; e = e->next)
		if (!e->disabled)
			return e;
	return NULL;
}

const struct entry *session_nth(const struct entry_list *l, long n)
{
	const struct entry *e = l->head;

	if (n < 0)
		return NULL;
	while (e && n-- > 0)
		e = e->next;
	return e;
}

double session_cmdline_number(const char *cmdline, const char *name, double def)
{
	size_t k = strlen(name);
	const char *p = cmdline;

	while (p && *p) {
		size_t n;

		p += strspn(p, " \t\n");
		n = strcspn(p, " \t\n");
		if (n > k + 9 && !strncmp(p, "bootmenu.", 9) &&
		    !strncmp(p + 9, name, k) && p[9 + k] == '=') {
			char *end;
			double v = strtod(p + 10 + k, &end);

			if (end != p + 10 + k && (size_t)(end - p) == n)
				return v;
			return def;
		}
		p += n;
	}
	return def;
}
