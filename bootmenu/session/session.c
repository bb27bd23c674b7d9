/* session.c - scan, parse, list: the pipeline over real devices.
 *
 * One struct session_part per mounted filesystem keeps what parsing it
 * produced, as arrays of pointers into the arena, with the is_default
 * flags as parsed (entry_finish() clears all but the first). After every
 * change s->list is linked again from the parts, in device order, and
 * entry_finish() resolves it over the filesystems present now: an entry
 * whose kernel is on a filesystem that arrives later resolves then, one
 * whose filesystem left no longer does.
 *
 * A parse sees every filesystem present at that moment (grub's `search
 * --file` and (hdN,M) depend on them), so a part parsed before another
 * filesystem arrived is stale (its gen is behind s->gen). Before start-up
 * settles only new parts are parsed, so the first entries show at once;
 * from SETTLED on, every stale part is parsed again. Arena growth is so
 * bounded: one session_update() adds at most one parse of each present
 * filesystem however many events it took (each parse bounded by
 * FS_CONFIG_MAX per file and ENTRY_MAX entries), a removal adds nothing,
 * and start-up costs at most two parses per filesystem. Replaced entries
 * stay valid until session_free()/session_rescan(), as session.h says.
 */
#include "session/session.h"
#include "cfg/cfg.h"
#include "scan/fs.h"
#include "scan/scan.h"
#include "util/log.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SESSION_HIDDEN "hidden by bootmenu.conf"
#define SESSION_PATTERN_MAX 256
/* session_scan_devices(): SETTLED comes at the settle bound at the latest;
 * this much longer and the scan is given up on. */
#define SESSION_SETTLE_SLACK_S 5.0

struct session_part {
	const struct fs_root *fs;
	unsigned gen; /* s->gen when parsed; 0: not parsed yet */
	struct entry **ents;
	bool *defs; /* is_default as the parser set it */
	size_t n_ents;
	struct warning **warns;
	size_t n_warns;
	int timeout_ds;
};

/* --- hide = patterns */

static bool hide_match(const char *pats, const char *subject, int flags)
{
	const char *p = pats;

	while (*p) {
		char pat[SESSION_PATTERN_MAX];
		size_t n;

		p += strspn(p, " \t");
		n = strcspn(p, " \t");
		if (n && n < sizeof(pat)) {
			memcpy(pat, p, n);
			pat[n] = '\0';
			if (!fnmatch(pat, subject, flags))
				return true;
		}
		p += n;
	}
	return false;
}

/* The scan's filter_fn: @ctx is the session's copy of the patterns. */
static const char *session_filter(void *ctx, const char *name, const char *uuid,
				  const char *label)
{
	char spec[SESSION_PATTERN_MAX];

	if (hide_match(ctx, name, 0))
		return SESSION_HIDDEN;
	if (label && *label) {
		snprintf(spec, sizeof(spec), "LABEL=%s", label);
		if (hide_match(ctx, spec, 0))
			return SESSION_HIDDEN;
	}
	if (uuid && *uuid) { /* blkid prints them lower case; users may not */
		snprintf(spec, sizeof(spec), "UUID=%s", uuid);
		if (hide_match(ctx, spec, FNM_CASEFOLD))
			return SESSION_HIDDEN;
	}
	return NULL;
}

/* --- parts: one parsed filesystem each, in device order */

/* "sda2" before "sda10": runs of digits compare as numbers. */
static int name_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *ea, *eb;
			unsigned long x = strtoul(a, &ea, 10),
				      y = strtoul(b, &eb, 10);

			if (x != y)
				return x < y ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			break;
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static size_t part_find(const struct session *s, const struct fs_root *fs)
{
	size_t i;

	for (i = 0; i < s->n_fss; i++)
		if (s->fss[i] == fs)
			break;
	return i;
}

static bool part_add(struct session *s, const struct fs_root *fs)
{
	struct session_part *p;
	size_t i;

	if (part_find(s, fs) < s->n_fss)
		return false;
	if (s->n_fss == SESSION_MAX_FS) {
		log_warn("%s: more than %d filesystems: not read", fs->name,
			 SESSION_MAX_FS);
		return false;
	}
	for (i = s->n_fss; i > 0 && name_cmp(s->fss[i - 1]->name, fs->name) > 0;
	     i--) {
		s->fss[i] = s->fss[i - 1];
		s->parts[i] = s->parts[i - 1];
	}
	p = arena_alloc(&s->arena, sizeof(*p));
	p->fs = fs;
	s->fss[i] = fs;
	s->parts[i] = p;
	s->n_fss++;
	s->gen++;
	return true;
}

static bool part_remove(struct session *s, const struct fs_root *fs)
{
	size_t i = part_find(s, fs);

	if (i == s->n_fss)
		return false;
	s->n_fss--;
	memmove(&s->fss[i], &s->fss[i + 1], (s->n_fss - i) * sizeof(s->fss[0]));
	memmove(&s->parts[i], &s->parts[i + 1],
		(s->n_fss - i) * sizeof(s->parts[0]));
	return true;
}

/* Parse @p's filesystem over every present one; keep the output as arrays. */
static void part_parse(struct session *s, struct session_part *p)
{
	struct entry_list one;
	struct cfg_ctx ctx = {
	    .a = &s->arena,
	    .fs = p->fs,
	    .out = &one,
	    .all = s->fss,
	    .n_all = s->n_fss,
	};
	size_t k = 0;

	entry_list_init(&one, &s->arena);
	cfg_scan_fs(&ctx);
	p->gen = s->gen;
	p->ents = arena_alloc(&s->arena, (one.count + 1) * sizeof(*p->ents));
	p->defs = arena_alloc(&s->arena, one.count + 1);
	for (struct entry *e = one.head; e && k < one.count; e = e->next, k++) {
		p->ents[k] = e;
		p->defs[k] = e->is_default;
	}
	p->n_ents = k;
	k = 0;
	p->warns =
	    arena_alloc(&s->arena, (one.n_warnings + 1) * sizeof(*p->warns));
	for (struct warning *w = one.warnings; w && k < one.n_warnings;
	     w = w->next)
		p->warns[k++] = w;
	p->n_warns = k;
	p->timeout_ds = one.timeout_ds;
}

/* Parse what is new (and, once settled, what is stale). True if any. */
static bool parts_parse(struct session *s)
{
	bool any = false;

	for (size_t i = 0; i < s->n_fss; i++) {
		struct session_part *p = s->parts[i];

		if (p->gen && (!s->settled || p->gen == s->gen))
			continue;
		part_parse(s, p);
		any = true;
	}
	return any;
}

/* s->list again from the parts, then resolved over s->fss. */
static void list_rebuild(struct session *s)
{
	struct entry_list *l = &s->list;

	entry_list_init(l, &s->arena);
	for (size_t i = 0; i < s->n_fss; i++) {
		const struct session_part *p = s->parts[i];

		for (size_t k = 0; k < p->n_ents; k++) {
			struct entry *e = p->ents[k];

			e->next = NULL;
			e->is_default = p->defs[k];
			*l->tail = e;
			l->tail = &e->next;
			l->count++;
		}
		for (size_t k = 0; k < p->n_warns; k++) {
			struct warning *w = p->warns[k];

			w->next = NULL;
			*l->wtail = w;
			l->wtail = &w->next;
			l->n_warnings++;
		}
		if (l->timeout_ds < 0)
			l->timeout_ds = p->timeout_ds;
	}
	entry_finish(l, s->fss, s->n_fss);
}

/* --- the event-driven session */

static int session_begin(struct session *s)
{
	struct scan_opts o = {.hotplug = true};

	if (s->opts_copy)
		o = *s->opts_copy;
	o.settle_s = s->settle_s;
	o.filter_fn = s->hide_copy ? session_filter : NULL;
	o.filter_ctx = s->hide_copy;
	entry_list_init(&s->list, &s->arena);
	s->scan = scan_new(&o);
	return s->scan ? 0 : -errno;
}

int session_start(struct session *s, double settle_s)
{
	const char *hide = s->hide;
	const struct scan_opts *opts = s->scan_opts;

	memset(s, 0, sizeof(*s));
	s->hide = hide;
	s->scan_opts = opts;
	s->settle_s = settle_s;
	entry_list_init(&s->list, &s->arena);
	if (hide && hide[strspn(hide, " \t")]) {
		s->hide_copy = strdup(hide);
		if (!s->hide_copy)
			return -ENOMEM;
	}
	if (opts) {
		s->opts_copy = malloc(sizeof(*s->opts_copy));
		if (!s->opts_copy)
			return -ENOMEM;
		*s->opts_copy = *opts;
	}
	return session_begin(s);
}

int session_fd(const struct session *s)
{
	return s->scan ? scan_fd(s->scan) : -1;
}

int session_update(struct session *s)
{
	struct scan_event ev;
	bool changed = false;
	int mask = 0;

	if (!s->scan)
		return 0;
	while (scan_next(s->scan, &ev) > 0) {
		switch (ev.type) {
		case SCAN_EV_FS_ADDED:
			changed |= part_add(s, ev.fs);
			break;
		case SCAN_EV_FS_REMOVED:
			changed |= part_remove(s, ev.fs);
			break;
		case SCAN_EV_DEVICE:
			mask |= SESSION_CHANGED_DEVICES;
			break;
		case SCAN_EV_SETTLED:
			if (!s->settled)
				mask |= SESSION_SETTLED;
			s->settled = true;
			break;
		}
	}
	changed |= parts_parse(s);
	if (changed) {
		list_rebuild(s);
		mask |= SESSION_CHANGED_ENTRIES;
	}
	return mask;
}

bool session_settled(const struct session *s)
{
	return !s->scan || s->settled;
}

/* Append to @buf[@len] at @used; returns the new length, which may pass
 * @len - 1 when the text was cut (snprintf's count). */
static size_t __attribute__((format(printf, 4, 5)))
status_put(char *buf, size_t len, size_t used, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (used >= len - 1)
		return used;
	va_start(ap, fmt);
	k = vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	return k > 0 ? used + (size_t)k : used;
}

size_t session_status(const struct session *s, char *buf, size_t len)
{
	struct scan_dev devs[SESSION_MAX_FS];
	size_t n, used = 0;

	if (!len)
		return 0;
	buf[0] = '\0';
	if (!s->scan)
		return 0;
	n = scan_devices(s->scan, devs, SESSION_MAX_FS);
	for (size_t i = 0; i < n && i < SESSION_MAX_FS; i++)
		if (devs[i].state == SCAN_DEV_PROBING)
			used =
			    status_put(buf, len, used, "%s%s",
				       used ? ", " : "probing ", devs[i].name);
	n = scan_hosts_waiting(s->scan);
	if (n == 1)
		used = status_put(buf, len, used, "%swaiting for a USB disk",
				  used ? "; " : "");
	else if (n > 1)
		used = status_put(buf, len, used, "%swaiting for %zu USB disks",
				  used ? "; " : "", n);
	return used < len ? used : len - 1;
}

int session_rescan(struct session *s)
{
	scan_free(s->scan);
	s->scan = NULL;
	arena_free(&s->arena);
	memset(s->fss, 0, sizeof(s->fss));
	memset(s->parts, 0, sizeof(s->parts));
	s->n_fss = 0;
	s->gen = 0;
	s->settled = false;
	return session_begin(s);
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int session_scan_devices(struct session *s, double settle_s)
{
	double bound = (settle_s > 0 ? settle_s : SCAN_SETTLE_DEFAULT_S) +
		       SESSION_SETTLE_SLACK_S;
	double end = mono_s() + bound;
	int rc = session_start(s, settle_s);

	if (rc < 0)
		return rc;
	session_update(s);
	while (!s->settled) {
		struct pollfd p = {.fd = session_fd(s), .events = POLLIN};
		double left = end - mono_s();

		if (left <= 0) {
			log_warn("scan: not settled after %g s", bound);
			break;
		}
		poll(&p, 1, (int)(left * 1000) + 1);
		session_update(s);
	}
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
	free(s->hide_copy);
	s->hide_copy = NULL;
	free(s->opts_copy);
	s->opts_copy = NULL;
	s->n_fss = 0;
}

/* --- directories instead of devices */

/* "DIR=LABEL,uuid=U,partuuid=P" into @fs's identities (strings in @a);
 * the directory part is returned. */
static char *root_spec(struct arena *a, const char *spec, struct fs_root *fs)
{
	char *dir = arena_strdup(a, spec), *eq = strchr(dir, '=');
	char *opt;

	if (!eq)
		return dir;
	*eq = '\0';
	fs->name = fs->label = eq + 1;
	opt = strchr(eq + 1, ',');
	while (opt) {
		char *next = strchr(opt + 1, ',');

		*opt++ = '\0';
		if (next)
			*next = '\0';
		if (!strncmp(opt, "uuid=", 5))
			fs->uuid = opt + 5;
		else if (!strncmp(opt, "partuuid=", 9))
			fs->partuuid = opt + 9;
		if (next)
			*next = ',';
		opt = next;
	}
	return dir;
}

int session_open_roots(struct session *s, const char *const *roots, size_t n)
{
	struct entry_list one;

	memset(s, 0, sizeof(*s));
	entry_list_init(&s->list, &s->arena);
	if (n > SESSION_MAX_FS)
		n = SESSION_MAX_FS;
	for (size_t i = 0; i < n; i++) {
		struct fs_root *fs = arena_alloc(&s->arena, sizeof(*fs));
		const char *dir = root_spec(&s->arena, roots[i], fs);
		int rc;

		fs->root_fd = -1;
		rc = fs_root_open_dir(fs, dir);
		if (rc < 0) {
			fprintf(stderr, "bootmenu: --root %s: %s\n", dir,
				strerror(-rc));
			return 1;
		}
		s->fss[s->n_fss++] = fs;
	}
	for (size_t i = 0; i < n; i++) {
		struct cfg_ctx ctx = {
		    .a = &s->arena,
		    .fs = s->fss[i],
		    .out = &one,
		    .all = s->fss,
		    .n_all = n,
		};

		entry_list_init(&one, &s->arena);
		cfg_scan_fs(&ctx);
		entry_list_splice(&s->list, &one);
	}
	entry_finish(&s->list, s->fss, s->n_fss);
	return 0;
}

void session_close_roots(struct session *s)
{
	for (size_t i = 0; i < s->n_fss; i++)
		fs_root_close((struct fs_root *)s->fss[i]);
	session_free(s);
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
