/* entry.c - the list of boot entries: building, resolving, dedup. */
#include "entry/entry.h"

#define ENTRY_STR_(x) #x
#define ENTRY_STR(x) ENTRY_STR_(x)
#include "util/arena.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>

const char *entry_format_name(enum entry_format f)
{
	static const char *const names[] = {
	    [FMT_GRUB] = "grub", [FMT_SYSLINUX] = "syslinux",
	    [FMT_BLS] = "bls",	 [FMT_UKI] = "uki",
	    [FMT_LILO] = "lilo", [FMT_BARE] = "bare",
	    [FMT_EFI] = "efi",	 [FMT_IPXE] = "ipxe",
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

/* Room after a message for " (4294967295 times)". */
#define ENTRY_WARN_SUFFIX 24
#define ENTRY_WARN_RECENT                                                      \
	(sizeof(((struct entry_list *)0)->recent) / sizeof(struct warning *))

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* One of the last few warnings with this file, filesystem and message. */
static struct warning *entry_warn_repeat(struct entry_list *l,
					 const struct fs_root *fs,
					 const char *file, const char *msg,
					 size_t n)
{
	for (size_t i = 0; i < ENTRY_WARN_RECENT && i < l->n_recent; i++) {
		struct warning *w = l->recent[i];

		if (w->fs == fs && w->msg_len == n && !memcmp(w->msg, msg, n) &&
		    same_str(w->file, file))
			return w;
	}
	return NULL;
}

/* The message formatted into @buf when it fits, else into the arena. */
static const char *entry_warn_format(struct entry_list *l, char *buf,
				     size_t size, size_t *n, const char *fmt,
				     va_list ap)
{
	va_list ap2;
	int r;

	va_copy(ap2, ap);
	r = vsnprintf(buf, size, fmt, ap2);
	va_end(ap2);
	if (r < 0) {
		*buf = '\0';
		r = 0;
	}
	*n = (size_t)r;
	return (size_t)r < size ? buf : arena_vprintf(l->a, fmt, ap);
}

static void entry_warn_add(struct entry_list *l, const struct fs_root *fs,
			   const char *file, int line, const char *msg,
			   size_t n)
{
	struct warning *w = arena_alloc(l->a, sizeof(*w));
	char *m = arena_alloc(l->a, n + ENTRY_WARN_SUFFIX);

	memcpy(m, msg, n + 1);
	w->msg = m;
	w->msg_len = n;
	w->count = 1;
	w->file = arena_strdup(l->a, file);
	w->line = line;
	w->fs = fs;
	*l->wtail = w;
	l->wtail = &w->next;
	l->n_warnings++;
	l->recent[l->n_recent++ % ENTRY_WARN_RECENT] = w;
	if (l->n_recent >= 2 * ENTRY_WARN_RECENT)
		l->n_recent -= ENTRY_WARN_RECENT;
}

void entry_warn(struct entry_list *l, const struct fs_root *fs,
		const char *file, int line, const char *fmt, ...)
{
	char buf[512];
	const char *msg;
	struct warning *w;
	size_t n;
	va_list ap;

	va_start(ap, fmt);
	msg = entry_warn_format(l, buf, sizeof(buf), &n, fmt, ap);
	va_end(ap);
	w = entry_warn_repeat(l, fs, file, msg, n);
	if (!w) {
		entry_warn_add(l, fs, file, line, msg, n);
		return;
	}
	/* printed once, with the count; the first one's line is kept */
	if (w->count < UINT_MAX)
		w->count++;
	snprintf((char *)w->msg + n, ENTRY_WARN_SUFFIX, " (%u times)",
		 w->count);
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

static bool same_kernel(const struct entry *a, const struct entry *b)
{
	return a->kernel.fs == b->kernel.fs && a->kernel.path &&
	       b->kernel.path && !strcmp(a->kernel.path, b->kernel.path);
}

/* Is @bare's kernel one of @e's modules (Xen's dom0 kernel)? */
static bool module_of(const struct entry *e, const struct entry *bare)
{
	for (size_t i = 0; i < e->n_modules; i++)
		if (e->modules[i].fs == bare->kernel.fs && e->modules[i].path &&
		    bare->kernel.path &&
		    !strcmp(e->modules[i].path, bare->kernel.path))
			return true;
	return false;
}

static bool named_elsewhere(const struct entry_list *l,
			    const struct entry *bare)
{
	for (const struct entry *e = l->head; e; e = e->next)
		if (e->format != FMT_BARE &&
		    (same_kernel(e, bare) || module_of(e, bare)))
			return true;
	return false;
}

/* Is @opt (a firmware boot option) a file an ESP's own entry boots
 * already? FAT ignores case. */
static bool fw_file_listed(const struct entry_list *l, const struct entry *opt)
{
	for (const struct entry *e = l->head; e; e = e->next)
		if (e->method == ENTRY_FIRMWARE && !e->fw_option &&
		    e->kernel.fs == opt->kernel.fs && e->kernel.path &&
		    !strcasecmp(e->kernel.path, opt->kernel.path))
			return true;
	return false;
}

/* Did grub's blscfg read @bls's file already? Its entries keep the BLS
 * file's filesystem and path; the grub.cfg that ran blscfg may sit on
 * another filesystem (RHEL 8 and Fedora on UEFI: grub.cfg and grubenv on
 * the ESP, the entries on /boot), and GRUB lists each file once, through
 * blscfg. */
static bool read_by_blscfg(const struct entry_list *l, const struct entry *bls)
{
	for (const struct entry *e = l->head; e; e = e->next)
		if (e->format == FMT_GRUB && e->fs == bls->fs && e->source &&
		    bls->source && !strcmp(e->source, bls->source))
			return true;
	return false;
}

/* An entry that another one stands for: a bare kernel a config names, a
 * BLS file grub's blscfg listed, a firmware option for a file an ESP's
 * entry boots. */
static bool entry_repeats(const struct entry_list *l, const struct entry *e)
{
	if (e->format == FMT_BARE)
		return named_elsewhere(l, e);
	if (e->format == FMT_BLS)
		return read_by_blscfg(l, e);
	return e->fw_option && e->kernel.fs && e->kernel.path &&
	       fw_file_listed(l, e);
}

/* bootmenu itself as a kernel: bootmenu-install --bios puts it at
 * <boot>/bootmenu/bootmenu.efi, with an extlinux.conf beside it that
 * syslinux reads; a config (that one, or a user's chaining it) booting
 * that file would only start this menu again. */
static bool entry_is_self(const struct entry *e)
{
	size_t n = e->kernel.path ? strlen(e->kernel.path) : 0;
	size_t k = sizeof(ENTRY_SELF_SUFFIX) - 1;

	return e->method == ENTRY_KEXEC && n >= k &&
	       !strcasecmp(e->kernel.path + n - k, ENTRY_SELF_SUFFIX);
}

void entry_finish(struct entry_list *l)
{
	struct entry **pp = &l->head, *e;
	const struct fs_root *def_fs = NULL; /* a filesystem's entries are
						contiguous */
	bool have_default = false;

	l->tail = &l->head;
	l->count = 0;
	while ((e = *pp)) {
		if (entry_repeats(l, e) || entry_is_self(e)) {
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
