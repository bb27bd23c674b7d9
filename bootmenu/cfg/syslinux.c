/* syslinux.c - SYSLINUX, EXTLINUX, ISOLINUX and PXELINUX configs.
 *
 * Follows syslinux 6's readconfig.c: keywords are case-insensitive and
 * must be followed by a blank or the end of the line; INCLUDE reads a file
 * as if pasted in; a LABEL is recorded when the next LABEL, MENU BEGIN or
 * MENU END starts, or at the end. The command line is what ldlinux's
 * new_linux_kernel() hands the kernel: "BOOT_IMAGE=<kernel> <args>", where
 * args are the label's APPEND (or the global one; "APPEND -" means none)
 * followed by " initrd=<INITRD>"; the first "initrd=" in it names the
 * initrds, comma-separated, and stays on the command line as syslinux
 * leaves it. Relative paths resolve against the working directory: the
 * main config's directory (CONFIG may change it), not the directory of
 * an INCLUDEd file.
 */
#include "cfg/syslinux.h"
#include "cfg/cfg_text.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum sl_type {
	SL_LINUX,
	SL_COM32,
	SL_COMBOOT,
	SL_BOOTSECT,
	SL_PXE,
	SL_FDIMAGE,
	SL_CONFIG,
	SL_LOCALBOOT,
};

/* The LABEL being defined. */
struct sl_label {
	bool active;
	const char *label, *kernel, *append, *initrd, *menulabel, *fdt;
	enum sl_type type;
	bool hide, menudefault, disabled, passwd, noboot;
	const char *file;
	int line;
	const char *group;
};

/* A recorded label, for DEFAULT/ONTIMEOUT resolution at the end. */
struct sl_rec {
	const char *label;
	struct entry *e;
	bool hidden, added, menudefault, top;
};

/* Files already read in this scan, so a config reached twice (two
 * top-level names, or one INCLUDEd by another) yields its entries once. */
struct sl_seen {
	const char **v;
	size_t n, cap;
};

struct sl_parse {
	struct cfg_ctx *ctx;
	const struct sl_parse *parent; /* the config whose CONFIG led here */
	struct sl_seen *seen;
	const char *cwd;
	const char *append; /* global APPEND */
	const char *dflt, *ontimeout;
	int timeout, totaltimeout; /* tenths, -1 unset */
	const char *group_base;	   /* group of a CONFIG'd config */
	const char *groups[CFG_SUBMENU_DEPTH + 1];
	bool labelled[CFG_SUBMENU_DEPTH + 1]; /* MENU LABEL named the group */
	int menu_depth;
	const char *stack[CFG_INCLUDE_DEPTH + 1]; /* files being read */
	int depth;
	struct sl_label cur;
	struct sl_rec *recs;
	size_t n_recs, cap_recs;
	int added;
};

static int sl_parse_text(struct sl_parse *s, const char *path, const char *buf,
			 size_t len);
static int sl_read_file(struct sl_parse *s, const char *path);

static void sl_warn(struct sl_parse *s, const char *file, int line,
		    const char *msg, const char *arg, size_t n)
{
	entry_warn(s->ctx->out, s->ctx->fs, file, line, "%s '%.*s'", msg,
		   (int)(n > 200 ? 200 : n), arg);
}

static const char *sl_group(const struct sl_parse *s)
{
	if (s->menu_depth > CFG_SUBMENU_DEPTH)
		return s->groups[CFG_SUBMENU_DEPTH];
	return s->menu_depth ? s->groups[s->menu_depth] : s->group_base;
}

/* syslinux: MENU LABEL's '^' marks the hotkey and is not shown. */
static char *sl_strip_caret(struct arena *a, const char *t)
{
	char *out = arena_strdup(a, t), *w = out;

	for (const char *p = t; *p; p++)
		if (*p != '^')
			*w++ = *p;
	*w = '\0';
	return out;
}

static void seen_add(struct arena *a, struct sl_seen *seen, const char *path)
{
	if (seen->n == seen->cap) {
		size_t cap = seen->cap ? seen->cap * 2 : 16;
		const char **v = arena_alloc(a, cap * sizeof(*v));

		if (seen->n)
			memcpy(v, seen->v, seen->n * sizeof(*v));
		seen->v = v;
		seen->cap = cap;
	}
	seen->v[seen->n++] = arena_strdup(a, path);
}

static bool seen_has(const struct sl_seen *seen, const char *path)
{
	for (size_t i = 0; i < seen->n; i++)
		if (!strcmp(seen->v[i], path))
			return true;
	return false;
}

/* The file as the fs sees it after symlinks, for loop and repeat checks. */
static const char *sl_canon(struct sl_parse *s, const char *path)
{
	char *real;

	if (fs_realpath(s->ctx->fs, path, s->ctx->a, &real) == 0)
		return real;
	return path;
}

/* syslinux picks the loader for KERNEL by the file's extension. */
static enum sl_type sl_type_by_name(const char *file)
{
	static const struct {
		const char *ext;
		enum sl_type type;
	} exts[] = {
	    {".c32", SL_COM32},	  {".cbt", SL_COMBOOT},	 {".com", SL_COMBOOT},
	    {".bs", SL_BOOTSECT}, {".bss", SL_BOOTSECT}, {".bin", SL_BOOTSECT},
	    {".0", SL_PXE},	  {".img", SL_FDIMAGE},
	};
	const char *dot = strrchr(cfg_text_basename(file), '.');

	for (size_t i = 0; dot && i < sizeof(exts) / sizeof(exts[0]); i++)
		if (!strcasecmp(dot, exts[i].ext))
			return exts[i].type;
	return SL_LINUX;
}

static const char *sl_disabled_reason(struct arena *a, enum sl_type t,
				      const char *file)
{
	const char *base = cfg_text_basename(file ? file : "");

	switch (t) {
	case SL_LINUX:
		if (!strcasecmp(base, "memdisk"))
			return "memdisk boots a disk image in BIOS emulation: "
			       "not bootable with kexec";
		return NULL;
	case SL_COM32:
		if (!strcasecmp(base, "chain.c32"))
			return "chainloads another OS (chain.c32): not "
			       "bootable "
			       "with kexec";
		return arena_printf(a,
				    "COM32 module %s: not a Linux kernel, "
				    "not bootable with kexec",
				    base);
	case SL_COMBOOT:
		return arena_printf(a,
				    "COMBOOT program %s: not bootable with "
				    "kexec",
				    base);
	case SL_BOOTSECT:
		return arena_printf(a,
				    "boot sector image %s: not bootable "
				    "with kexec",
				    base);
	case SL_PXE:
		return "PXE bootstrap program: not bootable with kexec";
	case SL_FDIMAGE:
		return "floppy disk image: not bootable with kexec";
	case SL_LOCALBOOT:
		return "LOCALBOOT boots the local disk through the BIOS: not "
		       "bootable with kexec";
	case SL_CONFIG:
		break;
	}
	return NULL;
}

/* Take the initrds from the first "initrd=" of @cmdline, as
 * new_linux_kernel() does: names up to a blank, separated by commas. */
static void sl_initrds(struct sl_parse *s, struct entry *e, const char *cmdline)
{
	const char *p = strstr(cmdline, "initrd=");

	if (!p)
		return;
	p += strlen("initrd");
	do {
		size_t n;

		p++; /* the '=' or ',' */
		n = strcspn(p, " \t,");
		if (n) {
			char *name = arena_strndup(s->ctx->a, p, n);

			entry_add_initrd(
			    s->ctx->out, e, NULL,
			    cfg_text_path(s->ctx->a, s->cwd, name));
		}
		p += n;
	} while (*p == ',');
}

static void sl_rec_push(struct sl_parse *s, const struct sl_rec *r)
{
	if (s->n_recs == s->cap_recs) {
		size_t cap = s->cap_recs ? s->cap_recs * 2 : 32;
		struct sl_rec *v = arena_alloc(s->ctx->a, cap * sizeof(*v));

		if (s->n_recs)
			memcpy(v, s->recs, s->n_recs * sizeof(*v));
		s->recs = v;
		s->cap_recs = cap;
	}
	s->recs[s->n_recs++] = *r;
}

/* "KERNEL file args": the file, and the args that go before APPEND's. */
static struct entry *sl_make_entry(struct sl_parse *s, const struct sl_label *l)
{
	struct arena *a = s->ctx->a;
	struct entry *e = entry_new(s->ctx->out, FMT_SYSLINUX, s->ctx->fs);
	const char *w, *r, *args, *app = l->append ? l->append : s->append;
	size_t wn, rn;
	char *file;

	cfg_text_split_word(l->kernel, strlen(l->kernel), &w, &wn, &r, &rn);
	file = arena_strndup(a, w, wn);
	if (!app || !strcmp(app, "-"))
		app = "";
	args = cfg_text_join(a, arena_strndup(a, r, rn), app);
	if (l->initrd)
		args = arena_printf(a, "%s initrd=%s", args, l->initrd);
	e->id = arena_strdup(a, l->label);
	e->title = l->menulabel ? sl_strip_caret(a, l->menulabel) : e->id;
	e->group = l->group;
	e->source = l->file;
	e->line = l->line;
	e->password = l->passwd;
	e->disabled = sl_disabled_reason(a, l->type, file);
	if (l->disabled && !e->disabled)
		e->disabled = "MENU DISABLE: shown but not selectable";
	if (l->type == SL_LOCALBOOT)
		return e;
	e->kernel.path = cfg_text_path(a, s->cwd, file);
	e->cmdline =
	    cfg_text_join(a, arena_printf(a, "BOOT_IMAGE=%s", file), args);
	if (l->type == SL_LINUX)
		sl_initrds(s, e, e->cmdline);
	if (l->fdt)
		e->devicetree = cfg_text_path(a, s->cwd, l->fdt);
	return e;
}

static void sl_config_label(struct sl_parse *s, const struct sl_label *l);

static void sl_record(struct sl_parse *s)
{
	struct sl_label *l = &s->cur;
	struct sl_rec r = {0};

	if (!l->active)
		return;
	l->active = false;
	if (l->noboot)
		return;
	if (l->type == SL_CONFIG) {
		sl_config_label(s, l);
		return;
	}
	if (s->n_recs >= SYSLINUX_LABELS_MAX) {
		sl_warn(s, l->file, l->line, "too many labels: dropped",
			l->label, strlen(l->label));
		return;
	}
	r.label = l->label;
	r.e = sl_make_entry(s, l);
	r.hidden = l->hide;
	r.menudefault = l->menudefault;
	r.top = s->menu_depth == 0;
	if (!r.hidden && entry_add(s->ctx->out, r.e) == 0) {
		r.added = true;
		s->added++;
	}
	sl_rec_push(s, &r);
}

static void sl_label_start(struct sl_parse *s, const char *file, int line,
			   const char *arg, size_t n)
{
	const char *w, *r;
	size_t wn, rn;

	sl_record(s);
	cfg_text_split_word(arg, n, &w, &wn, &r, &rn);
	memset(&s->cur, 0, sizeof(s->cur));
	s->cur.active = true;
	s->cur.label = arena_strndup(s->ctx->a, w, wn);
	s->cur.kernel = s->cur.label; /* a label with no KERNEL boots itself */
	s->cur.file = file;
	s->cur.line = line;
	s->cur.group = sl_group(s);
}

/* --- keywords */

typedef void (*sl_kw_fn)(struct sl_parse *s, const char *file, int line,
			 const char *arg, size_t n);

static char *sl_arg(struct sl_parse *s, const char *arg, size_t n)
{
	return cfg_text_trimdup(s->ctx->a, arg, n);
}

static void kw_label(struct sl_parse *s, const char *file, int line,
		     const char *arg, size_t n)
{
	sl_label_start(s, file, line, arg, n);
}

static void sl_set_kernel(struct sl_parse *s, enum sl_type t, const char *arg,
			  size_t n)
{
	if (!s->cur.active)
		return; /* syslinux: a kernel outside a LABEL is ignored */
	s->cur.kernel = sl_arg(s, arg, n);
	s->cur.type = t;
}

static void kw_kernel(struct sl_parse *s, const char *file, int line,
		      const char *arg, size_t n)
{
	char *k = sl_arg(s, arg, n);

	sl_set_kernel(s, sl_type_by_name(k), arg, strcspn(k, " \t") ? n : 0);
	(void)file, (void)line;
}

#define SL_KERNEL_KW(name, type)                                               \
	static void kw_##name(struct sl_parse *s, const char *file, int line,  \
			      const char *arg, size_t n)                       \
	{                                                                      \
		(void)file, (void)line;                                        \
		sl_set_kernel(s, type, arg, n);                                \
	}
SL_KERNEL_KW(linux, SL_LINUX)
SL_KERNEL_KW(com32, SL_COM32)
SL_KERNEL_KW(comboot, SL_COMBOOT)
SL_KERNEL_KW(boot, SL_BOOTSECT)
SL_KERNEL_KW(pxe, SL_PXE)
SL_KERNEL_KW(fdimage, SL_FDIMAGE)
SL_KERNEL_KW(config_label, SL_CONFIG)

static void kw_localboot(struct sl_parse *s, const char *file, int line,
			 const char *arg, size_t n)
{
	sl_set_kernel(s, SL_LOCALBOOT, arg, n);
	(void)file, (void)line;
}

static void kw_append(struct sl_parse *s, const char *file, int line,
		      const char *arg, size_t n)
{
	if (s->cur.active)
		s->cur.append = sl_arg(s, arg, n);
	else
		s->append = sl_arg(s, arg, n);
	(void)file, (void)line;
}

static void kw_initrd(struct sl_parse *s, const char *file, int line,
		      const char *arg, size_t n)
{
	if (s->cur.active) /* syslinux ignores a global INITRD */
		s->cur.initrd = sl_arg(s, arg, n);
	(void)file, (void)line;
}

static void kw_fdt(struct sl_parse *s, const char *file, int line,
		   const char *arg, size_t n)
{
	if (s->cur.active)
		s->cur.fdt = sl_arg(s, arg, n);
	(void)file, (void)line;
}

static void kw_default(struct sl_parse *s, const char *file, int line,
		       const char *arg, size_t n)
{
	s->dflt = sl_arg(s, arg, n);
	(void)file, (void)line;
}

static void kw_ontimeout(struct sl_parse *s, const char *file, int line,
			 const char *arg, size_t n)
{
	s->ontimeout = sl_arg(s, arg, n);
	(void)file, (void)line;
}

static void kw_timeout(struct sl_parse *s, const char *file, int line,
		       const char *arg, size_t n)
{
	/* syslinux: TIMEOUT is in 1/10 s, 0 waits forever */
	s->timeout = atoi(sl_arg(s, arg, n));
	(void)file, (void)line;
}

static void kw_totaltimeout(struct sl_parse *s, const char *file, int line,
			    const char *arg, size_t n)
{
	s->totaltimeout = atoi(sl_arg(s, arg, n));
	(void)file, (void)line;
}

static void menu_begin(struct sl_parse *s, const char *arg, size_t n);
static void menu_end(struct sl_parse *s);

static void sl_include(struct sl_parse *s, const char *file, int line,
		       const char *arg, size_t n, const char *tag)
{
	const char *w, *r;
	size_t wn, rn;
	char *path;
	int rc;

	cfg_text_split_word(arg, n, &w, &wn, &r, &rn);
	if (!wn)
		return;
	path =
	    cfg_text_path(s->ctx->a, s->cwd, arena_strndup(s->ctx->a, w, wn));
	/* the main config plus CFG_INCLUDE_DEPTH levels of INCLUDE */
	if (s->depth > CFG_INCLUDE_DEPTH) {
		sl_warn(s, file, line, "INCLUDE nested too deep, not read", w,
			wn);
		return;
	}
	if (!cfg_budget(s->ctx, path, 1, 0))
		return;
	/* a CONFIG'd config that includes what was read already (d-i's
	 * prompt.cfg includes menu.cfg again) adds nothing new */
	if (s->group_base && s->seen && seen_has(s->seen, sl_canon(s, path)))
		return;
	if (tag)
		menu_begin(s, tag, strlen(tag));
	rc = sl_read_file(s, path);
	if (rc == -ENOENT)
		sl_warn(s, file, line, "INCLUDE: no such file", path,
			strlen(path));
	if (tag)
		menu_end(s);
}

static void kw_include(struct sl_parse *s, const char *file, int line,
		       const char *arg, size_t n)
{
	sl_include(s, file, line, arg, n, NULL);
}

static void kw_ignore(struct sl_parse *s, const char *file, int line,
		      const char *arg, size_t n)
{
	(void)s, (void)file, (void)line, (void)arg, (void)n;
}

static void kw_menu(struct sl_parse *s, const char *file, int line,
		    const char *arg, size_t n);

static void kw_text(struct sl_parse *s, const char *file, int line,
		    const char *arg, size_t n);

static const struct {
	const char *kw;
	sl_kw_fn fn;
} sl_keywords[] = {
    {"label", kw_label},
    {"kernel", kw_kernel},
    {"linux", kw_linux},
    {"com32", kw_com32},
    {"comboot", kw_comboot},
    {"boot", kw_boot},
    {"bss", kw_boot},
    {"pxe", kw_pxe},
    {"fdimage", kw_fdimage},
    {"config", kw_config_label},
    {"localboot", kw_localboot},
    {"append", kw_append},
    {"initrd", kw_initrd},
    {"fdt", kw_fdt},
    {"devicetree", kw_fdt},
    {"default", kw_default},
    {"ontimeout", kw_ontimeout},
    {"timeout", kw_timeout},
    {"totaltimeout", kw_totaltimeout},
    {"include", kw_include},
    {"menu", kw_menu},
    {"text", kw_text},
    /* accepted; nothing for a kexec menu to do with them */
    {"say", kw_ignore},
    {"prompt", kw_ignore},
    {"ui", kw_ignore},
    {"display", kw_ignore},
    {"font", kw_ignore},
    {"kbdmap", kw_ignore},
    {"serial", kw_ignore},
    {"console", kw_ignore},
    {"noescape", kw_ignore},
    {"nocomplete", kw_ignore},
    {"nohalt", kw_ignore},
    {"allowoptions", kw_ignore},
    {"implicit", kw_ignore},
    {"onerror", kw_ignore},
    {"pxeretry", kw_ignore},
    {"sendcookies", kw_ignore},
    {"ipappend", kw_ignore},
    {"sysappend", kw_ignore},
    {"path", kw_ignore},
    {"fdtdir", kw_ignore},
    {"endtext", kw_ignore},
};

/* --- MENU subcommands */

/* The group path of the submenu being defined, named @name. */
static void sl_name_group(struct sl_parse *s, const char *name)
{
	const char *up =
	    s->menu_depth > 1 ? s->groups[s->menu_depth - 1] : s->group_base;

	s->groups[s->menu_depth] =
	    up ? arena_printf(s->ctx->a, "%s>%s", up, name)
	       : arena_strdup(s->ctx->a, name);
}

/* MENU LABEL names the label being defined, or outside one the submenu
 * (what its parent menu shows); MENU TITLE names the submenu only when
 * it has no MENU LABEL, as readconfig.c does. */
static void menu_label(struct sl_parse *s, const char *arg, size_t n,
		       bool title)
{
	char *t = sl_arg(s, arg, n);

	if (s->cur.active) {
		if (!title)
			s->cur.menulabel = t;
		return;
	}
	if (!s->menu_depth || s->menu_depth > CFG_SUBMENU_DEPTH ||
	    (title && s->labelled[s->menu_depth]))
		return;
	s->labelled[s->menu_depth] |= !title;
	sl_name_group(s, sl_strip_caret(s->ctx->a, t));
}

static void menu_begin(struct sl_parse *s, const char *arg, size_t n)
{
	char *tag = sl_arg(s, arg, n);

	sl_record(s);
	s->menu_depth++; /* counted past the limit, so MENU END pairs up */
	if (s->menu_depth > CFG_SUBMENU_DEPTH)
		return;
	s->labelled[s->menu_depth] = false;
	sl_name_group(s, tag);
}

static void menu_end(struct sl_parse *s)
{
	sl_record(s);
	if (s->menu_depth > 0)
		s->menu_depth--;
}

static void kw_menu(struct sl_parse *s, const char *file, int line,
		    const char *arg, size_t n)
{
	const char *w, *r;
	size_t wn, rn;

	cfg_text_split_word(arg, n, &w, &wn, &r, &rn);
	if (cfg_text_eq_nocase(w, wn, "label"))
		menu_label(s, r, rn, false);
	else if (cfg_text_eq_nocase(w, wn, "title"))
		menu_label(s, r, rn, true);
	else if (cfg_text_eq_nocase(w, wn, "default"))
		s->cur.menudefault = s->cur.active;
	else if (cfg_text_eq_nocase(w, wn, "hide"))
		s->cur.hide = s->cur.active;
	else if (cfg_text_eq_nocase(w, wn, "disable") ||
		 cfg_text_eq_nocase(w, wn, "disabled"))
		s->cur.disabled = s->cur.active;
	else if (cfg_text_eq_nocase(w, wn, "passwd"))
		s->cur.passwd = s->cur.active;
	else if (cfg_text_eq_nocase(w, wn, "quit") ||
		 cfg_text_eq_nocase(w, wn, "goto") ||
		 cfg_text_eq_nocase(w, wn, "exit"))
		s->cur.noboot = s->cur.active;
	else if (cfg_text_eq_nocase(w, wn, "begin"))
		menu_begin(s, r, rn);
	else if (cfg_text_eq_nocase(w, wn, "end"))
		menu_end(s);
	else if (cfg_text_eq_nocase(w, wn, "include")) {
		const char *f, *tag;
		size_t fn, tn;

		cfg_text_split_word(r, rn, &f, &fn, &tag, &tn);
		sl_include(s, file, line, f, fn,
			   tn ? arena_strndup(s->ctx->a, tag, tn) : NULL);
	}
	/* the rest (TITLE, colours, layout, messages, SEPARATOR, ...) only
	 * change how syslinux draws its menu */
}

/* TEXT HELP ... ENDTEXT: the lines between are help text, not config;
 * the parse loop skips them (see sl_parse_text). */
static void kw_text(struct sl_parse *s, const char *file, int line,
		    const char *arg, size_t n)
{
	(void)s, (void)file, (void)line, (void)arg, (void)n;
}

/* --- the line loop */

static void sl_line(struct sl_parse *s, const char *file, int line,
		    const char *p, size_t n)
{
	const char *w, *r;
	size_t wn, rn;

	cfg_text_split_word(p, n, &w, &wn, &r, &rn);
	if (!wn || w[0] == '#')
		return;
	for (size_t i = 0; i < sizeof(sl_keywords) / sizeof(sl_keywords[0]);
	     i++) {
		if (cfg_text_eq_nocase(w, wn, sl_keywords[i].kw)) {
			sl_keywords[i].fn(s, file, line, r, rn);
			return;
		}
	}
	/* F1..F12 name help files */
	if (wn >= 2 && wn <= 3 && (w[0] | 0x20) == 'f' && w[1] >= '0' &&
	    w[1] <= '9')
		return;
	sl_warn(s, file, line, "unknown keyword ignored:", w, wn);
}

static bool sl_is_endtext(const char *p, size_t n)
{
	const char *w, *r;
	size_t wn, rn;

	cfg_text_split_word(p, n, &w, &wn, &r, &rn);
	return cfg_text_eq_nocase(w, wn, "endtext");
}

static int sl_parse_text(struct sl_parse *s, const char *path, const char *buf,
			 size_t len)
{
	struct cfg_text_lines it;
	const char *file = arena_strdup(s->ctx->a, path), *p;
	bool in_text = false;
	size_t n;

	cfg_text_lines_init(&it, buf, len);
	while (cfg_text_next_line(&it, &p, &n)) {
		const char *w, *r;
		size_t wn, rn;

		if (n >= SYSLINUX_LINE_MAX) {
			entry_warn(s->ctx->out, s->ctx->fs, file, it.line,
				   "line longer than %d bytes cut",
				   SYSLINUX_LINE_MAX);
			n = SYSLINUX_LINE_MAX - 1;
		}
		if (in_text) {
			in_text = !sl_is_endtext(p, n);
			continue;
		}
		cfg_text_split_word(p, n, &w, &wn, &r, &rn);
		if (cfg_text_eq_nocase(w, wn, "text")) {
			in_text = true;
			continue;
		}
		sl_line(s, file, it.line, p, n);
	}
	return 0;
}

static bool sl_on_stack(const struct sl_parse *s, const char *canon)
{
	for (; s; s = s->parent)
		for (int i = 0; i < s->depth; i++)
			if (!strcmp(s->stack[i], canon))
				return true;
	return false;
}

static int sl_read_file(struct sl_parse *s, const char *path)
{
	const char *canon;
	char *buf;
	size_t len;
	int rc;

	canon = sl_canon(s, path);
	if (sl_on_stack(s, canon)) {
		entry_warn(s->ctx->out, s->ctx->fs, path, 0,
			   "includes itself: the loop is not followed");
		return 0;
	}
	if (s->depth >= CFG_INCLUDE_DEPTH + 1)
		return -ELOOP;
	rc = fs_read_file(s->ctx->fs, path, FS_CONFIG_MAX, &buf, &len);
	if (rc < 0) {
		if (rc != -ENOENT)
			entry_warn(s->ctx->out, s->ctx->fs, path, 0,
				   "cannot read: %s", strerror(-rc));
		return rc;
	}
	if (!cfg_budget(s->ctx, path, 0, len)) {
		free(buf);
		return -ECANCELED;
	}
	if (s->seen)
		seen_add(s->ctx->a, s->seen, canon);
	s->stack[s->depth++] = arena_strdup(s->ctx->a, canon);
	sl_parse_text(s, path, buf, len);
	s->depth--;
	free(buf);
	return 0;
}

/* --- the end of a config: default and timeout */

static struct sl_rec *sl_find(struct sl_parse *s, const char *cmd)
{
	size_t n;

	if (!cmd)
		return NULL;
	n = strcspn(cmd, " \t");
	for (size_t i = 0; i < s->n_recs; i++)
		if (strlen(s->recs[i].label) == n &&
		    !strncmp(s->recs[i].label, cmd, n))
			return &s->recs[i];
	return NULL;
}

/* What boots when nobody touches the keyboard: ONTIMEOUT's label (even a
 * hidden one), else DEFAULT's unless hidden, else the top menu's MENU
 * DEFAULT (the last one wins, as m->defentry is overwritten), else the
 * first entry. */
static void sl_pick_default(struct sl_parse *s)
{
	struct sl_rec *r = sl_find(s, s->ontimeout);

	if (!r || (r->hidden && !r->added && entry_add(s->ctx->out, r->e)))
		r = NULL;
	else if (r && r->hidden && !r->added)
		r->added = true, s->added++;
	if (!r && (r = sl_find(s, s->dflt)) && r->hidden)
		r = NULL;
	for (size_t i = 0; !r && i < s->n_recs; i++)
		if (s->recs[s->n_recs - 1 - i].menudefault &&
		    s->recs[s->n_recs - 1 - i].added &&
		    s->recs[s->n_recs - 1 - i].top)
			r = &s->recs[s->n_recs - 1 - i];
	for (size_t i = 0; !r && i < s->n_recs; i++)
		if (s->recs[i].added)
			r = &s->recs[i];
	if (r && r->added && !s->group_base)
		r->e->is_default = true;
}

static void sl_finish(struct sl_parse *s)
{
	int t = s->timeout > 0 ? s->timeout : 0;

	sl_record(s);
	sl_pick_default(s);
	if (s->totaltimeout > 0 && (!t || s->totaltimeout < t))
		t = s->totaltimeout;
	/* 0 means wait forever: there is no value for that in the list */
	if (t > 0 && s->ctx->out->timeout_ds < 0 && !s->group_base)
		s->ctx->out->timeout_ds = t;
}

static void sl_init(struct sl_parse *s, struct cfg_ctx *ctx,
		    const struct sl_parse *parent, struct sl_seen *seen,
		    const char *path, const char *cwd)
{
	memset(s, 0, sizeof(*s));
	s->ctx = ctx;
	s->parent = parent;
	s->seen = seen;
	s->cwd =
	    cwd ? cfg_text_path(ctx->a, "/", cwd)
		: cfg_text_dirname(ctx->a, cfg_text_path(ctx->a, "/", path));
	s->timeout = s->totaltimeout = -1;
}

/* LABEL x / CONFIG file [/ APPEND dir]: syslinux restarts with that
 * config (and working directory); here its entries become a group named
 * after the label, so the menu shows both. */
static void sl_config_label(struct sl_parse *s, const struct sl_label *l)
{
	const char *w, *r;
	size_t wn, rn;
	struct sl_parse *sub;
	char *path;

	cfg_text_split_word(l->kernel, strlen(l->kernel), &w, &wn, &r, &rn);
	path =
	    cfg_text_path(s->ctx->a, s->cwd, arena_strndup(s->ctx->a, w, wn));
	if (s->depth + 1 >= CFG_INCLUDE_DEPTH ||
	    !cfg_budget(s->ctx, path, 1, 0) ||
	    (s->seen && seen_has(s->seen, sl_canon(s, path))))
		return;
	sub = calloc(1, sizeof(*sub));
	if (!sub)
		return;
	/* no directory given: the working directory stays (d-i's netboot
	 * prompt.cfg names its files from the TFTP root after CONFIG) */
	sl_init(sub, s->ctx, s, s->seen, path,
		rn	    ? arena_strndup(s->ctx->a, r, rn)
		: l->append ? l->append
			    : s->cwd);
	sub->depth = 0;
	sub->group_base =
	    l->menulabel ? sl_strip_caret(s->ctx->a, l->menulabel) : l->label;
	if (l->group)
		sub->group_base =
		    arena_printf(s->ctx->a, "%s>%s", l->group, sub->group_base);
	if (sl_read_file(sub, path) == -ENOENT)
		sl_warn(s, l->file, l->line, "CONFIG: no such file", path,
			strlen(path));
	sl_finish(sub);
	s->added += sub->added;
	free(sub);
}

static int sl_run(struct cfg_ctx *ctx, struct sl_seen *seen, const char *path,
		  const char *cwd, const char *buf, size_t len)
{
	struct sl_parse *s = calloc(1, sizeof(*s));
	int rc = 0, added;

	if (!s)
		return -ENOMEM;
	sl_init(s, ctx, NULL, seen, path, cwd);
	if (buf) {
		s->stack[s->depth++] = arena_strdup(ctx->a, path);
		sl_parse_text(s, path, buf, len);
		s->depth--;
	} else {
		rc = sl_read_file(s, path);
	}
	if (rc == 0)
		sl_finish(s);
	added = s->added;
	free(s);
	return rc < 0 ? rc : added;
}

int syslinux_parse_buf(struct cfg_ctx *ctx, const char *path, const char *cwd,
		       const char *buf, size_t len)
{
	struct sl_seen seen = {0};

	return sl_run(ctx, &seen, path, cwd, buf ? buf : "", buf ? len : 0);
}

int syslinux_parse_file(struct cfg_ctx *ctx, const char *path, const char *cwd)
{
	struct sl_seen seen = {0};

	return sl_run(ctx, &seen, path, cwd, NULL, 0);
}

/* --- where the configs are */

static const char *const sl_configs[] = {
    "/boot/extlinux/extlinux.conf",
    "/boot/extlinux/syslinux.cfg",
    "/extlinux/extlinux.conf",
    "/extlinux/syslinux.cfg",
    "/extlinux.conf",
    "/boot/syslinux/syslinux.cfg",
    "/boot/syslinux/extlinux.conf",
    "/syslinux/syslinux.cfg",
    "/syslinux/extlinux.conf",
    "/syslinux.cfg",
    "/isolinux/isolinux.cfg",
    "/boot/isolinux/isolinux.cfg",
    "/isolinux.cfg",
};

/* pxelinux.cfg/ sits in the TFTP root; paths in it are relative to that
 * root. */
static const char *const sl_tftp_roots[] = {
    "/", "/boot", "/srv/tftp", "/tftpboot", "/var/lib/tftpboot",
};

/* PXELINUX tries pxelinux.cfg/<client UUID>, 01-<MAC>, the hex IP
 * address shortened one digit at a time, then "default". A local disk
 * has no client, so only "default" can be chosen. */
static void sl_pxe(struct cfg_ctx *ctx, struct sl_seen *seen, const char *root)
{
	char *dir = cfg_text_path(ctx->a, root, "pxelinux.cfg");
	char *dflt = cfg_text_path(ctx->a, dir, "default"), **names;
	size_t n = 0, others = 0;

	if (fs_list(ctx->fs, dir, ctx->a, &names, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++)
		others += strcmp(names[i], "default") != 0;
	if (others)
		entry_warn(ctx->out, ctx->fs, dir, 0,
			   "%zu per-client config(s) chosen by MAC or IP at "
			   "network boot: only 'default' is read from a disk",
			   others);
	if (fs_is_file(ctx->fs, dflt) && !seen_has(seen, dflt))
		sl_run(ctx, seen, dflt, root, NULL, 0);
}

int syslinux_parse_fs(struct cfg_ctx *ctx)
{
	struct sl_seen seen = {0};

	for (size_t i = 0; i < sizeof(sl_configs) / sizeof(sl_configs[0]);
	     i++) {
		char *real;

		if (!fs_is_file(ctx->fs, sl_configs[i]))
			continue;
		if (fs_realpath(ctx->fs, sl_configs[i], ctx->a, &real) < 0)
			real = (char *)sl_configs[i];
		if (seen_has(&seen, real))
			continue;
		sl_run(ctx, &seen, sl_configs[i], NULL, NULL, 0);
	}
	for (size_t i = 0; i < sizeof(sl_tftp_roots) / sizeof(sl_tftp_roots[0]);
	     i++)
		sl_pxe(ctx, &seen, sl_tftp_roots[i]);
	return 0;
}
