/* syslinux.c - reading one SYSLINUX, EXTLINUX, ISOLINUX or PXELINUX
 * config into labels.
 *
 * Follows syslinux 6's ldlinux readconfig.c: keywords are
 * case-insensitive and must be followed by a blank or the end of the
 * line; INCLUDE reads a file as if pasted in; a LABEL is recorded when
 * the next LABEL, MENU BEGIN, MENU END or MENU SEPARATOR starts, or at
 * the end, with the global APPEND of that moment. Relative paths resolve
 * against the working directory: the main config's directory (CONFIG
 * may change it), not the directory of an INCLUDEd file. What the labels
 * become at boot is syslinux_boot.c's.
 */
#include "cfg/syslinux_int.h"
#include "cfg/cfg_text.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void sl_warn(struct sl_parse *s, const char *file, int line, const char *msg,
	     const char *arg, size_t n)
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
char *sl_strip_caret(struct arena *a, const char *t)
{
	char *out = arena_strdup(a, t), *w = out;

	for (const char *p = t; *p; p++)
		if (*p != '^')
			*w++ = *p;
	*w = '\0';
	return out;
}

void sl_seen_add(struct arena *a, struct sl_seen *seen, const char *path)
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

bool sl_seen_has(const struct sl_seen *seen, const char *path)
{
	for (size_t i = 0; i < seen->n; i++)
		if (!strcmp(seen->v[i], path))
			return true;
	return false;
}

/* The file as the fs sees it after symlinks, for loop and repeat checks. */
const char *sl_canon(struct sl_parse *s, const char *path)
{
	char *real;

	if (fs_realpath(s->ctx->fs, path, s->ctx->a, &real) == 0)
		return real;
	return path;
}

/* syslinux picks the loader for KERNEL by the file's extension. */
enum sl_type sl_type_by_name(const char *file)
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

/* pxe.c: a path starting "::" is absolute on the TFTP server; other
 * loaders have no TFTP server to ask. lpxelinux also takes addresses
 * ("http://server/vmlinuz", "tftp://..."), kept as written for the
 * network root to fetch; from a disk they cannot be read either. */
char *sl_path(struct sl_parse *s, const char *name, bool *net)
{
	const char *colon = strstr(name, "://");

	if (colon && colon > name &&
	    !memchr(name, '/', (size_t)(colon - name))) {
		if (s->variant != SL_VAR_PXELINUX || !s->ctx->fs->net)
			*net = true;
		return arena_strdup(s->ctx->a, name);
	}
	if (strncmp(name, "::", 2))
		return cfg_text_path(s->ctx->a, s->cwd, name);
	if (s->variant != SL_VAR_PXELINUX)
		*net = true;
	name += 2;
	return cfg_text_path(s->ctx->a, s->tftp_root ? s->tftp_root : "/",
			     name + strspn(name, "/"));
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

/* readconfig.c record(): the label joins the list, with the global
 * APPEND of this moment (a label without its own APPEND takes that). */
void sl_record(struct sl_parse *s)
{
	struct sl_label *l = &s->cur;
	struct sl_rec r = {0};

	if (!l->active)
		return;
	l->active = false;
	if (l->noboot)
		return;
	if (s->n_recs >= SYSLINUX_LABELS_MAX) {
		sl_warn(s, l->file, l->line, "too many labels: dropped",
			l->label, strlen(l->label));
		return;
	}
	r.l = *l;
	r.append = s->append;
	r.top = s->menu_depth == 0;
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

static void kw_ui(struct sl_parse *s, const char *file, int line,
		  const char *arg, size_t n)
{
	/* readconfig.c: UI takes precedence over DEFAULT as what runs */
	s->ui = sl_arg(s, arg, n);
	(void)file, (void)line;
}

static void kw_prompt(struct sl_parse *s, const char *file, int line,
		      const char *arg, size_t n)
{
	s->prompt = atoi(sl_arg(s, arg, n));
	(void)file, (void)line;
}

static void menu_begin(struct sl_parse *s, const char *arg, size_t n);
static void menu_end(struct sl_parse *s);

static void sl_include(struct sl_parse *s, const char *file, int line,
		       const char *arg, size_t n, const char *tag)
{
	const char *w, *r;
	size_t wn, rn;
	bool net = false;
	char *path;

	cfg_text_split_word(arg, n, &w, &wn, &r, &rn);
	if (!wn)
		return;
	path = sl_path(s, arena_strndup(s->ctx->a, w, wn), &net);
	if (net) {
		sl_warn(s, file, line, SL_NET_REASON ", not read:", w, wn);
		return;
	}
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
	if (s->group_base && s->seen && sl_seen_has(s->seen, sl_canon(s, path)))
		return;
	if (tag)
		menu_begin(s, tag, strlen(tag));
	/* a missing file is skipped without a word, as syslinux does:
	 * d-i's text netboot menu.cfg names the gtk variant's files */
	sl_read_file(s, path);
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
    {"ui", kw_ui},
    {"prompt", kw_prompt},
    /* accepted; nothing for a kexec menu to do with them */
    {"say", kw_ignore},
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

/* MENU SEPARATOR ends the label being defined (readconfig.c records
 * it, then an empty, disabled line): what follows until the next LABEL
 * is global again. */
static void menu_separator(struct sl_parse *s)
{
	sl_record(s);
}

/* MENU INCLUDE file [tag]: with a tag, the file's labels are a submenu. */
static void menu_include(struct sl_parse *s, const char *file, int line,
			 const char *r, size_t rn)
{
	const char *f, *tag;
	size_t fn, tn;

	cfg_text_split_word(r, rn, &f, &fn, &tag, &tn);
	sl_include(s, file, line, f, fn,
		   tn ? arena_strndup(s->ctx->a, tag, tn) : NULL);
}

/* The MENU words that set a flag of the label being defined. */
static bool menu_flag(struct sl_parse *s, const char *w, size_t wn)
{
	struct sl_label *l = &s->cur;
	static const struct {
		const char *word;
		size_t off;
	} flags[] = {
	    {"default", offsetof(struct sl_label, menudefault)},
	    {"hide", offsetof(struct sl_label, hide)},
	    {"disable", offsetof(struct sl_label, disabled)},
	    {"disabled", offsetof(struct sl_label, disabled)},
	    {"passwd", offsetof(struct sl_label, passwd)},
	    /* MENU QUIT/GOTO/EXIT labels leave a menu: nothing to boot */
	    {"quit", offsetof(struct sl_label, noboot)},
	    {"goto", offsetof(struct sl_label, noboot)},
	    {"exit", offsetof(struct sl_label, noboot)},
	};

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		if (cfg_text_eq_nocase(w, wn, flags[i].word)) {
			*(bool *)((char *)l + flags[i].off) |= l->active;
			return true;
		}
	}
	return false;
}

static void kw_menu(struct sl_parse *s, const char *file, int line,
		    const char *arg, size_t n)
{
	const char *w, *r;
	size_t wn, rn;

	cfg_text_split_word(arg, n, &w, &wn, &r, &rn);
	if (menu_flag(s, w, wn))
		return;
	if (cfg_text_eq_nocase(w, wn, "label"))
		menu_label(s, r, rn, false);
	else if (cfg_text_eq_nocase(w, wn, "title"))
		menu_label(s, r, rn, true);
	else if (cfg_text_eq_nocase(w, wn, "begin"))
		menu_begin(s, r, rn);
	else if (cfg_text_eq_nocase(w, wn, "end"))
		menu_end(s);
	else if (cfg_text_eq_nocase(w, wn, "separator"))
		menu_separator(s);
	else if (cfg_text_eq_nocase(w, wn, "include"))
		menu_include(s, file, line, r, rn);
	/* the rest (colours, layout, messages, ...) only change how
	 * syslinux draws its menu */
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

int sl_parse_text(struct sl_parse *s, const char *path, const char *buf,
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

int sl_read_file(struct sl_parse *s, const char *path)
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
		char why[256];

		if (rc != -ENOENT)
			entry_warn(s->ctx->out, s->ctx->fs, path, 0,
				   "cannot read: %s",
				   fs_strerror(s->ctx->fs, path, rc, why,
					       sizeof(why)));
		return rc;
	}
	if (!cfg_budget(s->ctx, path, 0, len)) {
		free(buf);
		return -ECANCELED;
	}
	if (s->seen)
		sl_seen_add(s->ctx->a, s->seen, canon);
	s->stack[s->depth++] = arena_strdup(s->ctx->a, canon);
	sl_parse_text(s, path, buf, len);
	s->depth--;
	free(buf);
	return 0;
}
