/* bls.c - Boot Loader Specification Type 1 entries, and the BLS menu of
 * a filesystem (Type 1 and Type 2 sorted together, loader.conf applied).
 *
 * Facts from the specification (uapi-group.org, boot_loader_specification)
 * and systemd's bootspec.c / sd-boot: an entry file is "key value" lines,
 * '#' starts a comment line; `initrd` and `options` may repeat (options
 * are joined with a space); `architecture` names the EFI architecture
 * (x64, aa64, ...); an entry's id is its file name with the boot counter
 * removed, ".conf" kept; paths are absolute on the partition that holds
 * the entry.
 */
#include "cfg/bls.h"
#include "cfg/cfg_text.h"
#include "cfg/loader_conf.h"
#include "cfg/uki.h"
#include "cfg/verscmp.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Entries in /boot/loader/entries on a root filesystem name their files
 * from the boot partition's root, which is /boot here when /boot is not
 * a partition of its own. */
static const char *bls_path(struct cfg_ctx *ctx, const char *dir, const char *p)
{
	char *abs = cfg_text_path(ctx->a, "/", p), *boot;

	if (strncmp(dir, "/boot/", 6) || !strncmp(abs, "/boot/", 6) ||
	    fs_is_file(ctx->fs, abs))
		return abs;
	boot = arena_printf(ctx->a, "/boot%s", abs);
	return fs_is_file(ctx->fs, boot) ? boot : abs;
}

/* A file @path names that the entry's own view lacks, on btrfs: the
 * specification names files from the partition's root, which GRUB and
 * the kernel take to be the default subvolume, so Fedora's entries in
 * root/boot/loader/entries say /root/boot/vmlinuz-... when the top level
 * is the default. Returns the top level's view when the file is there
 * from the default subvolume (*path then from the top), else NULL (the
 * entry's view, @path unchanged). */
static const struct fs_root *bls_btrfs(struct cfg_ctx *ctx, const char **path)
{
	const struct fs_btrfs *b = ctx->fs->btrfs;
	const char *full;

	if (!b || !b->top || ctx->fs == b->top || fs_is_file(ctx->fs, *path))
		return NULL;
	full = *b->default_path
		   ? arena_printf(ctx->a, "/%s%s", b->default_path, *path)
		   : *path;
	if (!fs_is_file(b->top, full))
		return NULL;
	*path = full;
	return b->top;
}

/* One `options` line; they are joined once, at the end (joining at each
 * line made a file of many short lines cost its size squared). */
struct bls_opt {
	struct bls_opt *next;
	const char *v;
	size_t n;
};

struct bls_keys {
	const char *title, *version, *machine_id, *sort_key, *linux_, *efi;
	const char *devicetree, *arch;
	struct bls_opt *opts, **opts_tail;
	size_t opts_len; /* the joined length, separators included */
	int line_linux;
};

/* The `options` lines with one space between them ("" when none). */
static const char *bls_options(struct arena *a, const struct bls_keys *k)
{
	char *out = arena_alloc(a, k->opts_len + 1), *p = out;

	for (const struct bls_opt *o = k->opts; o; o = o->next) {
		if (p != out)
			*p++ = ' ';
		memcpy(p, o->v, o->n);
		p += o->n;
	}
	*p = '\0';
	return out;
}

static void bls_add_initrd(struct cfg_ctx *ctx, struct entry *e,
			   const char *path)
{
	const struct fs_root *fs = bls_btrfs(ctx, &path);
	size_t n = e->n_initrds;

	entry_add_initrd(ctx->out, e, NULL, path);
	if (fs && e->n_initrds > n)
		e->initrds[n].fs = fs;
}

/* grub's blscfg splits `initrd` at blanks ($tuned_initrd adds one); the
 * specification and systemd-boot take one path per line. */
static void bls_initrd(struct cfg_ctx *ctx, struct entry *e, const char *dir,
		       const char *v, bls_expand_fn expand, void *data)
{
	if (!expand) {
		bls_add_initrd(ctx, e, bls_path(ctx, dir, v));
		return;
	}
	v = expand(data, v);
	while (*v) {
		size_t n;

		v += strspn(v, " \t");
		n = strcspn(v, " \t");
		if (n)
			bls_add_initrd(
			    ctx, e,
			    bls_path(ctx, dir, arena_strndup(ctx->a, v, n)));
		v += n;
	}
}

/* One more `options` line (an empty one adds nothing). */
static void bls_option(struct arena *a, struct bls_keys *k, const char *v)
{
	struct bls_opt *o;

	if (!*v)
		return;
	o = arena_alloc(a, sizeof(*o));
	o->v = v;
	o->n = strlen(v);
	if (!k->opts_tail)
		k->opts_tail = &k->opts;
	k->opts_len += o->n + (k->opts != NULL);
	*k->opts_tail = o;
	k->opts_tail = &o->next;
}

/* Keys known and not used (systemd-boot and grub's blscfg pass over keys
 * they do not use without a word): devicetree-overlay (the
 * specification); id, grub_users, grub_arg, grub_class, which Fedora and
 * RHEL write for grub's blscfg (kernel-install's 20-grub.install, grubby);
 * aboot, abootcfg, which ostree writes for Android boot images. */
static bool bls_key_ignored(const char *w, size_t wn)
{
	static const char *const keys[] = {
	    "devicetree-overlay", "id",	   "grub_users", "grub_arg",
	    "grub_class",	  "aboot", "abootcfg",
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i]) == wn && !strncmp(w, keys[i], wn))
			return true;
	return false;
}

static void bls_key(struct cfg_ctx *ctx, struct bls_keys *k, struct entry *e,
		    const char *dir, const struct bls_kv *kv,
		    bls_expand_fn expand, void *data)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
	    {"title", offsetof(struct bls_keys, title)},
	    {"version", offsetof(struct bls_keys, version)},
	    {"machine-id", offsetof(struct bls_keys, machine_id)},
	    {"sort-key", offsetof(struct bls_keys, sort_key)},
	    {"linux", offsetof(struct bls_keys, linux_)},
	    {"efi", offsetof(struct bls_keys, efi)},
	    {"devicetree", offsetof(struct bls_keys, devicetree)},
	    {"architecture", offsetof(struct bls_keys, arch)},
	};
	const char *w = kv->key, *v = kv->value;
	size_t wn = kv->key_len;
	int line = kv->line;

	if (wn == 6 && !strncmp(w, "initrd", 6)) {
		bls_initrd(ctx, e, dir, v, expand, data);
		return;
	}
	if (wn == 7 && !strncmp(w, "options", 7)) {
		bls_option(ctx->a, k, v);
		return;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strlen(keys[i].key) == wn && !strncmp(w, keys[i].key, wn)) {
			*(const char **)((char *)k + keys[i].off) = v;
			if (keys[i].off == offsetof(struct bls_keys, linux_))
				k->line_linux = line;
			return;
		}
	}
	if (!bls_key_ignored(w, wn))
		entry_warn(ctx->out, ctx->fs, e->source, line,
			   "unknown key '%.*s' ignored",
			   (int)(wn > 64 ? 64 : wn), w);
}

static struct entry *bls_finish(struct cfg_ctx *ctx, struct entry *e,
				const struct bls_keys *k, const char *dir,
				bls_expand_fn expand, void *data)
{
	if (k->arch && strcasecmp(k->arch, BLS_ARCH_NATIVE)) {
		entry_warn(
		    ctx->out, ctx->fs, e->source, 0,
		    "architecture %.32s is not this machine's (%s): skipped",
		    k->arch, BLS_ARCH_NATIVE);
		return NULL;
	}
	e->title = k->title ? k->title : e->id;
	e->version = k->version;
	e->machine_id = k->machine_id;
	e->sort_key = k->sort_key;
	e->arch = k->arch;
	e->cmdline = bls_options(ctx->a, k);
	if (expand && *e->cmdline)
		e->cmdline = expand(data, e->cmdline);
	if (k->devicetree)
		e->devicetree = bls_path(ctx, dir, k->devicetree);
	if (k->linux_) {
		e->kernel.path = bls_path(ctx, dir, k->linux_);
		e->kernel.fs = bls_btrfs(ctx, &e->kernel.path);
		e->line = k->line_linux;
	} else if (k->efi) {
		e->kernel.path = bls_path(ctx, dir, k->efi);
		e->disabled = "runs an EFI program, not a Linux kernel: not "
			      "bootable with kexec";
	} else {
		entry_warn(ctx->out, ctx->fs, e->source, 0,
			   "no linux or efi key: nothing to boot");
		return NULL;
	}
	return e;
}

struct entry *bls_parse_entry(struct cfg_ctx *ctx, const char *dir,
			      const char *name, const char *buf, size_t len,
			      enum entry_format fmt, bls_expand_fn expand,
			      void *data)
{
	struct entry *e = entry_new(ctx->out, fmt, ctx->fs);
	struct bls_keys k = {0};
	struct cfg_text_lines it;
	struct bls_kv kv;

	bls_name_counter(ctx->a, name, ".conf", &e->id, &e->tries_left,
			 &e->tries_done);
	e->source = cfg_text_path(ctx->a, dir, name);
	e->line = 1;
	cfg_text_lines_init(&it, buf, len);
	while (bls_next_kv(ctx->a, &it, &kv))
		bls_key(ctx, &k, e, dir, &kv, expand, data);
	return bls_finish(ctx, e, &k, dir, expand, data);
}

static int bls_cmp_str(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

int bls_compare(const struct entry *a, const struct entry *b)
{
	int r = (a->tries_left == 0) - (b->tries_left == 0);

	if (r)
		return r;
	r = (a->sort_key == NULL) - (b->sort_key == NULL);
	if (r)
		return r;
	if (a->sort_key) {
		if ((r = strcmp(a->sort_key, b->sort_key)))
			return r;
		if ((r = bls_cmp_str(a->machine_id, b->machine_id)))
			return r;
		if ((r = -cfg_verscmp(a->version, b->version)))
			return r;
	}
	if ((r = -cfg_verscmp(a->id, b->id)))
		return r;
	if (a->tries_left < 0 || b->tries_left < 0)
		return 0;
	if (a->tries_left != b->tries_left)
		return a->tries_left > b->tries_left ? -1 : 1;
	return (a->tries_done > b->tries_done) -
	       (a->tries_done < b->tries_done);
}

static int bls_qsort_cmp(const void *x, const void *y)
{
	const struct entry *const *a = x, *const *b = y;
	int r = bls_compare(*a, *b);

	/* equal entries keep a fixed order: by source path */
	return r ? r : bls_cmp_str((*a)->source, (*b)->source);
}

void bls_sort(struct entry **v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), bls_qsort_cmp);
}

/* systemd-boot makes the titles it shows unique (src/boot/efi/boot.c,
 * config_title_generate(), v252): titles shared by two or more entries get
 * " (version)", then those still shared " (machine-id)" (its first 8
 * characters), then those still shared " (id)" (sd-boot's id, see
 * bls_title_id); an entry without the field keeps its title in that
 * round. Its pairwise search becomes a sort here: the same sets, in
 * n log n. */
struct bls_title {
	const char *t;
	size_t i;
};

static int bls_title_cmp(const void *x, const void *y)
{
	const struct bls_title *a = x, *b = y;

	return strcmp(a->t, b->t);
}

/* dup[i]: v[i]'s title is another entry's too. True when any is. */
static bool bls_title_dups(struct entry *const *v, size_t n,
			   struct bls_title *s, bool *dup)
{
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		s[i].t = v[i]->title ? v[i]->title : "";
		s[i].i = i;
		dup[i] = false;
	}
	qsort(s, n, sizeof(*s), bls_title_cmp);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(s[i - 1].t, s[i].t))
			any = dup[s[i - 1].i] = dup[s[i].i] = true;
	return any;
}

/* sd-boot 252's id: the file name as found, boot counter included, in
 * lower case (config_entry_add_type1: strtolower16(entry->id)). */
static const char *bls_title_id(struct arena *a, const struct entry *e)
{
	const char *name = e->source ? cfg_text_basename(e->source) : e->id;
	char *id = arena_strdup(a, name ? name : "");

	for (char *p = id; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return id;
}

static void bls_title_add(struct arena *a, struct entry *e, int round)
{
	const char *t = e->title ? e->title : "";

	if (round == 0 && e->version)
		e->title = arena_printf(a, "%s (%s)", t, e->version);
	else if (round == 1 && e->machine_id)
		e->title = arena_printf(a, "%s (%.8s)", t, e->machine_id);
	else if (round == 2)
		e->title = arena_printf(a, "%s (%s)", t, bls_title_id(a, e));
}

void bls_unique_titles(struct arena *a, struct entry **v, size_t n)
{
	struct bls_title *s;
	bool *dup;

	if (n < 2)
		return;
	s = arena_alloc(a, n * sizeof(*s));
	dup = arena_alloc(a, n * sizeof(*dup));
	for (int round = 0; round < 3 && bls_title_dups(v, n, s, dup); round++)
		for (size_t i = 0; i < n; i++)
			if (dup[i])
				bls_title_add(a, v[i], round);
}

/* @id without its ".conf" or ".efi", owned by @a. */
static const char *bls_id_stem(struct arena *a, const char *id)
{
	size_t n = strlen(id);

	if (n > 5 && !strcasecmp(id + n - 5, ".conf"))
		return arena_strndup(a, id, n - 5);
	if (n > 4 && !strcasecmp(id + n - 4, ".efi"))
		return arena_strndup(a, id, n - 4);
	return id;
}

long bls_pick_default(struct entry *const *v, size_t n, const char *pattern)
{
	struct arena a = ARENA_INIT;
	long found = -1;

	for (size_t i = 0; pattern && i < n; i++)
		if (!fnmatch(pattern, v[i]->id, FNM_CASEFOLD))
			return (long)i;
	/* systemd-boot before v240 dropped ".conf" from ids, and configs
	 * written then still say so (Pop!_OS: "default Pop_OS-current") */
	for (size_t i = 0; pattern && found < 0 && i < n; i++)
		if (!fnmatch(pattern, bls_id_stem(&a, v[i]->id), FNM_CASEFOLD))
			found = (long)i;
	arena_free(&a);
	if (found >= 0)
		return found;
	return n ? 0 : -1;
}

static bool bls_is_conf(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && name[0] != '.' && !strcasecmp(name + n - 5, ".conf");
}

/* Read the .conf files of @dir into @vec; returns how many, or -errno. */
static int bls_read_dir(struct cfg_ctx *ctx, const char *dir,
			enum entry_format fmt, bls_expand_fn expand, void *data,
			struct bls_vec *vec)
{
	char **names;
	size_t n, added = 0;
	int rc = fs_list(ctx->fs, dir, ctx->a, &names, &n);

	if (rc < 0)
		return rc;
	for (size_t i = 0; i < n && added < BLS_ENTRIES_MAX; i++) {
		char *path, *buf;
		size_t len;
		struct entry *e;

		if (!bls_is_conf(names[i]))
			continue;
		path = cfg_text_path(ctx->a, dir, names[i]);
		rc = fs_read_file(ctx->fs, path, FS_CONFIG_MAX, &buf, &len);
		if (rc < 0) {
			if (rc != -EISDIR)
				entry_warn(ctx->out, ctx->fs, path, 0,
					   "cannot read: %s", strerror(-rc));
			continue;
		}
		e = bls_parse_entry(ctx, dir, names[i], buf, len, fmt, expand,
				    data);
		free(buf);
		if (e) {
			bls_vec_push(ctx->a, vec, e);
			added++;
		}
	}
	return (int)added;
}

static int bls_add_all(struct cfg_ctx *ctx, struct bls_vec *vec)
{
	int added = 0;

	for (size_t i = 0; i < vec->n; i++) {
		struct entry *e = vec->v[i];

		/* the boot counter ran out: systemd-boot sorts it last; say so,
		 * the menu's mark for it */
		if (e->tries_left == 0)
			entry_warn(
			    ctx->out, ctx->fs, e->source, 0,
			    "no boot tries left (%d failed): sorted last",
			    e->tries_done);
		if (entry_add(ctx->out, e) == 0)
			added++;
	}
	return added;
}

int bls_collect(struct cfg_ctx *ctx, const char *dir, enum entry_format fmt,
		bls_expand_fn expand, void *data)
{
	struct bls_vec vec = {0};
	int rc = bls_read_dir(ctx, dir, fmt, expand, data, &vec);

	if (rc < 0)
		return rc;
	bls_sort(vec.v, vec.n);
	return bls_add_all(ctx, &vec);
}

/* grub's blscfg (grub parses first) already listed this directory. */
static bool bls_dir_taken(const struct cfg_ctx *ctx, const char *dir)
{
	size_t n = strlen(dir);

	for (const struct entry *e = ctx->out->head; e; e = e->next)
		if (e->source && !strncmp(e->source, dir, n) &&
		    e->source[n] == '/')
			return true;
	return false;
}

static const char *const bls_dirs[] = {"/loader/entries",
				       "/boot/loader/entries"};
static const char *const bls_uki_dirs[] = {"/EFI/Linux", "/boot/EFI/Linux"};
static const char *const bls_loader_confs[] = {"/loader/loader.conf",
					       "/boot/loader/loader.conf"};

static void bls_loader_conf(struct cfg_ctx *ctx, struct loader_conf *lc)
{
	lc->default_pattern = NULL;
	lc->timeout_ds = -1;
	for (size_t i = 0; i < 2; i++) {
		char *buf;
		size_t len;

		if (fs_read_file(ctx->fs, bls_loader_confs[i], FS_CONFIG_MAX,
				 &buf, &len) < 0)
			continue;
		loader_conf_parse(ctx, bls_loader_confs[i], buf, len, lc);
		free(buf);
		return;
	}
}

/* Skip a directory that is a symlink to one already read. */
static bool bls_same_dir(struct cfg_ctx *ctx, const char *const *dirs, size_t i)
{
	char *a, *b;

	if (i == 0 || fs_realpath(ctx->fs, dirs[i], ctx->a, &b) < 0)
		return false;
	for (size_t j = 0; j < i; j++)
		if (fs_realpath(ctx->fs, dirs[j], ctx->a, &a) == 0 &&
		    !strcmp(a, b))
			return true;
	return false;
}

int bls_parse_fs(struct cfg_ctx *ctx)
{
	struct bls_vec vec = {0};
	struct loader_conf lc;
	long d;

	for (size_t i = 0; i < 2; i++)
		if (!bls_dir_taken(ctx, bls_dirs[i]) &&
		    !bls_same_dir(ctx, bls_dirs, i))
			bls_read_dir(ctx, bls_dirs[i], FMT_BLS, NULL, NULL,
				     &vec);
	for (size_t i = 0; i < 2; i++)
		if (!bls_same_dir(ctx, bls_uki_dirs, i))
			uki_collect(ctx, bls_uki_dirs[i], &vec);
	if (!vec.n)
		return 0;
	bls_loader_conf(ctx, &lc);
	bls_sort(vec.v, vec.n);
	bls_unique_titles(ctx->a, vec.v, vec.n);
	d = bls_pick_default(vec.v, vec.n, lc.default_pattern);
	if (d >= 0)
		vec.v[d]->is_default = true;
	if (lc.timeout_ds >= 0 && ctx->out->timeout_ds < 0)
		ctx->out->timeout_ds = lc.timeout_ds;
	bls_add_all(ctx, &vec);
	return 0;
}
