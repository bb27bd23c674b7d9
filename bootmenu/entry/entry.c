/* entry.c - the list of boot entries: building, resolving, dedup. */
#include "entry/entry.h"

#define ENTRY_STR_(x) #x
#define ENTRY_STR(x) ENTRY_STR_(x)
#include "scan/fs.h"
#include "util/arena.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>

const char *entry_format_name(enum entry_format f)
{
	static const char *const names[] = {
	    [FMT_GRUB] = "grub", [FMT_SYSLINUX] = "syslinux",
	    [FMT_BLS] = "bls",	 [FMT_UKI] = "uki",
	    [FMT_LILO] = "lilo", [FMT_BARE] = "bare",
	};

	return (unsigned)f < sizeof(names) / sizeof(names[0]) ? names[f] : "?";
}

void entry_list_init(struct entry_list *l, struct arena *a)
{
	memset(l, 0, sizeof(*l));
	l->a = a;
	l->tail = &l->head;
	l->wtail = &l->warnings;
	l->timeout_ds = -1;
}

struct entry *entry_new(struct entry_list *l, enum entry_format f,
			const struct fs_root *fs)
{
	struct entry *e = arena_alloc(l->a, sizeof(*e));

	e->format = f;
	e->fs = fs;
	e->cmdline = "";
	e->tries_left = -1;
	e->tries_done = -1;
	return e;
}

int entry_add(struct entry_list *l, struct entry *e)
{
	if (l->count >= ENTRY_MAX) {
		if (l->count == ENTRY_MAX)
			entry_warn(l, e->fs, e->source, e->line,
				   "more than %d entries: the rest are dropped",
				   ENTRY_MAX);
		l->count = ENTRY_MAX + 1;
		return -E2BIG;
	}
	e->next = NULL;
	*l->tail = e;
	l->tail = &e->next;
	l->count++;
	return 0;
}

void entry_add_initrd(struct entry_list *l, struct entry *e, const char *dev,
		      const char *path)
{
	struct entry_file *v;

	if (e->n_initrds >= ENTRY_INITRD_MAX) {
		e->initrds_over = true;
		return;
	}
	v = arena_alloc(l->a, (e->n_initrds + 1) * sizeof(*v));
	if (e->n_initrds)
		memcpy(v, e->initrds, e->n_initrds * sizeof(*v));
	v[e->n_initrds].dev = arena_strdup(l->a, dev);
	v[e->n_initrds].path = arena_strdup(l->a, path);
	e->initrds = v;
	e->n_initrds++;
}

void entry_warn(struct entry_list *l, const struct fs_root *fs,
		const char *file, int line, const char *fmt, ...)
{
	struct warning *w = arena_alloc(l->a, sizeof(*w));
	va_list ap;

	va_start(ap, fmt);
	w->msg = arena_vprintf(l->a, fmt, ap);
	va_end(ap);
	w->file = arena_strdup(l->a, file);
	w->line = line;
	w->fs = fs;
	*l->wtail = w;
	l->wtail = &w->next;
	l->n_warnings++;
}

void entry_list_splice(struct entry_list *to, struct entry_list *from)
{
	if (from->head) {
		*to->tail = from->head;
		to->tail = from->tail;
		to->count += from->count > ENTRY_MAX ? ENTRY_MAX : from->count;
	}
	if (from->warnings) {
		*to->wtail = from->warnings;
		to->wtail = from->wtail;
		to->n_warnings += from->n_warnings;
	}
	if (to->timeout_ds < 0)
		to->timeout_ds = from->timeout_ds;
	entry_list_init(from, from->a);
}

bool entry_fs_matches(const char *spec, const struct fs_root *fs)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
	    {"UUID=", offsetof(struct fs_root, uuid)},
	    {"LABEL=", offsetof(struct fs_root, label)},
	    {"PARTUUID=", offsetof(struct fs_root, partuuid)},
	    {"PARTLABEL=", offsetof(struct fs_root, partlabel)},
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t n = strlen(keys[i].key);
		const char *v;

		if (strncasecmp(spec, keys[i].key, n))
			continue;
		v = *(const char *const *)((const char *)fs + keys[i].off);
		/* UUIDs compare without case (lilo and grub write either). */
		return v && !strcasecmp(v, spec + n);
	}
	return (fs->device && !strcmp(spec, fs->device)) ||
	       (fs->name && !strcmp(spec, fs->name));
}

const struct fs_root *
entry_find_fs(const char *spec, const struct fs_root *const *fss, size_t n_fss)
{
	for (size_t i = 0; spec && i < n_fss; i++)
		if (entry_fs_matches(spec, fss[i]))
			return fss[i];
	return NULL;
}

static void resolve_file(struct entry *e, struct entry_file *f,
			 const struct fs_root *const *fss, size_t n_fss)
{
	if (!f->path)
		return;
	f->fs = f->dev ? entry_find_fs(f->dev, fss, n_fss) : e->fs;
}

static bool same_kernel(const struct entry *a, const struct entry *b)
{
	return a->kernel.fs == b->kernel.fs && a->kernel.path &&
	       b->kernel.path && !strcmp(a->kernel.path, b->kernel.path);
}

static bool named_elsewhere(const struct entry_list *l,
			    const struct entry *bare)
{
	for (const struct entry *e = l->head; e; e = e->next)
		if (e->format != FMT_BARE && same_kernel(e, bare))
			return true;
	return false;
}

void entry_finish(struct entry_list *l, const struct fs_root *const *fss,
		  size_t n_fss)
{
	struct entry **pp = &l->head, *e;
	const struct fs_root *def_fs = NULL; /* a filesystem's entries are
						contiguous */
	bool have_default = false;

	for (e = l->head; e; e = e->next) {
		resolve_file(e, &e->kernel, fss, n_fss);
		for (size_t i = 0; i < e->n_initrds; i++)
			resolve_file(e, &e->initrds[i], fss, n_fss);
	}
	l->tail = &l->head;
	l->count = 0;
	while ((e = *pp)) {
		if (e->format == FMT_BARE && named_elsewhere(l, e)) {
			*pp = e->next;
			continue;
		}
		/* a literal: entry_finish() runs at every list rebuild and
		 * must not allocate */
		if (e->initrds_over && !e->disabled)
			e->disabled = "names more than " ENTRY_STR(
			    ENTRY_INITRD_MAX) " initrds, the most one boot "
					      "loads";
		if (e->fs != def_fs)
			have_default = false;
		def_fs = e->fs;
		if (e->is_default && have_default)
			e->is_default = false;
		have_default |= e->is_default;
		l->count++;
		l->tail = &e->next;
		pp = &e->next;
	}
}
