/* lilo.c - lilo.conf (lilo.conf(5), lilo 24's cfg.c and bsect.c).
 *
 * The file is a stream of `name` and `name=value` items (values may be
 * "quoted"; '#' starts a comment; several items may share a line); global
 * options come first, then image= and other= sections. lilo builds each
 * image's command line at install time (bsect.c bsect_common()): "ro " or
 * "rw ", "root=... ", "ramdisk=N ", then the section's append= (else the
 * global one), then addappend=; literal= replaces all of that. At boot its
 * second stage puts "BOOT_IMAGE=<label>" in front. vga= goes to the setup
 * header, not the command line; it is put on the command line here so the
 * loader can see it. A root=/dev/sdXN is written as the device name
 * (lilo stores its device number, which only exists on the running
 * system).
 */
#include "cfg/lilo.h"
#include "cfg/cfg_text.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The options one section (or the global part) may set. */
struct lilo_opts {
	const char *label, *alias, *append, *addappend, *literal, *initrd;
	const char *root, *vga, *ramdisk, *password;
	bool ro, rw, restricted, mandatory, optional, bypass;
};

struct lilo_section {
	bool other;
	const char *path; /* image= / other= */
	int line;
	struct lilo_opts o;
};

struct lilo_parse {
	struct cfg_ctx *ctx;
	const char *file;
	struct lilo_opts global;
	const char *dflt;
	int timeout; /* tenths, -1 unset */
	bool prompt;
	struct lilo_section sec[LILO_SECTIONS_MAX];
	int n_sec;
	bool too_many;
};

/* --- the tokenizer */

struct lilo_lex {
	const char *p, *end;
	int line;
};

static bool lilo_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
	       c == '\v';
}

static void lilo_skip(struct lilo_lex *lx)
{
	while (lx->p < lx->end) {
		char c = *lx->p;

		if (c == '\\' && lx->p + 1 < lx->end && lx->p[1] == '\n') {
			lx->p += 2; /* a line continued */
			lx->line++;
		} else if (c == '#') {
			while (lx->p < lx->end && *lx->p != '\n')
				lx->p++;
		} else if (lilo_blank(c)) {
			lx->line += c == '\n';
			lx->p++;
		} else {
			return;
		}
	}
}

/* The next word or "quoted string" into @out (at most LILO_VALUE_MAX);
 * '=' alone is a token too, except inside a value (root=UUID=...).
 * Returns false at the end. */
static bool lilo_token(struct lilo_lex *lx, char *out, bool *is_eq, bool value)
{
	size_t n = 0;

	lilo_skip(lx);
	*is_eq = false;
	if (lx->p >= lx->end)
		return false;
	if (*lx->p == '=' && !value) {
		lx->p++;
		*is_eq = true;
		out[0] = '\0';
		return true;
	}
	if (*lx->p == '"') {
		for (lx->p++; lx->p < lx->end && *lx->p != '"'; lx->p++) {
			char c = *lx->p;

			if (c == '\\' && lx->p + 1 < lx->end &&
			    lx->p[1] == '\n') {
				lx->p++; /* continued inside the quotes */
				lx->line++;
				continue;
			}
			if (c == '\\' && lx->p + 1 < lx->end &&
			    (lx->p[1] == '"' || lx->p[1] == '\\'))
				c = *++lx->p;
			lx->line += c == '\n';
			if (n < LILO_VALUE_MAX)
				out[n++] = c;
		}
		lx->p += lx->p < lx->end; /* the closing quote */
	} else {
		while (lx->p < lx->end && !lilo_blank(*lx->p) &&
		       (value || *lx->p != '=') && *lx->p != '#' &&
		       *lx->p != '"') {
			if (n < LILO_VALUE_MAX)
				out[n++] = *lx->p;
			lx->p++;
		}
	}
	out[n] = '\0';
	return true;
}

/* --- items */

static const char *const lilo_ignored[] = {
    /* install-time and display options: nothing to do for a kexec menu */
    "boot",
    "map",
    "install",
    "message",
    "menu-title",
    "menu-scheme",
    "bitmap",
    "bmp-colors",
    "bmp-table",
    "bmp-timer",
    "bmp-retain",
    "backup",
    "force-backup",
    "compact",
    "linear",
    "lba32",
    "delay",
    "serial",
    "large-memory",
    "nowarn",
    "verbose",
    "raid-extra-boot",
    "static-bios-codes",
    "suppress-boot-time-BIOS-data",
    "unattended",
    "fix-table",
    "ignore-table",
    "geometric",
    "noraid",
    "keytable",
    "disk",
    "bios",
    "sectors",
    "heads",
    "cylinders",
    "inaccessible",
    "max-partitions",
    "change-rules",
    "reset",
    "read-only-mbr",
    "el-torito-bootable-CD",
    "mbr",
    "master-boot",
    "nodevcache",
    "noexec",
    "single-key",
    "lock",
    "fallback",
    "range",
    "table",
    "loader",
    "boot-as",
    "map-drive",
    "to",
    "change",
    "activate",
    "deactivate",
    "automatic",
    "set",
    "partition",
    "start",
    "vmdefault",
    "vmdisable",
    "vmwarn",
    "nokbdefault",
    "nokbdisable",
    "label-only",
    "master",
    "uuid",
    "label",
    "alias",
    "password",
    "ramdisk",
    "optional",
    "restricted",
    "mandatory",
    "bypass",
    "read-only",
    "read-write",
    "prompt",
    "timeout",
    "default",
    "append",
    "addappend",
    "literal",
    "initrd",
    "root",
    "vga",
    "image",
    "other",
    "ramdisk_size",
    "load-ramdisk",
    "prompt-ramdisk",
    "ramdisk_start",
};

static bool lilo_known(const char *k)
{
	for (size_t i = 0; i < sizeof(lilo_ignored) / sizeof(lilo_ignored[0]);
	     i++)
		if (!strcasecmp(k, lilo_ignored[i]))
			return true;
	return false;
}

static bool lilo_opt(struct arena *a, struct lilo_opts *o, const char *k,
		     const char *v)
{
	static const struct {
		const char *key;
		size_t off;
	} strs[] = {
	    {"label", offsetof(struct lilo_opts, label)},
	    {"alias", offsetof(struct lilo_opts, alias)},
	    {"append", offsetof(struct lilo_opts, append)},
	    {"addappend", offsetof(struct lilo_opts, addappend)},
	    {"literal", offsetof(struct lilo_opts, literal)},
	    {"initrd", offsetof(struct lilo_opts, initrd)},
	    {"root", offsetof(struct lilo_opts, root)},
	    {"vga", offsetof(struct lilo_opts, vga)},
	    {"ramdisk", offsetof(struct lilo_opts, ramdisk)},
	    {"password", offsetof(struct lilo_opts, password)},
	};
	static const struct {
		const char *key;
		size_t off;
	} flags[] = {
	    {"read-only", offsetof(struct lilo_opts, ro)},
	    {"read-write", offsetof(struct lilo_opts, rw)},
	    {"restricted", offsetof(struct lilo_opts, restricted)},
	    {"mandatory", offsetof(struct lilo_opts, mandatory)},
	    {"optional", offsetof(struct lilo_opts, optional)},
	    {"bypass", offsetof(struct lilo_opts, bypass)},
	};

	for (size_t i = 0; v && i < sizeof(strs) / sizeof(strs[0]); i++)
		if (!strcasecmp(k, strs[i].key)) {
			*(const char **)((char *)o + strs[i].off) =
			    cfg_text_trimdup(a, v, strlen(v));
			return true;
		}
	for (size_t i = 0; !v && i < sizeof(flags) / sizeof(flags[0]); i++)
		if (!strcasecmp(k, flags[i].key)) {
			*(bool *)((char *)o + flags[i].off) = true;
			return true;
		}
	return false;
}

static void lilo_section_start(struct lilo_parse *s, bool other, const char *v,
			       int line)
{
	struct lilo_section *sec;

	if (s->n_sec == LILO_SECTIONS_MAX) {
		if (!s->too_many)
			entry_warn(
			    s->ctx->out, s->ctx->fs, s->file, line,
			    "more than %d sections: the rest are ignored",
			    LILO_SECTIONS_MAX);
		s->too_many = true;
		return;
	}
	sec = &s->sec[s->n_sec++];
	memset(sec, 0, sizeof(*sec));
	sec->other = other;
	sec->path = arena_strdup(s->ctx->a, v);
	sec->line = line;
}

static void lilo_item(struct lilo_parse *s, const char *k, const char *v,
		      int line)
{
	struct lilo_opts *o;

	if (v && (!strcasecmp(k, "image") || !strcasecmp(k, "other"))) {
		lilo_section_start(s, !strcasecmp(k, "other"), v, line);
		return;
	}
	if (s->too_many)
		return;
	o = s->n_sec ? &s->sec[s->n_sec - 1].o : &s->global;
	if (lilo_opt(s->ctx->a, o, k, v))
		return;
	if (!s->n_sec && v && !strcasecmp(k, "default")) {
		s->dflt = arena_strdup(s->ctx->a, v);
	} else if (!s->n_sec && v && !strcasecmp(k, "timeout")) {
		s->timeout = atoi(v); /* lilo.conf(5): in tenths of a second */
	} else if (!s->n_sec && !v && !strcasecmp(k, "prompt")) {
		s->prompt = true;
	} else if (!lilo_known(k)) {
		entry_warn(s->ctx->out, s->ctx->fs, s->file, line,
			   "unknown option '%.64s' ignored", k);
	}
}

/* --- entries */

/* The file @p on this filesystem, or on the one root= names when it is
 * not here (lilo.conf on a root fs naming a kernel of a separate /boot
 * is the other way round and lands here as "not found"). */
static void lilo_file(struct lilo_parse *s, const char *root, const char *p,
		      const char **dev, const char **path)
{
	*path = cfg_text_path(s->ctx->a, "/", p);
	*dev = NULL;
	if (!fs_is_file(s->ctx->fs, *path) && root &&
	    strcasecmp(root, "current"))
		*dev = root;
}

static const char *lilo_cmdline(struct lilo_parse *s, const struct lilo_opts *o,
				const char *label, int line)
{
	struct arena *a = s->ctx->a;
	const struct lilo_opts *g = &s->global;
	const char *root = o->root ? o->root : g->root;
	const char *vga = o->vga ? o->vga : g->vga;
	const char *rd = o->ramdisk ? o->ramdisk : g->ramdisk;
	const char *c = "";

	if (o->literal)
		return cfg_text_join(a, arena_printf(a, "BOOT_IMAGE=%s", label),
				     o->literal);
	if (o->ro || g->ro)
		c = "ro";
	if (o->rw || g->rw)
		c = cfg_text_join(a, c, "rw");
	if (root && !strcasecmp(root, "current"))
		entry_warn(
		    s->ctx->out, s->ctx->fs, s->file, line,
		    "root=current names the running system's root: left out");
	else if (root)
		c = cfg_text_join(a, c, arena_printf(a, "root=%s", root));
	if (rd)
		c = cfg_text_join(a, c, arena_printf(a, "ramdisk=%s", rd));
	if (vga)
		c = cfg_text_join(a, c, arena_printf(a, "vga=%s", vga));
	c = cfg_text_join(a, c, o->append ? o->append : g->append);
	c = cfg_text_join(a, c, o->addappend);
	return cfg_text_join(a, arena_printf(a, "BOOT_IMAGE=%s", label), c);
}

static void lilo_access(struct lilo_parse *s, struct entry *e,
			const struct lilo_opts *o)
{
	const struct lilo_opts *g = &s->global;

	e->password = o->password || (g->password && !o->bypass);
	e->mandatory = e->password && (o->mandatory || g->mandatory);
	e->restricted =
	    e->password && !e->mandatory && (o->restricted || g->restricted);
}

static struct entry *lilo_entry(struct lilo_parse *s,
				const struct lilo_section *sec)
{
	struct arena *a = s->ctx->a;
	const struct lilo_opts *o = &sec->o;
	const char *root = o->root ? o->root : s->global.root;
	const char *initrd = o->initrd ? o->initrd : s->global.initrd;
	struct entry *e = entry_new(s->ctx->out, FMT_LILO, s->ctx->fs);

	/* lilo.conf(5): the label defaults to the image's file name */
	e->title = o->label ? o->label : cfg_text_basename(sec->path);
	e->id = e->title;
	e->source = s->file;
	e->line = sec->line;
	lilo_access(s, e, o);
	if (sec->other) {
		e->disabled = arena_printf(a,
					   "chainloads another OS (other=%s): "
					   "not bootable with kexec",
					   sec->path);
		return e;
	}
	lilo_file(s, root, sec->path, &e->kernel.dev, &e->kernel.path);
	if (initrd) {
		const char *dev, *path;

		lilo_file(s, root, initrd, &dev, &path);
		entry_add_initrd(s->ctx->out, e, dev, path);
	}
	e->cmdline = lilo_cmdline(s, o, e->title, sec->line);
	return e;
}

static bool lilo_is_default(const struct lilo_parse *s,
			    const struct lilo_section *sec,
			    const struct entry *e)
{
	/* lilo is built with IGNORECASE: labels match without case */
	return !strcasecmp(s->dflt, e->title) ||
	       (sec->o.alias && !strcasecmp(s->dflt, sec->o.alias));
}

static int lilo_emit(struct lilo_parse *s)
{
	struct entry *first = NULL;
	bool found = false;
	int added = 0;

	for (int i = 0; i < s->n_sec; i++) {
		const struct lilo_section *sec = &s->sec[i];
		struct entry *e = lilo_entry(s, sec);

		if (sec->o.optional && !sec->other && !e->kernel.dev &&
		    !fs_is_file(s->ctx->fs, e->kernel.path))
			continue; /* lilo skips a missing optional image */
		if (s->dflt && !found && lilo_is_default(s, sec, e))
			e->is_default = found = true;
		if (entry_add(s->ctx->out, e) < 0)
			break;
		first = first ? first : e;
		added++;
	}
	if (s->dflt && !found)
		entry_warn(
		    s->ctx->out, s->ctx->fs, s->file, 0,
		    "default=%s names no image: the first one is the default",
		    s->dflt);
	if (!found && first)
		first->is_default = true;
	return added;
}

int lilo_parse_buf(struct cfg_ctx *ctx, const char *path, const char *buf,
		   size_t len)
{
	struct lilo_parse *s = calloc(1, sizeof(*s));
	char *k = malloc(LILO_VALUE_MAX + 1), *v = malloc(LILO_VALUE_MAX + 1);
	struct lilo_lex lx = {buf, buf + len, 1};
	bool eq, have = false;
	int added = 0;

	if (!s || !k || !v)
		goto out;
	s->ctx = ctx;
	s->file = arena_strdup(ctx->a, path);
	s->timeout = -1;
	while (have || lilo_token(&lx, k, &eq, false)) {
		int line = lx.line;

		have = false;
		if (eq)
			continue; /* a stray '=' */
		if (!lilo_token(&lx, v, &eq, false)) {
			lilo_item(s, k, NULL, line);
			break;
		}
		if (!eq) { /* a flag; v is the next item's name */
			lilo_item(s, k, NULL, line);
			memcpy(k, v, strlen(v) + 1);
			have = true;
			continue;
		}
		if (!lilo_token(&lx, v, &eq, true) || eq) {
			entry_warn(ctx->out, ctx->fs, s->file, line,
				   "'%.64s=' has no value", k);
			continue;
		}
		lilo_item(s, k, v, line);
	}
	added = lilo_emit(s);
	/* lilo.conf(5): timeout only counts with prompt; without prompt the
	 * default boots at once */
	if (ctx->out->timeout_ds < 0 && (s->prompt ? s->timeout > 0 : 1))
		ctx->out->timeout_ds = s->prompt ? s->timeout : 0;
out:
	free(s);
	free(k);
	free(v);
	return added;
}

int lilo_parse_fs(struct cfg_ctx *ctx)
{
	static const char path[] = "/etc/lilo.conf";
	char *buf;
	size_t len;
	int rc = fs_read_file(ctx->fs, path, FS_CONFIG_MAX, &buf, &len);

	if (rc < 0) {
		if (rc != -ENOENT && rc != -ENOTDIR)
			entry_warn(ctx->out, ctx->fs, path, 0,
				   "cannot read: %s", strerror(-rc));
		return 0;
	}
	lilo_parse_buf(ctx, path, buf, len);
	free(buf);
	return 0;
}
