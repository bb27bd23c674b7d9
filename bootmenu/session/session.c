/* session.c - scan, parse, list: the pipeline over real devices.
 *
 * One struct session_part per filesystem keeps what parsing it produced,
 * in an arena of its own, with the is_default flags as parsed
 * (entry_finish() clears all but the first of each filesystem). After
 * every change s->list is linked again from the parts, in device order,
 * and cfg_finish() resolves it over the filesystems present now: an
 * entry whose kernel is on a filesystem that arrives later resolves then,
 * one whose filesystem left no longer does.
 *
 * A parse records which other filesystems it looked up (cfg.h: grub
 * `search`, (hdN,M) and device paths, the bare scan's fstab). When a
 * filesystem arrives, only the parts whose lookups found nothing (or
 * depend on the whole set) are parsed again; when one leaves, only those
 * that reached it. Before start-up settles only new parts are parsed, so
 * the first entries show at once. A part parsed again, or gone, hands
 * its arena to a retired list that session_release() frees, so
 * memory follows what is present: plugging and pulling a stick any
 * number of times leaves the session's bytes where they were. A
 * filesystem that went is handed back to its source there too, once no
 * arena that could point at it is left (the scan then frees its fs_root).
 *
 * A source of entries (the firmware's boot options) adds its entries to
 * the parse of the filesystem they go with, in that part's arena, and
 * says on what they depend, as a parser does.
 */
#include "session/session.h"
#include "session/listing.h"
#include "session/locked.h"
#include "cfg/cfg.h"
#include "cfg/resolve.h"
#include "scan/fs.h"
#include "scan/scan.h"
#include "session/keys.h"
#include "source/source.h"
#include "boot/boot.h"
#include "boot/measure.h"
#include "boot/secure.h"
#include "util/json.h"
#include "util/log.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <poll.h>
#include <sys/epoll.h>
#include <unistd.h>
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
	size_t src;	    /* s->srcs[src] announced it */
	struct arena a;	    /* everything its last parse made */
	bool parsed, stale; /* stale: a filesystem it depends on changed */
	struct entry **ents;
	bool *defs; /* is_default as the parser set it */
	size_t n_ents;
	struct warning **warns;
	size_t n_warns;
	int timeout_ds;
	/* what the parse looked up among the others (cfg.h) */
	const struct fs_root *reached[CFG_REACHED_MAX];
	size_t n_reached;
	bool missed, all_deps;
};

/* An arena whose entries may still be pointed at until the next update. */
struct session_retired {
	struct arena a;
	struct session_retired *next;
};

/* A filesystem whose FS_REMOVED the session took, to hand back to the
 * source that announced it (@src) when nothing points at it any more. */
struct session_gone {
	const struct fs_root *fs;
	size_t src;
	struct session_gone *next;
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

bool session_spec_match(const char *pats, const char *name, const char *uuid,
			const char *label)
{
	char spec[SESSION_PATTERN_MAX];

	if (hide_match(pats, name, 0))
		return true;
	if (label && *label) {
		snprintf(spec, sizeof(spec), "LABEL=%s", label);
		if (hide_match(pats, spec, 0))
			return true;
	}
	if (uuid && *uuid) { /* blkid prints them lower case; users may not */
		snprintf(spec, sizeof(spec), "UUID=%s", uuid);
		if (hide_match(pats, spec, FNM_CASEFOLD))
			return true;
	}
	return false;
}

/* The scan's filter_fn: @ctx is the session's copy of the patterns. */
static const char *session_filter(void *ctx, const char *name, const char *uuid,
				  const char *label)
{
	return session_spec_match(ctx, name, uuid, label) ? SESSION_HIDDEN
							  : NULL;
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

/* Keep @a alive until the next session_update(): rows drawn from the
 * list may still point into it until the caller rebuilds them. */
static void retire(struct session *s, struct arena *a)
{
	struct session_retired *r;

	if (!a->head)
		return;
	r = calloc(1, sizeof(*r));
	if (!r)
		abort(); /* as arena.h: a boot menu without memory cannot go on
			  */
	r->a = *a;
	*a = (struct arena)ARENA_INIT;
	r->next = s->retired;
	s->retired = r;
}

static void retired_free(struct session *s)
{
	while (s->retired) {
		struct session_retired *r = s->retired;

		s->retired = r->next;
		arena_free(&r->a);
		free(r);
	}
}

static void gone_add(struct session *s, const struct fs_root *fs, size_t src)
{
	struct session_gone *g = calloc(1, sizeof(*g));

	if (!g)
		abort(); /* as retire() */
	g->fs = fs;
	g->src = src;
	g->next = s->gone;
	s->gone = g;
}

/* After retired_free(): every arena of a part that was parsed again or
 * went is freed, and cfg_finish() pointed the live entries' files at the
 * filesystems present. Only a part that reached one that went and is not
 * parsed again yet (stale, before start-up settles) may point at it:
 * while there is one, the filesystems wait. */
static void gone_hand_back(struct session *s)
{
	for (size_t i = 0; i < s->n_fss; i++)
		if (s->parts[i]->stale)
			return;
	while (s->gone) {
		struct session_gone *g = s->gone;
		struct source *src = s->srcs[g->src];

		s->gone = g->next;
		if (src->ops->release)
			src->ops->release(src, g->fs);
		free(g);
	}
}

/* The sources are freed: what they announced went with them. */
static void gone_drop(struct session *s)
{
	while (s->gone) {
		struct session_gone *g = s->gone;

		s->gone = g->next;
		free(g);
	}
}

static void part_free(struct session *s, struct session_part *p)
{
	retire(s, &p->a);
	free(p);
}

/* Sources in the order they were added; within a sorted source (block
 * devices) device-name order, else (--root) the order they came. */
static size_t part_slot(const struct session *s, const struct session_part *p)
{
	size_t i = s->n_fss;
	bool sorted = s->srcs[p->src]->ops->sorted;

	while (i > 0 && (s->parts[i - 1]->src > p->src ||
			 (s->parts[i - 1]->src == p->src && sorted &&
			  name_cmp(s->fss[i - 1]->name, p->fs->name) > 0)))
		i--;
	return i;
}

/* Did @p's parse depend on @fs, or could it have named it? */
static bool part_depends(const struct session_part *p, const struct fs_root *fs,
			 bool arrived)
{
	if (p->all_deps)
		return true;
	if (arrived)
		return p->missed;
	for (size_t i = 0; i < p->n_reached; i++)
		if (p->reached[i] == fs)
			return true;
	return false;
}

static void parts_mark_stale(struct session *s, const struct fs_root *fs,
			     bool arrived)
{
	for (size_t i = 0; i < s->n_fss; i++)
		if (s->parts[i]->fs != fs &&
		    part_depends(s->parts[i], fs, arrived))
			s->parts[i]->stale = true;
}

static bool part_add(struct session *s, const struct fs_root *fs, size_t src)
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
	p = calloc(1, sizeof(*p));
	if (!p)
		abort();
	p->fs = fs;
	p->src = src;
	i = part_slot(s, p);
	memmove(&s->fss[i + 1], &s->fss[i], (s->n_fss - i) * sizeof(s->fss[0]));
	memmove(&s->parts[i + 1], &s->parts[i],
		(s->n_fss - i) * sizeof(s->parts[0]));
	s->fss[i] = fs;
	s->parts[i] = p;
	s->n_fss++;
	parts_mark_stale(s, fs, true);
	return true;
}

/* @fs reads differently now (SOURCE_FS_CHANGED): its own part and
 * those that reached it are stale. Nothing when it is no part (an event
 * for a root already removed, or never announced). */
static void part_changed(struct session *s, const struct fs_root *fs)
{
	size_t i = part_find(s, fs);

	if (i == s->n_fss)
		return;
	s->parts[i]->stale = true;
	parts_mark_stale(s, fs, false);
}

static bool part_remove(struct session *s, const struct fs_root *fs)
{
	size_t i = part_find(s, fs);

	if (i == s->n_fss)
		return false;
	part_free(s, s->parts[i]);
	s->n_fss--;
	memmove(&s->fss[i], &s->fss[i + 1], (s->n_fss - i) * sizeof(s->fss[0]));
	memmove(&s->parts[i], &s->parts[i + 1],
		(s->n_fss - i) * sizeof(s->parts[0]));
	parts_mark_stale(s, fs, false);
	return true;
}

/* What one parse of @p made, as arrays in @p's arena. */
static void part_keep(struct session_part *p, const struct entry_list *one,
		      const struct cfg_ctx *ctx)
{
	size_t k = 0;

	p->ents = arena_alloc(&p->a, (one->count + 1) * sizeof(*p->ents));
	p->defs = arena_alloc(&p->a, one->count + 1);
	for (struct entry *e = one->head; e && k < one->count; e = e->next) {
		p->ents[k] = e;
		p->defs[k++] = e->is_default;
	}
	p->n_ents = k;
	k = 0;
	p->warns =
	    arena_alloc(&p->a, (one->n_warnings + 1) * sizeof(*p->warns));
	for (struct warning *w = one->warnings; w && k < one->n_warnings;
	     w = w->next)
		p->warns[k++] = w;
	p->n_warns = k;
	p->timeout_ds = one->timeout_ds;
	memcpy(p->reached, ctx->reached, sizeof(p->reached));
	p->n_reached = ctx->n_reached;
	p->missed = ctx->missed;
	p->all_deps = ctx->all_deps;
}

/* Under lockdown only kexec_file_load loads a kernel, and it has no
 * multiboot loader: Xen's entries are listed, disabled, never tried with
 * kexec_load (which lockdown refuses anyway). Read once per session. */
static const char *session_mb_off(void)
{
	struct secure_state st;

	secure_state_read(&st, NULL);
	return st.locked ? "Xen and other multiboot kernels cannot boot under "
			   "Secure Boot: the kernel's lockdown allows only "
			   "kexec_file_load, which has no multiboot loader"
			 : NULL;
}

/* Disable @l's multiboot entries with s->mb_off, when set. */
static void part_mb_off(const struct session *s, struct entry_list *l)
{
	for (struct entry *e = l->head; e && s->mb_off; e = e->next)
		if (e->multiboot && !e->disabled)
			e->disabled = s->mb_off;
}

/* Parse @p's filesystem over every present one, into a new arena. */
static void part_parse(struct session *s, struct session_part *p)
{
	struct entry_list one;
	struct cfg_ctx ctx = {
	    .fs = p->fs,
	    .out = &one,
	    .all = s->fss,
	    .n_all = s->n_fss,
	    .fw_off = s->fw_off,
	};
	struct source_entries x = {
	    .fs = p->fs, .all = s->fss, .n_all = s->n_fss, .out = &one};

	retire(s, &p->a);
	ctx.a = &p->a;
	entry_list_init(&one, &p->a);
	cfg_scan_fs(&ctx);
	if (s->fw) {
		s->fw->ops->entries(s->fw, &x);
		ctx.all_deps |= x.all_deps;
	}
	part_mb_off(s, &one);
	part_keep(p, &one, &ctx);
	p->parsed = true;
	p->stale = false;
	s->parses++;
}

/* Parse what is new (and, once settled, what is stale). True if any. */
static bool parts_parse(struct session *s)
{
	bool any = false;

	for (size_t i = 0; i < s->n_fss; i++) {
		struct session_part *p = s->parts[i];

		if (p->parsed && (!s->settled || !p->stale))
			continue;
		part_parse(s, p);
		any = true;
	}
	return any;
}

/* s->list again from the parts, then resolved over s->fss. Allocates
 * nothing: the list links the parts' entries. */
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
		s->timeouts_ds[i] = p->timeout_ds;
	}
	/* which filesystem's timeout counts is the policy's (choose.h) */
	l->fs_timeout_ds = s->timeouts_ds;
	l->n_fs_timeout_ds = s->n_fss;
	cfg_finish(l, s->fss, s->n_fss);
	/* the locked volumes' lines last (session.h) */
	session_locked_link(s, l);
}

/* Every part and retired arena freed; no filesystem left. */
static void parts_free(struct session *s)
{
	for (size_t i = 0; i < s->n_fss; i++)
		part_free(s, s->parts[i]);
	s->n_fss = 0;
	retired_free(s);
	arena_free(&s->locked_a);
	s->locked = NULL;
	s->n_locked = 0;
	entry_list_init(&s->list, &s->arena);
}

void session_release(struct session *s)
{
	retired_free(s);
	gone_hand_back(s);
}

size_t session_arena_bytes(const struct session *s)
{
	size_t n = s->arena.used + s->locked_a.used;

	for (size_t i = 0; i < s->n_fss; i++)
		n += s->parts[i]->a.used;
	for (const struct session_retired *r = s->retired; r; r = r->next)
		n += r->a.used;
	return n;
}

/* --- the event-driven session */

/* The epoll set over the sources' fds, made with the second source. */
static int sources_watch(struct session *s, const struct source *src)
{
	struct epoll_event ev = {.events = EPOLLIN};
	int fd = src->ops->fd(src);

	if (fd < 0)
		return 0;
	if (!s->epoll_on) {
		s->epfd = epoll_create1(EPOLL_CLOEXEC);
		if (s->epfd < 0)
			return -errno;
		s->epoll_on = true;
		for (size_t i = 0; i < s->n_srcs; i++)
			if (s->srcs[i] != src &&
			    sources_watch(s, s->srcs[i]) < 0)
				return -errno;
	}
	return epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev) < 0 ? -errno : 0;
}

int session_add_source(struct session *s, struct source *src)
{
	if (s->n_srcs == SESSION_SOURCES_MAX) {
		src->ops->free(src);
		return -ENOSPC;
	}
	s->srcs[s->n_srcs++] = src;
	s->settled = false;
	if (s->n_srcs > 1)
		return sources_watch(s, src);
	return 0;
}

static int session_make(struct session *s, const struct session_maker *m)
{
	struct source *src = m->make(m->ctx);

	return src ? session_add_source(s, src) : -errno;
}

int session_add_made(struct session *s, struct source *(*make)(void *ctx),
		     void *ctx)
{
	if (s->n_makers == SESSION_SOURCES_MAX)
		return -ENOSPC;
	s->makers[s->n_makers] = (struct session_maker){make, ctx};
	return session_make(s, &s->makers[s->n_makers++]);
}

static void sources_free(struct session *s)
{
	for (size_t i = 0; i < s->n_srcs; i++)
		s->srcs[i]->ops->free(s->srcs[i]);
	gone_drop(s);
	memset(s->srcs, 0, sizeof(s->srcs));
	memset(s->src_settled, 0, sizeof(s->src_settled));
	s->n_srcs = 0;
	s->scan = NULL;
	if (s->epoll_on)
		close(s->epfd);
	s->epoll_on = false;
}

static int session_begin(struct session *s)
{
	struct scan_opts o = {.hotplug = true};
	struct source *src;

	if (s->opts_copy)
		o = *s->opts_copy;
	o.settle_s = s->settle_s;
	o.filter_fn = s->hide_copy ? session_filter : NULL;
	o.filter_ctx = s->hide_copy;
	entry_list_init(&s->list, &s->arena);
	src = source_disks_new(&o, &s->scan);
	return src ? session_add_source(s, src) : -errno;
}

int session_start(struct session *s, double settle_s)
{
	const char *hide = s->hide, *pass_key = s->pass_key;
	const struct scan_opts *opts = s->scan_opts;

	memset(s, 0, sizeof(*s));
	s->hide = hide;
	s->pass_key = pass_key;
	s->scan_opts = opts;
	s->settle_s = settle_s;
	entry_list_init(&s->list, &s->arena);
	/* read once: a rescan keeps them */
	s->mb_off = session_mb_off();
	s->fw = source_firmware_new(NULL, &s->fw_off);
	if (!s->fw)
		return -errno;
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
	if (s->epoll_on)
		return s->epfd;
	return s->n_srcs ? s->srcs[0]->ops->fd(s->srcs[0]) : -1;
}

/* One source's event; returns the SESSION_* bits and sets *changed. */
static int take_event(struct session *s, size_t i,
		      const struct source_event *ev, bool *changed)
{
	switch (ev->type) {
	case SOURCE_FS_ADDED:
		*changed |= part_add(s, ev->fs, i);
		return 0;
	case SOURCE_FS_REMOVED:
		*changed |= part_remove(s, ev->fs);
		gone_add(s, ev->fs, i);
		return 0;
	case SOURCE_DEVICE:
		return SESSION_CHANGED_DEVICES;
	case SOURCE_SETTLED:
		s->src_settled[i] = true;
		return 0;
	case SOURCE_FS_CHANGED:
		/* no change yet: parts_parse() says if the parse made one */
		part_changed(s, ev->fs);
		return 0;
	}
	return 0;
}

/* The scan's devices, read once per update: after a device change the
 * keys kept for volumes no longer among them go (a volume gone takes its
 * key), and the ENTRY_UNLOCK entries are made again when the locked
 * devices are not those they stand for (found locked, unlocked or gone). */
static bool locked_refresh(struct session *s, bool devices_changed)
{
	struct scan_dev devs[SESSION_MAX_FS];
	size_t n;

	if (!s->scan)
		return false;
	n = scan_devices(s->scan, devs, SESSION_MAX_FS);
	if (n > SESSION_MAX_FS)
		n = SESSION_MAX_FS;
	if (devices_changed && s->keys)
		session_keys_prune_to(s, devs, n);
	if (session_locked_same(s, devs, n))
		return false;
	retire(s, &s->locked_a);
	session_locked_make(s, devs, n);
	return true;
}

static bool sources_settled(const struct session *s)
{
	for (size_t i = 0; i < s->n_srcs; i++)
		if (!s->src_settled[i])
			return false;
	return true;
}

int session_update(struct session *s)
{
	struct source_event ev;
	bool changed = false;
	int mask = 0;

	for (size_t i = 0; i < s->n_srcs; i++)
		while (s->srcs[i]->ops->next(s->srcs[i], &ev) > 0)
			mask |= take_event(s, i, &ev, &changed);
	if (!s->settled && s->n_srcs && sources_settled(s)) {
		s->settled = true;
		mask |= SESSION_SETTLED;
	}
	changed |= parts_parse(s);
	changed |= locked_refresh(s, mask & SESSION_CHANGED_DEVICES);
	if (changed) {
		list_rebuild(s);
		mask |= SESSION_CHANGED_ENTRIES;
	}
	return mask;
}

bool session_settled(const struct session *s)
{
	return !s->n_srcs || s->settled;
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

/* The status of the sources called @name (NULL: every one) after
 * buf[0..used), "; " between; returns the new length (status_put()'s). */
static size_t sources_status(const struct session *s, const char *name,
			     char *buf, size_t len, size_t used)
{
	for (size_t i = 0; i < s->n_srcs; i++) {
		const struct source_ops *ops = s->srcs[i]->ops;
		char one[256];

		if (ops->status && (!name || !strcmp(ops->name, name)) &&
		    ops->status(s->srcs[i], one, sizeof(one)))
			used = status_put(buf, len, used, "%s%s",
					  used ? "; " : "", one);
	}
	return used;
}

size_t session_status(const struct session *s, char *buf, size_t len)
{
	struct scan_dev devs[SESSION_MAX_FS];
	size_t n, used = 0;

	if (!len)
		return 0;
	buf[0] = '\0';
	n = s->scan ? scan_devices(s->scan, devs, SESSION_MAX_FS) : 0;
	for (size_t i = 0; i < n && i < SESSION_MAX_FS; i++)
		if (devs[i].state == SCAN_DEV_PROBING)
			used =
			    status_put(buf, len, used, "%s%s",
				       used ? ", " : "probing ", devs[i].name);
	n = s->scan ? scan_hosts_waiting(s->scan) : 0;
	if (n == 1)
		used = status_put(buf, len, used, "%swaiting for a USB disk",
				  used ? "; " : "");
	else if (n > 1)
		used = status_put(buf, len, used, "%swaiting for %zu USB disks",
				  used ? "; " : "", n);
	if (!n && s->scan && scan_owed_waiting(s->scan))
		used = status_put(buf, len, used,
				  "%swaiting for USB devices being set up",
				  used ? "; " : "");
	used = sources_status(s, NULL, buf, len, used);
	return used < len ? used : len - 1;
}

size_t session_source_status(const struct session *s, const char *name,
			     char *buf, size_t len)
{
	size_t used;

	if (!len)
		return 0;
	buf[0] = '\0';
	used = sources_status(s, name, buf, len, 0);
	return used < len ? used : len - 1;
}

int session_rescan(struct session *s)
{
	int rc;

	sources_free(s);
	session_keys_free(s); /* every mapping went with the scan */
	parts_free(s);
	arena_free(&s->arena);
	memset(s->fss, 0, sizeof(s->fss));
	memset(s->parts, 0, sizeof(s->parts));
	s->settled = false;
	rc = session_begin(s);
	/* every maker again, even after one failed: the rest still count */
	for (size_t i = 0; i < s->n_makers; i++) {
		int r = session_make(s, &s->makers[i]);

		rc = rc < 0 ? rc : r;
	}
	return rc;
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
		session_release(s);
	}
	return 0;
}

void session_wait_settled(struct session *s, double settle_s)
{
	double end = mono_s() + settle_s + SESSION_SETTLE_SLACK_S;

	while (!session_settled(s) && mono_s() < end) {
		struct pollfd p = {.fd = session_fd(s), .events = POLLIN};

		if (p.fd < 0)
			break;
		if (poll(&p, 1, 200) > 0)
			session_update(s);
		session_release(s);
	}
}

void session_print_devices(struct session *s, FILE *f)
{
	struct scan_dev devs[SESSION_MAX_FS];
	size_t n = scan_devices(s->scan, devs, SESSION_MAX_FS);

	if (n > SESSION_MAX_FS)
		n = SESSION_MAX_FS;
	for (size_t i = 0; i < n; i++)
		session_device_line(f, devs, n, i);
}

/* ,"tpm":{...} for an entry a TPM would measure (boot/measure.h). */
static void print_measure(const struct entry *e, FILE *f, void *ctx)
{
	const struct boot_opts *bo = ctx;
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return;
	rc = boot_measure_show(e, bo, m, true, err, sizeof(err));
	fclose(m);
	if (rc == 0) {
		fputs(",\"tpm\":", f);
		fwrite(buf, 1, len, f);
	} else if (rc != -ENODEV && rc != -EOPNOTSUPP) {
		fputs(",\"tpm\":{\"error\":", f);
		json_str(f, err);
		fputc('}', f);
	}
	free(buf);
}

int session_print_list(FILE *f, struct session *s, bool json,
		       const struct entry *def, const struct boot_opts *bo)
{
	if (json) {
		struct secure_state st;
		struct listing_extra x = {.signer = secure_signer};

		if (bo && bo->tpm != BOOT_MEASURE_OFF &&
		    boot_measure_available(bo->tpm_path)) {
			x.measure = print_measure;
			x.measure_ctx = (void *)bo;
		}
		secure_state_read(&st, NULL);
		x.secure_boot = secure_boot_name(st.sb);
		x.lockdown = st.lockdown;
		listing_json(f, &s->list, def, &x);
		return 0;
	}
	listing_text(f, &s->list, def);
	if (s->scan)
		session_print_devices(s, f);
	return 0;
}

void session_unmount(struct session *s)
{
	for (size_t i = 0; i < s->n_srcs; i++)
		s->srcs[i]->ops->stop(s->srcs[i]);
}

void session_free(struct session *s)
{
	sources_free(s);
	session_keys_free(s);
	parts_free(s);
	arena_free(&s->arena);
	free(s->hide_copy);
	s->hide_copy = NULL;
	free(s->opts_copy);
	s->opts_copy = NULL;
	s->n_fss = 0;
	if (s->fw)
		s->fw->ops->free(s->fw);
	s->fw = NULL;
	s->fw_off = NULL;
	s->n_makers = 0;
}

/* --- directories instead of devices */

int session_open_roots(struct session *s, const char *const *roots, size_t n)
{
	struct source *src;

	memset(s, 0, sizeof(*s));
	entry_list_init(&s->list, &s->arena);
	s->mb_off = session_mb_off();
	src = source_dirs_new(roots, n < SESSION_MAX_FS ? n : SESSION_MAX_FS);
	if (!src)
		return 1;
	session_add_source(s, src);
	/* every root is announced at once, so each parse sees them all */
	session_update(s);
	return 0;
}

void session_close_roots(struct session *s)
{
	session_free(s);
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
