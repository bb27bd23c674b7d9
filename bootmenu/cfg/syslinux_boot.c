/* syslinux_boot.c - what ldlinux does with a config's labels, as entries.
 *
 * With no key pressed, ldlinux.c's main() runs UI's command, else
 * DEFAULT's unless PROMPT asks for the boot: prompt; load_kernel() looks
 * the command's first word up as a label, else takes it as a file named
 * on the spot. A COM32 menu (vesamenu.c32, menu.c32) shows the labels; a
 * dispatcher (whichsys.c32, ifcpu64.c32, ifcpu.c32) runs the command of
 * its branch for this variant and a 64-bit x86 CPU; CONFIG starts over
 * with another config (execute.c: a new ldlinux, its own labels, DEFAULT
 * and working directory). Whatever is shown becomes the entries.
 *
 * An entry's command line is what new_linux_kernel() hands the kernel:
 * "BOOT_IMAGE=<kernel> <args>", args being the label's APPEND (or the
 * global one; "APPEND -" means none) then " initrd=<INITRD>"; the first
 * "initrd=" in it names the initrds, comma-separated, and stays on the
 * command line as syslinux leaves it.
 */
#include "cfg/syslinux_boot.h"
#include "cfg/cfg_text.h"
#include "cfg/syslinux_com32.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What a command runs, found the way load_kernel() finds it. */
struct sl_target {
	struct sl_label l;   /* the label, or the command dressed as one */
	const char *gappend; /* the global APPEND the label saw */
	const char *extra;   /* words typed after the label's name */
	struct sl_rec *rec;  /* the label, when the command named one */
	const char *why;     /* why it cannot be followed, or NULL */
};

static void sl_finish(struct sl_parse *s);

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
			       "bootable with kexec";
		return arena_printf(a,
				    "COM32 module %s: not a Linux kernel, "
				    "not bootable with kexec",
				    base);
	case SL_COMBOOT:
		return arena_printf(a,
				    "COMBOOT program %s: not bootable "
				    "with kexec",
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

/* --- finding what a command runs */

/* ldlinux find_label(): the first label named by the command's first
 * word, case and all. */
static struct sl_rec *sl_find(struct sl_parse *s, const char *cmd)
{
	size_t n;

	if (!cmd)
		return NULL;
	n = strcspn(cmd, " \t");
	for (size_t i = 0; i < s->n_recs; i++)
		if (!s->recs[i].l.disabled && strlen(s->recs[i].l.label) == n &&
		    !strncmp(s->recs[i].l.label, cmd, n))
			return &s->recs[i];
	return NULL;
}

/* execute.c's type specifiers: ".config file", ".com32 x.c32 args". */
static bool sl_specifier(const char *w, size_t wn, enum sl_type *type)
{
	static const struct {
		const char *name;
		enum sl_type type;
	} specs[] = {
	    {".kernel", SL_LINUX},    {".linux", SL_LINUX},
	    {".boot", SL_BOOTSECT},   {".bss", SL_BOOTSECT},
	    {".pxe", SL_PXE},	      {".fdimage", SL_FDIMAGE},
	    {".comboot", SL_COMBOOT}, {".com32", SL_COM32},
	    {".config", SL_CONFIG},   {".localboot", SL_LOCALBOOT},
	};

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		if (wn == strlen(specs[i].name) &&
		    !strncmp(w, specs[i].name, wn)) {
			*type = specs[i].type;
			return true;
		}
	}
	return false;
}

static void sl_target_of(struct sl_parse *s, const char *cmd,
			 struct sl_target *t)
{
	const char *w, *r;
	size_t wn, rn;

	memset(t, 0, sizeof(*t));
	cfg_text_split_word(cmd, strlen(cmd), &w, &wn, &r, &rn);
	t->rec = sl_find(s, cmd);
	if (t->rec) {
		t->l = t->rec->l;
		t->gappend = t->rec->append;
		t->extra = rn ? arena_strndup(s->ctx->a, r, rn) : NULL;
		return;
	}
	/* a file named on the spot: its own arguments, no APPEND */
	t->l.label = arena_strndup(s->ctx->a, w, wn);
	t->l.append = "";
	t->l.kernel = arena_strndup(s->ctx->a, w, strlen(w));
	if (sl_specifier(w, wn, &t->l.type))
		t->l.kernel = arena_strndup(s->ctx->a, r, rn);
	else
		t->l.type = sl_type_by_name(t->l.kernel);
}

/* The words a COM32 module gets: its own, then APPEND, then the extra. */
static char *sl_com32_args(struct sl_parse *s, const struct sl_target *t)
{
	const char *app = t->l.append ? t->l.append : t->gappend;
	const char *k = t->l.kernel + strcspn(t->l.kernel, " \t");

	if (!app || !strcmp(app, "-"))
		app = "";
	return cfg_text_join(
	    s->ctx->a,
	    cfg_text_join(s->ctx->a, cfg_text_trimdup(s->ctx->a, k, strlen(k)),
			  app),
	    t->extra);
}

static bool sl_follow(struct sl_parse *s, const char *cmd, struct sl_target *t,
		      int depth);

/* A dispatcher in @t runs its branch's command: follow it. */
static bool sl_dispatch(struct sl_parse *s, struct sl_target *t, int depth)
{
	const char *branch;

	if (t->l.type != SL_COM32 || !sl_com32_dispatcher(t->l.kernel))
		return true;
	if (depth >= SYSLINUX_DISPATCH_DEPTH) {
		t->why = "COM32 dispatchers chained too deep: not followed";
		return false;
	}
	branch = sl_com32_branch(s, t->l.kernel, sl_com32_args(s, t), &t->why);
	if (!branch)
		return false;
	/* an empty branch runs the default (syslinux_run_default()) */
	if (!*branch)
		branch = s->ui ? s->ui : s->dflt;
	if (!branch) {
		t->why = "its branch runs DEFAULT, and there is none";
		return false;
	}
	return sl_follow(s, branch, t, depth + 1);
}

/* What @cmd runs, through dispatchers. False (t->why set) when it
 * cannot be followed. */
static bool sl_follow(struct sl_parse *s, const char *cmd, struct sl_target *t,
		      int depth)
{
	if (!*cmd) {
		memset(t, 0, sizeof(*t));
		t->l.label = t->l.kernel = "";
		t->why = "an empty command: nothing to run";
		return false;
	}
	sl_target_of(s, cmd, t);
	return sl_dispatch(s, t, depth);
}

/* --- entries */

/* Take the initrds from the first "initrd=" of @cmdline, as
 * new_linux_kernel() does: names up to a blank, separated by commas. */
static void sl_initrds(struct sl_parse *s, struct entry *e, const char *cmdline,
		       bool *net)
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

			entry_add_initrd(s->ctx->out, e, NULL,
					 sl_path(s, name, net));
		}
		p += n;
	} while (*p == ',');
}

#define SL_MBOOT_MODULES 16 /* modules one mboot.c32 entry records */

/* The next " --- " of mboot.c32's arguments (a word of its own), or NULL. */
static char *sl_mboot_sep(char *buf, char *p)
{
	char *sep = strstr(p, "---");

	while (sep && !((sep == buf || sep[-1] == ' ' || sep[-1] == '\t') &&
			(!sep[3] || sep[3] == ' ' || sep[3] == '\t')))
		sep = strstr(sep + 3, "---");
	return sep;
}

/* One part of mboot.c32's arguments: its first word is the file, the
 * whole part the string the kernel gets (com32/mboot: the kernel's name
 * first, which Xen skips). */
static const char *sl_mboot_part(struct sl_parse *s, struct entry *e,
				 const char *part, bool first, bool *net)
{
	struct arena *a = s->ctx->a;
	const char *w, *r, *path, **args;
	size_t wn, rn;
	struct entry_file *v;

	cfg_text_split_word(part, strlen(part), &w, &wn, &r, &rn);
	if (!wn)
		return "mboot.c32 is given an empty kernel or module";
	path = sl_path(s, arena_strndup(a, w, wn), net);
	if (first) {
		e->kernel.path = path;
		e->cmdline = part;
		return NULL;
	}
	if (e->n_modules >= SL_MBOOT_MODULES)
		return "more modules than bootmenu loads";
	v = arena_alloc(a, (e->n_modules + 1) * sizeof(*v));
	args = arena_alloc(a, (e->n_modules + 1) * sizeof(*args));
	for (size_t i = 0; i < e->n_modules; i++) {
		v[i] = e->modules[i];
		args[i] = e->module_args[i];
	}
	v[e->n_modules] = (struct entry_file){NULL, path, NULL};
	args[e->n_modules] = part;
	e->modules = v;
	e->module_args = args;
	e->n_modules++;
	return NULL;
}

/* mboot.c32 KERNEL ARGS --- MODULE ARGS --- ...: a multiboot (v1)
 * kernel, Xen in practice, and its modules. Returns why it cannot boot,
 * or NULL. */
static const char *sl_mboot(struct sl_parse *s, struct entry *e,
			    const char *args, bool *net)
{
	char *buf = arena_strdup(s->ctx->a, args), *p = buf, *sep;
	const char *why = NULL;
	bool first = true;

	e->multiboot = 1;
	do {
		sep = sl_mboot_sep(buf, p);
		if (sep)
			*sep = '\0';
		why = sl_mboot_part(s, e,
				    cfg_text_trimdup(s->ctx->a, p, strlen(p)),
				    first, net);
		first = false;
		p = sep ? sep + 3 : NULL;
	} while (!why && p);
	return why;
}

/* "KERNEL file args": the file, and the args that go before APPEND's;
 * words typed after a label's name go last (load_kernel()). Returns why
 * it cannot boot, or NULL. */
static const char *sl_entry_boot(struct sl_parse *s, struct entry *e,
				 const struct sl_target *t)
{
	struct arena *a = s->ctx->a;
	const struct sl_label *l = &t->l;
	const char *w, *r, *args, *app = l->append ? l->append : t->gappend;
	size_t wn, rn;
	char *file;
	bool net = false;

	cfg_text_split_word(l->kernel, strlen(l->kernel), &w, &wn, &r, &rn);
	file = arena_strndup(a, w, wn);
	if (!app || !strcmp(app, "-"))
		app = "";
	args = cfg_text_join(a, arena_strndup(a, r, rn), app);
	if (l->initrd)
		args = arena_printf(a, "%s initrd=%s", args, l->initrd);
	args = cfg_text_join(a, args, t->extra);
	if (l->type == SL_COM32 &&
	    !strcasecmp(cfg_text_basename(file), "mboot.c32")) {
		const char *why = sl_mboot(s, e, args, &net);

		return t->why ? t->why : why ? why : net ? SL_NET_REASON : NULL;
	}
	e->kernel.path = sl_path(s, file, &net);
	e->cmdline =
	    cfg_text_join(a, arena_printf(a, "BOOT_IMAGE=%s", file), args);
	if (l->type == SL_LINUX)
		sl_initrds(s, e, e->cmdline, &net);
	if (l->fdt)
		e->devicetree = sl_path(s, l->fdt, &net);
	if (t->why)
		return t->why;
	return net ? SL_NET_REASON : sl_disabled_reason(a, l->type, file);
}

/* The entry of label @shown, booting what @t names (the label itself,
 * or the branch a dispatcher label takes). */
static struct entry *sl_make_entry(struct sl_parse *s,
				   const struct sl_rec *shown,
				   const struct sl_target *t)
{
	struct arena *a = s->ctx->a;
	const struct sl_label *l = &shown->l;
	struct entry *e = entry_new(s->ctx->out, FMT_SYSLINUX, s->ctx->fs);

	e->id = arena_strdup(a, l->label);
	e->title = l->menulabel ? sl_strip_caret(a, l->menulabel) : e->id;
	e->group = l->group;
	e->source = l->file;
	e->line = l->line;
	e->password = l->passwd;
	if (t->l.type == SL_LOCALBOOT)
		e->disabled = sl_disabled_reason(a, SL_LOCALBOOT, NULL);
	else
		e->disabled = sl_entry_boot(s, e, t);
	if (l->disabled && !e->disabled)
		e->disabled = "MENU DISABLE: shown but not selectable";
	return e;
}

/* --- CONFIG */

/* CONFIG file [dir]: the file, from the working directory, and the new
 * working directory (the old one when none is named: execute.c only
 * chdirs when given one). The label's APPEND can name it too. */
static const char *sl_config_where(struct sl_parse *s,
				   const struct sl_target *t, const char **dir)
{
	const char *w, *r;
	size_t wn, rn;
	bool net = false;
	char *path;

	cfg_text_split_word(t->l.kernel, strlen(t->l.kernel), &w, &wn, &r, &rn);
	path = sl_path(s, arena_strndup(s->ctx->a, w, wn), &net);
	*dir = s->cwd;
	if (rn)
		*dir = cfg_text_path(s->ctx->a, s->cwd,
				     arena_strndup(s->ctx->a, r, rn));
	else if (t->l.append && *t->l.append)
		*dir = cfg_text_path(s->ctx->a, s->cwd, t->l.append);
	return net ? NULL : path;
}

/* Read the config CONFIG names, its labels in group @group, into a
 * calloc'd parse the caller frees. NULL when there is nothing to read. */
static struct sl_parse *sl_config_open(struct sl_parse *s,
				       const struct sl_target *t,
				       const char *group, const char *file,
				       int line)
{
	const char *dir, *path = sl_config_where(s, t, &dir);
	struct sl_parse *sub;
	int rc;

	if (!path || !cfg_budget(s->ctx, path, 1, 0))
		return NULL;
	sub = calloc(1, sizeof(*sub));
	if (!sub)
		return NULL;
	sl_init(sub, s->ctx, s, path, dir);
	sub->group_base = group;
	rc = sl_read_file(sub, path);
	if (rc < 0) {
		if (rc == -ENOENT)
			sl_warn(s, file, line, "CONFIG: no such file", path,
				strlen(path));
		free(sub);
		return NULL;
	}
	return sub;
}

/* A CONFIG label the menu shows: choosing it shows the other config's
 * menu, here a group named after the label. */
static void sl_config_group(struct sl_parse *s, const struct sl_rec *r,
			    const struct sl_target *t)
{
	const char *dir, *path = sl_config_where(s, t, &dir), *group;
	const struct sl_label *l = &r->l;
	struct sl_parse *sub;

	if (!path || s->chain >= SYSLINUX_CONFIG_DEPTH ||
	    (s->seen && sl_seen_has(s->seen, sl_canon(s, path))))
		return;
	group =
	    l->menulabel ? sl_strip_caret(s->ctx->a, l->menulabel) : l->label;
	if (l->group)
		group = arena_printf(s->ctx->a, "%s>%s", l->group, group);
	sub = sl_config_open(s, t, group, l->file, l->line);
	if (!sub)
		return;
	sl_finish(sub);
	s->added += sub->added;
	free(sub);
}

/* The boot runs CONFIG at once: that config replaces this one. */
static bool sl_config_replace(struct sl_parse *s, const struct sl_target *t)
{
	/* a command (DEFAULT .config x.cfg) has no label: the config */
	const char *file = t->rec ? t->rec->l.file : s->path;
	int line = t->rec ? t->rec->l.line : 0;
	struct sl_parse *sub;

	if (s->chain >= SYSLINUX_CONFIG_DEPTH) {
		entry_warn(s->ctx->out, s->ctx->fs, file, line,
			   "CONFIG followed %d times: not followed further",
			   SYSLINUX_CONFIG_DEPTH);
		return false;
	}
	sub = sl_config_open(s, t, s->group_base, file, line);
	if (!sub)
		return false;
	sl_finish(sub);
	s->added += sub->added;
	free(sub);
	return true;
}

/* --- the end of a config */

/* What a label runs, through a dispatcher when it is one. */
static void sl_rec_target(struct sl_parse *s, struct sl_rec *r,
			  struct sl_target *t)
{
	memset(t, 0, sizeof(*t));
	t->l = r->l;
	t->gappend = r->append;
	t->rec = r;
	sl_dispatch(s, t, 0);
}

static void sl_emit(struct sl_parse *s)
{
	for (size_t i = 0; i < s->n_recs; i++) {
		struct sl_rec *r = &s->recs[i];
		struct sl_target t;

		if (r->is_menu)
			continue;
		sl_rec_target(s, r, &t);
		if (t.l.type == SL_CONFIG && !t.why) {
			if (!r->l.hide && !r->l.disabled && !r->broken)
				sl_config_group(s, r, &t);
			continue;
		}
		r->e = sl_make_entry(s, r, &t);
		if (!r->l.hide && entry_add(s->ctx->out, r->e) == 0) {
			r->added = true;
			s->added++;
		}
	}
}

/* ldlinux.c main(): with no key pressed UI's command runs, else
 * DEFAULT's unless PROMPT shows the boot: prompt first. True when that
 * is a CONFIG, which then replaced this config. */
static bool sl_boot_replaces(struct sl_parse *s)
{
	const char *cmd = s->ui ? s->ui : s->dflt;
	struct sl_target t;

	if (!cmd || (!s->ui && s->prompt))
		return false;
	if (!sl_follow(s, cmd, &t, 0))
		return false;
	if (t.l.type == SL_COM32 && sl_com32_menu(t.l.kernel)) {
		/* "DEFAULT m" with "LABEL m / KERNEL vesamenu.c32": that
		 * label is the menu, not an entry of it */
		if (t.rec)
			t.rec->is_menu = true;
		return false;
	}
	if (t.l.type != SL_CONFIG)
		return false;
	if (sl_config_replace(s, &t))
		return true;
	if (t.rec) /* warned once: not offered again as a group */
		t.rec->broken = true;
	return false;
}

/* @r when it is listed; a hidden one is listed when @hidden_ok. */
static struct sl_rec *sl_listed(struct sl_parse *s, struct sl_rec *r,
				bool hidden_ok)
{
	if (!r || !r->e || r->is_menu)
		return NULL;
	if (r->added)
		return r;
	if (!hidden_ok || entry_add(s->ctx->out, r->e))
		return NULL;
	r->added = true;
	s->added++;
	return r;
}

/* What boots when nobody touches the keyboard: ONTIMEOUT's label (even a
 * hidden one), else DEFAULT's unless hidden, else the top menu's MENU
 * DEFAULT (the last one wins, as m->defentry is overwritten), else the
 * first entry. */
static void sl_pick_default(struct sl_parse *s)
{
	struct sl_rec *r = sl_listed(s, sl_find(s, s->ontimeout), true);

	if (!r)
		r = sl_listed(s, sl_find(s, s->dflt), false);
	for (size_t i = s->n_recs; !r && i > 0; i--)
		if (s->recs[i - 1].l.menudefault && s->recs[i - 1].top)
			r = sl_listed(s, &s->recs[i - 1], false);
	for (size_t i = 0; !r && i < s->n_recs; i++)
		r = sl_listed(s, &s->recs[i], false);
	if (r && !s->group_base)
		r->e->is_default = true;
}

static void sl_finish(struct sl_parse *s)
{
	int t = s->timeout > 0 ? s->timeout : 0;

	sl_record(s);
	if (sl_boot_replaces(s))
		return;
	sl_emit(s);
	sl_pick_default(s);
	if (s->totaltimeout > 0 && (!t || s->totaltimeout < t))
		t = s->totaltimeout;
	/* syslinux: TIMEOUT is in 1/10 s; 0 means wait forever, and there
	 * is no value for that in the list */
	if (t > 0 && s->ctx->out->timeout_ds < 0 && !s->group_base)
		s->ctx->out->timeout_ds = t;
}

void sl_init(struct sl_parse *s, struct cfg_ctx *ctx,
	     const struct sl_parse *parent, const char *path, const char *cwd)
{
	memset(s, 0, sizeof(*s));
	s->ctx = ctx;
	s->parent = parent;
	s->path = cfg_text_path(ctx->a, "/", path);
	s->cwd =
	    cwd ? cfg_text_path(ctx->a, "/", cwd)
		: cfg_text_dirname(ctx->a, cfg_text_path(ctx->a, "/", path));
	s->timeout = s->totaltimeout = -1;
	if (!parent)
		return;
	s->seen = parent->seen;
	s->variant = parent->variant;
	s->tftp_root = parent->tftp_root;
	s->chain = parent->chain + 1;
}

int sl_run(struct cfg_ctx *ctx, struct sl_seen *seen, enum sl_variant variant,
	   const char *tftp_root, const char *path, const char *cwd,
	   const char *buf, size_t len)
{
	struct sl_parse *s = calloc(1, sizeof(*s));
	int rc = 0, added;

	if (!s)
		return -ENOMEM;
	sl_init(s, ctx, NULL, path, cwd);
	s->seen = seen;
	s->variant = variant;
	s->tftp_root = tftp_root;
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
