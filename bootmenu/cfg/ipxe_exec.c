/* ipxe_exec.c - running the iPXE script subset (iPXE's src/image/script.c,
 * core/exec.c, core/settings.c, hci/commands/), and its entries.
 *
 * A script is run, not just read: ipxe_parse.c has split it into lines
 * of words (and labels); here "||", "&&" and ";" join commands as in
 * iPXE, then every word's ${...} are expanded. As in iPXE, a command that
 * fails with nothing after it ends the script.
 *
 * What the commands do here:
 * - kernel/imgselect/imgload URI [args]: fetch and select; initrd/module/
 *   imgfetch URI [args]: fetch; imgargs NAME [args]: replace NAME's
 *   arguments; imgfree [NAME...]: forget images. --name/-n names the image
 *   (else the URI's last component does); --timeout, --quiet, --autofree
 *   and --replace are accepted and change nothing here.
 * - boot/chain/imgexec [URI [args]] makes one entry: that image as the
 *   kernel, its arguments as the command line, every image fetched as an
 *   initrd since the last boot as its initrds. iPXE never comes back from
 *   a boot that works; here the boot counts as done, its images are
 *   forgotten (so the next kernel ... boot group is an entry of its own,
 *   without the first one's initrds) and the script goes on, so a script
 *   with two boots yields two entries; `boot || goto x` does not take x.
 *   Inside a menu item the item's first boot ends it (one item, one
 *   entry).
 * - set/clear change the variable table the caller gave; isset and iseq
 *   are evaluated, so `isset ${x} || goto y` follows the right branch.
 * - goto follows labels forward and back; a path that takes more than
 *   IPXE_GOTO_MAX of them ends with a warning, and IPXE_STEPS_MAX bounds
 *   the commands of all paths together, IPXE_EXPAND_BYTES_MAX the text
 *   their ${...} write.
 * - menu/item/choose VAR: each selectable item is one path, run from the
 *   command after choose with VAR set to the item's name; what it boots
 *   is an entry titled with the item's text. A choose inside an item is a
 *   submenu: its entries' group is the outer item's text ("Linux>...").
 *   A path that comes back to a choose it went through (`goto start`
 *   after a failed boot) ends there. The default item (choose --default,
 *   else item --default, else the first) marks the default entry; choose
 *   --timeout (ms) of the top menu becomes the menu's timeout.
 * - dhcp, ifopen, ifconf and the other network and display commands
 *   succeed and do nothing: bootmenu already has its lease. cpuid
 *   succeeds (bootmenu runs on x86-64, which is what `cpuid --ext 29`
 *   tests for); prompt fails, as its timeout does when nobody presses the
 *   key; exit, reboot and poweroff end the path. Any other command is
 *   warned about with its line and skipped as if it had succeeded.
 *
 * ${name}, ${block/name} and ${name:type} follow expand_settings(): the
 * innermost ${...} first, again until none is left (so ${net${i}/mac}
 * works). The part after ':' is a type, not a default: string, ipv4,
 * hex and the others keep the value as the caller formatted it; hexhyp
 * and hexraw rewrite a "52:54:..." value, uristring %-escapes it as
 * iPXE's uri_encode() does; an unknown type expands to nothing, with a
 * warning. A variable nobody set expands to nothing, with a warning.
 *
 * Names: a URL (scheme://...) is kept verbatim as the kernel or initrd
 * path; from a disk its entry is disabled as only reachable over the
 * network, on a network root (fs_net) the root fetches it (https is not
 * supported yet); any other name resolves against the script's
 * directory, as iPXE resolves it against the script's URI.
 */
#include "cfg/ipxe_exec.h"
#include "cfg/cfg_text.h"
#include "cfg/ipxe_parse.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define IPXE_END SIZE_MAX /* a path's next line when it has ended */

struct ipxe_image {
	const char *name, *file, *args;
	bool kernel; /* selected once (kernel): not an initrd */
};

struct ipxe_item {
	const char *label, *text;
	bool dflt;
};

/* What one path through the script has built; a menu item copies it. */
struct ipxe_state {
	struct ipxe_var *vars;
	size_t n_vars, cap_vars;
	struct ipxe_image img[IPXE_IMAGES_MAX];
	size_t n_img;
	int sel;		   /* the selected image, -1 none */
	struct ipxe_item *items;   /* shared with the paths it was copied to: */
	size_t n_items, cap_items; /* never written, copied to grow */
	bool menu;		   /* a menu is being built */
	const char *title, *group, *id; /* the items chosen to get here */
	size_t chose[CFG_SUBMENU_DEPTH];
	int depth;
	unsigned gotos;
	bool dflt; /* every choice on the way was the default one */
};

/* A label and its line: the script's labels sorted by name, then line. */
struct ipxe_label {
	const char *name;
	size_t pc;
};

struct ipxe_exec {
	struct cfg_ctx *ctx;
	const char *file, *dir;
	struct ipxe_script sc;
	struct ipxe_label *labels; /* goto looks up here, not in every */
	size_t n_labels;	   /* line: a loop cost lines x gotos */
	unsigned long steps;
	size_t expanded; /* bytes ${...} expansion wrote, for its budget */
	bool spent, full, have_default;
	int added;
	char *buf[2]; /* IPXE_LINE_MAX + 1 each */
	/* The expanded words of the command running at each menu depth: one
	 * arena per depth, emptied once past IPXE_SCRATCH_MAX (a fresh one
	 * per command would cost a 64 KiB allocation each). */
	struct arena tmp[CFG_SUBMENU_DEPTH + 1];
};

#define IPXE_SCRATCH_MAX (256u << 10)

/* One command being run. */
struct ipxe_cmd {
	int line;
	size_t pc, seg;	 /* its line and its place among the line's commands */
	const char *sep; /* "||", "&&", ";" after it, or NULL */
	struct arena *tmp; /* its expanded words (ipxe_exec.tmp) */
	char **argv;
	size_t argc;
	bool jump;   /* the path goes on at @next (a label, or IPXE_END), */
	size_t next; /* not with the rest of the line */
};

static void ipxe_jump(struct ipxe_cmd *c, size_t pc)
{
	c->jump = true;
	c->next = pc;
}

static void ipxe_warn(struct ipxe_exec *s, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void ipxe_warn(struct ipxe_exec *s, int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	entry_warn(s->ctx->out, s->ctx->fs, s->file, line, "ipxe: %s", msg);
}

/* --- variables */

static const char *ipxe_lookup(const struct ipxe_state *st, const char *key)
{
	for (size_t i = st->n_vars; i-- > 0;)
		if (!strcmp(st->vars[i].name, key))
			return st->vars[i].value;
	if (strchr(key, '/'))
		return NULL;
	/* settings.c: a name without a block is looked for in every block */
	for (size_t i = 0; i < st->n_vars; i++) {
		const char *slash = strrchr(st->vars[i].name, '/');

		if (slash && st->vars[i].value && !strcmp(slash + 1, key))
			return st->vars[i].value;
	}
	return NULL;
}

static void ipxe_store(struct ipxe_exec *s, struct ipxe_state *st,
		       const char *key, const char *value, int line)
{
	struct arena *a = s->ctx->a;

	for (size_t i = 0; i < st->n_vars; i++)
		if (!strcmp(st->vars[i].name, key)) {
			st->vars[i].value = arena_strdup(a, value);
			return;
		}
	if (st->n_vars == IPXE_VARS_MAX) {
		ipxe_warn(s, line, "more than %d variables: '%.64s' is not set",
			  IPXE_VARS_MAX, key);
		return;
	}
	if (st->n_vars == st->cap_vars) {
		size_t cap = st->cap_vars ? st->cap_vars * 2 : 16;
		struct ipxe_var *v = arena_alloc(a, cap * sizeof(*v));

		if (st->n_vars)
			memcpy(v, st->vars, st->n_vars * sizeof(*v));
		st->vars = v;
		st->cap_vars = cap;
	}
	st->vars[st->n_vars].name = arena_strdup(a, key);
	st->vars[st->n_vars++].value = arena_strdup(a, value);
}

/* settings.c's setting types; the integer ones come signed and not. */
static bool ipxe_type_known(const char *t)
{
	static const char *const types[] = {
	    "string", "uristring", "ipv4",  "ipv6",  "hex",	 "hexhyp",
	    "hexraw", "base64",	   "uuid",  "guid",  "busdevfn", "dnssl",
	    "int8",   "int16",	   "int32", "uint8", "uint16",	 "uint32",
	};

	for (size_t i = 0; i < N(types); i++)
		if (!strcmp(t, types[i]))
			return true;
	return false;
}

/* uri.c uri_encode() with no field: blanks, non-printing characters and
 * "%/#:@?=&+" are escaped. */
static const char *ipxe_uri_encode(struct arena *a, const char *v)
{
	char *out = arena_alloc(a, strlen(v) * 3 + 1), *w = out;

	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		if (*p <= ' ' || *p >= 0x7f || strchr("%/#:@?=&+", *p))
			w += sprintf(w, "%%%02X", *p);
		else
			*w++ = (char)*p;
	}
	*w = '\0';
	return out;
}

/* The value as ${name:type} shows it. */
static const char *ipxe_format(struct arena *a, const char *v, const char *type)
{
	char *out, *w;

	if (!type || strcmp(type, "uristring") == 0)
		return type ? ipxe_uri_encode(a, v) : v;
	if (strcmp(type, "hexhyp") && strcmp(type, "hexraw"))
		return v;
	out = w = arena_strdup(a, v);
	for (const char *p = v; *p; p++)
		if (*p != ':')
			*w++ = *p;
		else if (type[3] == 'h') /* hexhyp */
			*w++ = '-';
	*w = '\0';
	return out;
}

/* ${name} inside @name (the braces gone; written to): its value. */
static const char *ipxe_setting(struct ipxe_exec *s,
				const struct ipxe_state *st, struct arena *tmp,
				char *name, int line, bool quiet)
{
	char *slash = strchr(name, '/');
	char *type = strchr(slash ? slash + 1 : name, ':');
	const char *v;

	if (type)
		*type++ = '\0';
	if (type && !ipxe_type_known(type)) {
		ipxe_warn(s, line,
			  "${%.64s:%.32s}: no such type; it expands "
			  "to nothing",
			  name, type);
		return "";
	}
	v = ipxe_lookup(st, name);
	if (!v) {
		if (!quiet)
			ipxe_warn(s, line,
				  "${%.64s} is not set; it expands "
				  "to nothing",
				  name);
		return "";
	}
	return ipxe_format(tmp, v, type);
}

/* The innermost ${...} of @w: the first "}" after a "${", and the last
 * "${" before it. False when there is none. */
static bool ipxe_innermost(char *w, char **start, char **end)
{
	char *f = strstr(w, "${"), *e, *p;

	*start = *end = NULL;
	if (!f || !(e = strchr(f + 2, '}')))
		return false; /* a "}" before every "${" does not count */
	for (p = e - 2; p > f && !(p[0] == '$' && p[1] == '{'); p--)
		;
	*start = p;
	*end = e;
	return true;
}

/* settings.c expand_settings(): the innermost ${...}, again until none
 * is left. A word without one is returned as it is (the line's own copy,
 * which nothing writes). */
static char *ipxe_expand(struct ipxe_exec *s, const struct ipxe_state *st,
			 struct arena *tmp, char *word, int line, bool quiet)
{
	char *w = s->buf[0], *o = s->buf[1], *start, *end;

	if (!strstr(word, "${"))
		return word;
	snprintf(w, IPXE_LINE_MAX + 1, "%s", word);
	for (int i = 0; ipxe_innermost(w, &start, &end); i++) {
		const char *v;
		int n;

		if (s->expanded > IPXE_EXPAND_BYTES_MAX)
			break; /* ipxe_run_cmd() ends the run */
		if (i == IPXE_EXPAND_MAX) {
			ipxe_warn(s, line,
				  "more than %d ${...} in one word: "
				  "the rest stay as they are",
				  IPXE_EXPAND_MAX);
			break;
		}
		*start = *end = '\0';
		v = ipxe_setting(s, st, tmp, start + 2, line, quiet);
		n = snprintf(o, IPXE_LINE_MAX + 1, "%s%s%s", w, v, end + 1);
		s->expanded += n > 0 ? (size_t)n : 0;
		if (n > IPXE_LINE_MAX)
			ipxe_warn(s, line, "a word longer than %d bytes is cut",
				  IPXE_LINE_MAX);
		w = o;
		o = w == s->buf[0] ? s->buf[1] : s->buf[0];
	}
	return arena_strdup(tmp, w);
}

/* --- options (parseopt.c over getopt.c: options come first, "--" ends
 * them, "--name=x", "--name x", "-nx", "-n x" and "-aq" all work) */

struct ipxe_opt {
	const char *lng;
	char shrt;
	bool arg;
};

static int ipxe_opt_val(struct ipxe_exec *s, const struct ipxe_cmd *c,
			const struct ipxe_opt *o, const char **val,
			const char *inl, size_t *i)
{
	if (!o->arg) {
		*val = "";
		return 0;
	}
	if (inl) {
		*val = inl;
		return 0;
	}
	if (*i + 1 >= c->argc) {
		ipxe_warn(s, c->line, "%.64s: --%s needs a value", c->argv[0],
			  o->lng);
		return -1;
	}
	*val = c->argv[++*i];
	return 0;
}

static int ipxe_opt_one(struct ipxe_exec *s, const struct ipxe_cmd *c,
			const struct ipxe_opt *o, size_t n, const char **val,
			size_t *i)
{
	const char *a = c->argv[*i], *eq = strchr(a, '=');
	size_t k = n;

	if (a[1] == '-') {
		size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);

		for (k = 0; k < n; k++)
			if (strlen(o[k].lng) == len &&
			    !strncmp(o[k].lng, a + 2, len))
				return ipxe_opt_val(s, c, &o[k], &val[k],
						    eq ? eq + 1 : NULL, i);
	} else {
		for (const char *p = a + 1; *p; p++) {
			for (k = 0; k < n && o[k].shrt != *p; k++)
				;
			if (k == n)
				break;
			if (o[k].arg)
				return ipxe_opt_val(s, c, &o[k], &val[k],
						    p[1] ? p + 1 : NULL, i);
			val[k] = "";
		}
		if (k < n)
			return 0;
	}
	ipxe_warn(s, c->line, "%.64s: unknown option %.64s", c->argv[0], a);
	return -1;
}

/* The index of the first word that is not an option, with the options'
 * values in val[] ("" for a flag); -1 (warned) for a bad option. */
static int ipxe_getopt(struct ipxe_exec *s, const struct ipxe_cmd *c,
		       const struct ipxe_opt *o, size_t n, const char **val)
{
	size_t i;

	for (i = 1; i < c->argc; i++) {
		const char *a = c->argv[i];

		if (a[0] != '-' || !a[1])
			break;
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (ipxe_opt_one(s, c, o, n, val, &i) < 0)
			return -1;
	}
	return (int)i;
}

/* --- images */

/* image_cmd.c: what imgexec takes; the other image commands all but
 * --replace. */
static const struct ipxe_opt ipxe_img_opts[] = {
    {"name", 'n', true},      {"timeout", 't', true},  {"quiet", 'q', false},
    {"autofree", 'a', false}, {"replace", 'r', false},
};
enum { IPXE_IMG_NAME };

/* The words joined by one space (concat_args()), or NULL for none. */
static char *ipxe_join(struct arena *a, char *const *argv, size_t n)
{
	size_t len = 1;
	char *out, *w;

	if (!n)
		return NULL;
	for (size_t i = 0; i < n; i++)
		len += strlen(argv[i]) + 1;
	out = w = arena_alloc(a, len);
	for (size_t i = 0; i < n; i++)
		w += sprintf(w, "%s%s", i ? " " : "", argv[i]);
	return out;
}

/* An image is named after the last component of its URI's path. */
static char *ipxe_uri_name(struct arena *a, const char *uri)
{
	const char *end = uri + strcspn(uri, "?#"), *b = end;

	while (b > uri && b[-1] != '/')
		b--;
	return arena_strndup(a, b, (size_t)(end - b));
}

static int ipxe_find(const struct ipxe_state *st, const char *name)
{
	for (size_t i = 0; i < st->n_img; i++)
		if (!strcmp(st->img[i].name, name))
			return (int)i;
	return -1;
}

/* A URL verbatim, anything else within the script's filesystem. */
static const char *ipxe_path(struct ipxe_exec *s, const char *uri)
{
	if (ipxe_is_url(uri))
		return arena_strdup(s->ctx->a, uri);
	return cfg_text_path(s->ctx->a, s->dir, uri);
}

/* imgacquire() (@reuse: an image of that name first) or
 * imgdownload_string(): the image's index, or -1 (warned). A new image
 * replaces one of the same name, as image.c does. */
static int ipxe_get(struct ipxe_exec *s, struct ipxe_state *st,
		    const struct ipxe_cmd *c, const char *uri, bool reuse)
{
	char *name = ipxe_uri_name(s->ctx->a, uri);
	int i = reuse ? ipxe_find(st, uri) : -1;

	if (i >= 0)
		return i;
	i = ipxe_find(st, name);
	if (i < 0 && st->n_img == IPXE_IMAGES_MAX) {
		ipxe_warn(s, c->line,
			  "more than %d images: '%.64s' is not "
			  "fetched",
			  IPXE_IMAGES_MAX, uri);
		return -1;
	}
	if (i < 0)
		i = (int)st->n_img++;
	if (st->sel == i)
		st->sel = -1;
	st->img[i] = (struct ipxe_image){name, ipxe_path(s, uri), NULL, false};
	return i;
}

/* imgsingle_exec(): [options] [URI [args...]]; *idx is the image.
 * Without a URI only boot may go on, with the selected image. */
static int ipxe_imgsingle(struct ipxe_exec *s, struct ipxe_state *st,
			  struct ipxe_cmd *c, bool exec, bool reuse, int *idx)
{
	const char *val[N(ipxe_img_opts)] = {0};
	int first =
	    ipxe_getopt(s, c, ipxe_img_opts, N(ipxe_img_opts) - !exec, val);
	size_t f = (size_t)first;
	int i = st->sel;

	if (first < 0)
		return -EINVAL;
	if (f >= c->argc && (!exec || i < 0)) {
		ipxe_warn(s, c->line, "%.64s: %s", c->argv[0],
			  exec ? "no image selected" : "no image named");
		return -ENOENT;
	}
	if (f < c->argc && (i = ipxe_get(s, st, c, c->argv[f], reuse)) < 0)
		return -ENOSPC;
	if (val[IPXE_IMG_NAME])
		st->img[i].name = arena_strdup(s->ctx->a, val[IPXE_IMG_NAME]);
	if (f + 1 < c->argc)
		st->img[i].args =
		    ipxe_join(s->ctx->a, c->argv + f + 1, c->argc - f - 1);
	*idx = i;
	return 0;
}

/* --- entries */

static const char *ipxe_disabled(struct arena *a, const char *kernel,
				 const char *url, bool net)
{
	static const char *const nbp[] = {".0",	    ".pxe",    ".kpxe",
					  ".kkpxe", ".kkkpxe", ".com"};
	static const char *const script[] = {".ipxe", ".gpxe"};
	const char *dot = strrchr(cfg_text_basename(kernel), '.');

	for (size_t i = 0; dot && i < N(nbp); i++)
		if (!strcasecmp(dot, nbp[i]))
			return arena_printf(a,
					    "a PXE network boot program "
					    "(%.200s): not bootable with "
					    "kexec",
					    kernel);
	for (size_t i = 0; dot && i < N(script); i++)
		if (!strcasecmp(dot, script[i]))
			return arena_printf(a,
					    "chains another iPXE script "
					    "(%.200s): not followed",
					    kernel);
	if (url && net && !strncasecmp(url, "https:", 6))
		return arena_printf(
		    a, "names %.200s: https is not supported yet", url);
	if (url && !net)
		return arena_printf(a,
				    "names a URL (%.200s): only reachable "
				    "over the network",
				    url);
	return NULL;
}

static void ipxe_add(struct ipxe_exec *s, struct entry *e, int line)
{
	if (s->added == IPXE_ENTRIES_MAX) {
		ipxe_warn(s, line, "more than %d entries: the rest are dropped",
			  IPXE_ENTRIES_MAX);
		s->full = true;
		return;
	}
	if (e->is_default)
		s->have_default = true;
	if (entry_add(s->ctx->out, e) < 0)
		s->full = true;
	else
		s->added++;
}

/* imgexec: image @k with every other image fetched since as initrds. */
static void ipxe_boot(struct ipxe_exec *s, struct ipxe_state *st,
		      struct ipxe_cmd *c, int k)
{
	struct arena *a = s->ctx->a;
	struct entry *e = entry_new(s->ctx->out, FMT_IPXE, s->ctx->fs);
	const char *url = NULL;

	e->title = st->title ? st->title : st->img[k].name;
	e->group = st->group;
	e->id = arena_printf(a, "%s:%d%s%s", cfg_text_basename(s->file),
			     c->line, st->id ? ":" : "", st->id ? st->id : "");
	e->source = s->file;
	e->line = c->line;
	e->kernel.path = st->img[k].file;
	e->cmdline = st->img[k].args ? st->img[k].args : "";
	url = ipxe_is_url(e->kernel.path) ? e->kernel.path : NULL;
	for (size_t i = 0; i < st->n_img; i++) {
		if ((int)i == k || st->img[i].kernel)
			continue;
		entry_add_initrd(s->ctx->out, e, NULL, st->img[i].file);
		if (!url && ipxe_is_url(st->img[i].file))
			url = st->img[i].file;
	}
	e->disabled =
	    ipxe_disabled(a, e->kernel.path, url, s->ctx->fs->net != NULL);
	e->is_default = st->dflt && !s->have_default;
	ipxe_add(s, e, c->line);
	st->n_img = 0; /* see the top: the boot's images are used up */
	st->sel = -1;
	if (st->depth) /* a menu item boots one entry */
		ipxe_jump(c, IPXE_END);
}

/* --- commands: each returns 0 or, when it failed, -errno */

static int cmd_select(struct ipxe_exec *s, struct ipxe_state *st,
		      struct ipxe_cmd *c)
{
	int i, rc = ipxe_imgsingle(s, st, c, false, true, &i);

	if (rc == 0) {
		st->img[i].kernel = true;
		st->sel = i;
	}
	return rc;
}

static int cmd_fetch(struct ipxe_exec *s, struct ipxe_state *st,
		     struct ipxe_cmd *c)
{
	int i;

	return ipxe_imgsingle(s, st, c, false, false, &i);
}

static int cmd_exec(struct ipxe_exec *s, struct ipxe_state *st,
		    struct ipxe_cmd *c)
{
	int i, rc = ipxe_imgsingle(s, st, c, true, true, &i);

	if (rc == 0)
		ipxe_boot(s, st, c, i);
	return rc;
}

/* imgargs NAME [args]: NAME's arguments start over. An image of that
 * name must exist (iPXE would try to fetch NAME). */
static int cmd_imgargs(struct ipxe_exec *s, struct ipxe_state *st,
		       struct ipxe_cmd *c)
{
	const char *val[N(ipxe_img_opts)] = {0};
	int first = ipxe_getopt(s, c, ipxe_img_opts, N(ipxe_img_opts) - 1, val);
	size_t f = (size_t)first;
	int i;

	if (first < 0)
		return -EINVAL;
	if (f >= c->argc || (i = ipxe_find(st, c->argv[f])) < 0) {
		ipxe_warn(s, c->line, "imgargs: no image named '%.64s'",
			  f < c->argc ? c->argv[f] : "");
		return -ENOENT;
	}
	st->img[i].args =
	    ipxe_join(s->ctx->a, c->argv + f + 1, c->argc - f - 1);
	if (val[IPXE_IMG_NAME])
		st->img[i].name = arena_strdup(s->ctx->a, val[IPXE_IMG_NAME]);
	return 0;
}

static int cmd_imgfree(struct ipxe_exec *s, struct ipxe_state *st,
		       struct ipxe_cmd *c)
{
	if (c->argc == 1) {
		st->n_img = 0;
		st->sel = -1;
	}
	for (size_t a = 1; a < c->argc; a++) {
		int i = ipxe_find(st, c->argv[a]);

		if (i < 0) {
			ipxe_warn(s, c->line, "imgfree: no image named '%.64s'",
				  c->argv[a]);
			return -ENOENT;
		}
		memmove(&st->img[i], &st->img[i + 1],
			(st->n_img - (size_t)i - 1) * sizeof(st->img[0]));
		st->n_img--;
		st->sel = st->sel == i ? -1 : st->sel - (st->sel > i);
	}
	return 0;
}

/* The setting name without its ":type" (set net0/ip:ipv4 ...). */
static const char *ipxe_var_name(struct arena *a, const char *name)
{
	const char *slash = strchr(name, '/');
	const char *colon = strchr(slash ? slash + 1 : name, ':');

	if (!colon)
		return name;
	return arena_strndup(a, name, (size_t)(colon - name));
}

/* set NAME [value...]: an empty value unsets it, as in iPXE. */
static int cmd_set(struct ipxe_exec *s, struct ipxe_state *st,
		   struct ipxe_cmd *c)
{
	const char *v;

	if (c->argc < 2) {
		ipxe_warn(s, c->line, "%s: no variable named", c->argv[0]);
		return -EINVAL;
	}
	v = strcmp(c->argv[0], "clear")
		? ipxe_join(c->tmp, c->argv + 2, c->argc - 2)
		: NULL;
	ipxe_store(s, st, ipxe_var_name(c->tmp, c->argv[1]), v && *v ? v : NULL,
		   c->line);
	return 0;
}

static int cmd_isset(struct ipxe_exec *s, struct ipxe_state *st,
		     struct ipxe_cmd *c)
{
	return c->argc >= 2 && c->argv[1][0] ? 0 : -ENOENT;
}

static int cmd_iseq(struct ipxe_exec *s, struct ipxe_state *st,
		    struct ipxe_cmd *c)
{
	if (c->argc != 3) {
		ipxe_warn(s, c->line, "iseq: takes two values, not %zu",
			  c->argc - 1);
		return -EINVAL;
	}
	return strcmp(c->argv[1], c->argv[2]) ? -ERANGE : 0;
}

/* goto LABEL: the first line with that label, searched from the top. */
static int cmd_goto(struct ipxe_exec *s, struct ipxe_state *st,
		    struct ipxe_cmd *c)
{
	if (c->argc != 2) {
		ipxe_warn(s, c->line, "goto: takes one label");
		return -EINVAL;
	}
	if (++st->gotos > IPXE_GOTO_MAX) {
		ipxe_warn(s, c->line,
			  "more than %d gotos: a loop? it is left "
			  "here",
			  IPXE_GOTO_MAX);
		ipxe_jump(c, IPXE_END);
		return 0;
	}
	/* The first line with that label, as iPXE's goto searches from the
	 * top: the leftmost match, ties being sorted by line. */
	size_t lo = 0, hi = s->n_labels;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(s->labels[mid].name, c->argv[1]) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < s->n_labels && !strcmp(s->labels[lo].name, c->argv[1])) {
		ipxe_jump(c, s->labels[lo].pc);
		return 0;
	}
	ipxe_warn(s, c->line, "goto: no label ':%.64s'", c->argv[1]);
	return -ENOENT;
}

static int cmd_exit(struct ipxe_exec *s, struct ipxe_state *st,
		    struct ipxe_cmd *c)
{
	ipxe_jump(c, IPXE_END);
	return 0;
}

static int cmd_ok(struct ipxe_exec *s, struct ipxe_state *st,
		  struct ipxe_cmd *c)
{
	return 0;
}

/* prompt: nobody presses the key, so it times out and fails */
static int cmd_prompt(struct ipxe_exec *s, struct ipxe_state *st,
		      struct ipxe_cmd *c)
{
	return -ETIMEDOUT;
}

/* --- menus (dynui_cmd.c): one menu at a time; --menu NAME is accepted */

static int cmd_menu(struct ipxe_exec *s, struct ipxe_state *st,
		    struct ipxe_cmd *c)
{
	static const struct ipxe_opt o[] = {{"name", 'n', true},
					    {"delete", 'd', false}};
	const char *val[N(o)] = {0};

	if (ipxe_getopt(s, c, o, N(o), val) < 0)
		return -EINVAL;
	st->menu = !val[1];
	st->items = NULL;
	st->n_items = st->cap_items = 0;
	return 0;
}

static void ipxe_item_add(struct ipxe_exec *s, struct ipxe_state *st,
			  const struct ipxe_item *it)
{
	if (st->n_items == st->cap_items) {
		size_t cap = st->cap_items ? st->cap_items * 2 : 16;
		struct ipxe_item *v = arena_alloc(s->ctx->a, cap * sizeof(*v));

		if (st->n_items)
			memcpy(v, st->items, st->n_items * sizeof(*v));
		st->items = v;
		st->cap_items = cap;
	}
	st->items[st->n_items++] = *it;
}

/* item [options] [NAME [text...]]: without a name, or with --gap, a line
 * of text that cannot be chosen. */
static int cmd_item(struct ipxe_exec *s, struct ipxe_state *st,
		    struct ipxe_cmd *c)
{
	static const struct ipxe_opt o[] = {
	    {"menu", 'm', true},    {"form", 'f', true},
	    {"key", 'k', true},	    {"default", 'd', false},
	    {"secret", 's', false}, {"gap", 'g', false},
	};
	const char *val[N(o)] = {0};
	int f = ipxe_getopt(s, c, o, N(o), val);
	struct ipxe_item it = {0};

	if (f < 0)
		return -EINVAL;
	if (!st->menu) {
		ipxe_warn(s, c->line, "item: no menu to add to");
		return -ENOENT;
	}
	if (val[5] || (size_t)f >= c->argc)
		return 0;
	if (st->n_items == IPXE_ITEMS_MAX) {
		ipxe_warn(s, c->line, "more than %d items: '%.64s' is left out",
			  IPXE_ITEMS_MAX, c->argv[f]);
		return 0;
	}
	it.label = arena_strdup(s->ctx->a, c->argv[f]);
	it.text =
	    ipxe_join(s->ctx->a, c->argv + f + 1, c->argc - (size_t)f - 1);
	it.text = it.text ? it.text : it.label;
	it.dflt = val[3] != NULL;
	ipxe_item_add(s, st, &it);
	return 0;
}

static void ipxe_run(struct ipxe_exec *s, struct ipxe_state *st, size_t pc,
		     size_t seg, bool process);

/* One item chosen: a copy of @st goes on after the choose with VAR set. */
static void ipxe_branch(struct ipxe_exec *s, const struct ipxe_state *st,
			const struct ipxe_cmd *c, const char *var,
			const struct ipxe_item *it, bool dflt, bool keep)
{
	struct arena *a = s->ctx->a;
	struct ipxe_state *b = malloc(sizeof(*b));

	if (!b)
		return;
	*b = *st;
	b->vars = arena_alloc(a, (st->n_vars + 1) * sizeof(*b->vars));
	if (st->n_vars)
		memcpy(b->vars, st->vars, st->n_vars * sizeof(*b->vars));
	b->cap_vars = st->n_vars + 1;
	b->cap_items = b->n_items; /* an item added copies the array */
	if (!keep) {
		b->menu = false;
		b->n_items = b->cap_items = 0;
	}
	ipxe_store(s, b, var, it->label, c->line);
	b->chose[b->depth++] = c->pc;
	b->dflt = st->dflt && dflt;
	b->group = !st->title  ? st->group
		   : st->group ? arena_printf(a, "%s>%s", st->group, st->title)
			       : st->title;
	b->title = it->text;
	b->id =
	    st->id ? arena_printf(a, "%s/%s", st->id, it->label) : it->label;
	if (c->sep)
		ipxe_run(s, b, c->pc, c->seg + 1, strcmp(c->sep, "||") != 0);
	else
		ipxe_run(s, b, c->pc + 1, 0, true);
	free(b);
}

/* The item choose picks when nobody chooses: --default NAME, else the
 * first item --default, else the first. */
static size_t ipxe_default_item(const struct ipxe_state *st, const char *name)
{
	for (size_t i = 0; name && i < st->n_items; i++)
		if (!strcmp(st->items[i].label, name))
			return i;
	for (size_t i = 0; i < st->n_items; i++)
		if (st->items[i].dflt)
			return i;
	return 0;
}

static bool ipxe_chose_here(const struct ipxe_state *st, size_t pc)
{
	for (int d = 0; d < st->depth; d++)
		if (st->chose[d] == pc)
			return true;
	return false;
}

/* choose [options] VAR: every item is a path of its own. */
static int cmd_choose(struct ipxe_exec *s, struct ipxe_state *st,
		      struct ipxe_cmd *c)
{
	static const struct ipxe_opt o[] = {
	    {"menu", 'm', true},    {"default", 'd', true},
	    {"timeout", 't', true}, {"retimeout", 'r', true},
	    {"keep", 'k', false},
	};
	const char *val[N(o)] = {0};
	int f = ipxe_getopt(s, c, o, N(o), val);
	size_t d;

	if (f < 0 || (size_t)f >= c->argc || !st->menu || !st->n_items) {
		if (f >= 0)
			ipxe_warn(s, c->line, "choose: %s",
				  (size_t)f >= c->argc ? "no variable named"
						       : "no menu items");
		return -EINVAL;
	}
	ipxe_jump(c, IPXE_END); /* the items' paths go on from here */
	if (ipxe_chose_here(st, c->pc))
		return 0; /* back at a menu this path came through */
	if (st->depth == CFG_SUBMENU_DEPTH) {
		ipxe_warn(s, c->line,
			  "menus nested more than %d deep: this "
			  "one is left out",
			  CFG_SUBMENU_DEPTH);
		return 0;
	}
	if (!st->depth && val[2] && strtoul(val[2], NULL, 10) >= 100 &&
	    s->ctx->out->timeout_ds < 0) /* ms: 0 waits for ever */
		s->ctx->out->timeout_ds =
		    (int)(strtoul(val[2], NULL, 10) / 100);
	d = ipxe_default_item(st, val[1]);
	for (size_t i = 0; i < st->n_items && !s->spent && !s->full; i++)
		ipxe_branch(s, st, c, ipxe_var_name(c->tmp, c->argv[f]),
			    &st->items[i], i == d, val[4] != NULL);
	return 0;
}

/* --- running */

typedef int (*ipxe_fn)(struct ipxe_exec *s, struct ipxe_state *st,
		       struct ipxe_cmd *c);

static const struct {
	const char *name;
	ipxe_fn fn;
} ipxe_cmds[] = {
    {"kernel", cmd_select},
    {"imgselect", cmd_select},
    {"imgload", cmd_select},
    {"initrd", cmd_fetch},
    {"module", cmd_fetch},
    {"imgfetch", cmd_fetch},
    {"chain", cmd_exec},
    {"boot", cmd_exec},
    {"imgexec", cmd_exec},
    {"imgargs", cmd_imgargs},
    {"imgfree", cmd_imgfree},
    {"set", cmd_set},
    {"clear", cmd_set},
    {"isset", cmd_isset},
    {"iseq", cmd_iseq},
    {"goto", cmd_goto},
    {"exit", cmd_exit},
    {"reboot", cmd_exit},
    {"poweroff", cmd_exit},
    {"menu", cmd_menu},
    {"item", cmd_item},
    {"choose", cmd_choose},
    {"prompt", cmd_prompt},
    /* the network is up, nothing is shown: these succeed */
    {"echo", cmd_ok},
    {"dhcp", cmd_ok},
    {"ifopen", cmd_ok},
    {"ifclose", cmd_ok},
    {"ifconf", cmd_ok},
    {"ifstat", cmd_ok},
    {"iflinkwait", cmd_ok},
    {"ntp", cmd_ok},
    {"sleep", cmd_ok},
    {"imgstat", cmd_ok},
    {"imgtrust", cmd_ok},
    {"imgverify", cmd_ok},
    {"show", cmd_ok},
    {"route", cmd_ok},
    {"ipstat", cmd_ok},
    {"colour", cmd_ok},
    {"cpair", cmd_ok},
    {"console", cmd_ok},
    {"cpuid", cmd_ok},
    {"shell", cmd_ok},
    {"sync", cmd_ok},
    {"help", cmd_ok},
};

static int ipxe_command(struct ipxe_exec *s, struct ipxe_state *st,
			struct ipxe_cmd *c)
{
	if (!c->argc)
		return 0; /* exec.c: an empty command succeeds */
	for (size_t i = 0; i < N(ipxe_cmds); i++)
		if (c->argv[0][0] == ipxe_cmds[i].name[0] &&
		    !strcmp(c->argv[0], ipxe_cmds[i].name))
			return ipxe_cmds[i].fn(s, st, c);
	ipxe_warn(s, c->line, "`%.64s` is not supported; skipped", c->argv[0]);
	return 0;
}

/* Expand the words tok[0..n) and run them as one command. */
static int ipxe_run_cmd(struct ipxe_exec *s, struct ipxe_state *st,
			struct ipxe_cmd *c, char *const *tok, size_t n)
{
	struct arena *tmp = &s->tmp[st->depth];
	char *argv[IPXE_ARGS_MAX + 1];
	bool quiet = n && !strcmp(tok[0], "isset");
	int rc;

	if (++s->steps > IPXE_STEPS_MAX) {
		if (!s->spent)
			ipxe_warn(s, c->line,
				  "more than %d commands run: a "
				  "loop? the rest is not followed",
				  IPXE_STEPS_MAX);
		s->spent = true;
		ipxe_jump(c, IPXE_END);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		argv[i] = ipxe_expand(s, st, tmp, tok[i], c->line, quiet);
	argv[n] = NULL;
	if (s->expanded > IPXE_EXPAND_BYTES_MAX) {
		if (!s->spent)
			ipxe_warn(s, c->line,
				  "${...} expanded to more than %lu MiB: a "
				  "loop? the rest is not followed",
				  (unsigned long)(IPXE_EXPAND_BYTES_MAX >> 20));
		s->spent = true;
		ipxe_jump(c, IPXE_END);
		return 0;
	}
	c->argv = argv;
	c->argc = n;
	c->tmp = tmp;
	rc = ipxe_command(s, st, c);
	if (tmp->used > IPXE_SCRATCH_MAX)
		arena_free(tmp);
	return rc;
}

static bool ipxe_sep(const char *t)
{
	return (t[0] == '|' || t[0] == '&' || t[0] == ';') &&
	       (!strcmp(t, "||") || !strcmp(t, "&&") || !strcmp(t, ";"));
}

/* Run line @pc from its command @seg (@process: run that one at all).
 * Returns the next line, or IPXE_END. */
static size_t ipxe_exec_line(struct ipxe_exec *s, struct ipxe_state *st,
			     size_t pc, size_t seg, bool process)
{
	const struct ipxe_line *l = &s->sc.lines[pc];
	size_t i = 0;
	int rc = 0;

	for (size_t k = 0;; k++) {
		size_t end = i;

		while (end < l->n_tok && !ipxe_sep(l->tok[end]))
			end++;
		if (k >= seg && process) {
			struct ipxe_cmd c = {
			    .line = l->line, .pc = pc, .seg = k};

			c.sep = end < l->n_tok ? l->tok[end] : NULL;
			rc = ipxe_run_cmd(s, st, &c, l->tok + i, end - i);
			if (c.jump)
				return c.next;
		}
		if (end == l->n_tok)
			break;
		if (k >= seg) /* ";" always, "||" after a failure, "&&" not */
			process = l->tok[end][0] == ';' ||
				  (l->tok[end][0] == '|') == (rc != 0);
		i = end + 1;
	}
	return rc ? IPXE_END : pc + 1; /* script.c: a failure ends it */
}

static void ipxe_run(struct ipxe_exec *s, struct ipxe_state *st, size_t pc,
		     size_t seg, bool process)
{
	while (pc < s->sc.n_lines && !s->spent && !s->full) {
		pc = ipxe_exec_line(s, st, pc, seg, process);
		seg = 0;
		process = true;
	}
}

/* --- the script */

/* A line ipxe_parse.c cut or a word it dropped. */
static void ipxe_split_warn(void *data, int line, const char *msg)
{
	ipxe_warn(data, line, "%s", msg);
}

static int ipxe_label_cmp(const void *a, const void *b)
{
	const struct ipxe_label *x = a, *y = b;
	int d = strcmp(x->name, y->name);

	return d ? d : (x->pc > y->pc) - (x->pc < y->pc);
}

/* Sort the script's labels for cmd_goto. */
static int ipxe_index_labels(struct ipxe_exec *s)
{
	for (size_t i = 0; i < s->sc.n_lines; i++)
		s->n_labels += s->sc.lines[i].label != NULL;
	if (!s->n_labels)
		return 0;
	s->labels = arena_alloc(s->ctx->a, s->n_labels * sizeof(*s->labels));
	if (!s->labels)
		return -ENOMEM;
	for (size_t i = 0, k = 0; i < s->sc.n_lines; i++)
		if (s->sc.lines[i].label)
			s->labels[k++] =
			    (struct ipxe_label){s->sc.lines[i].label, i};
	qsort(s->labels, s->n_labels, sizeof(*s->labels), ipxe_label_cmp);
	return 0;
}

int ipxe_exec_script(struct cfg_ctx *ctx, const char *path,
		     const struct ipxe_var *vars, size_t n_vars,
		     const char *buf, size_t len)
{
	struct ipxe_exec s = {.ctx = ctx};
	struct ipxe_state *st;
	int rc = -ENOMEM;

	s.file = arena_strdup(ctx->a, path);
	st = calloc(1, sizeof(*st));
	s.buf[0] = malloc(IPXE_LINE_MAX + 1);
	s.buf[1] = malloc(IPXE_LINE_MAX + 1);
	if (!st || !s.buf[0] || !s.buf[1])
		goto out;
	s.dir = cfg_text_dirname(ctx->a, cfg_text_path(ctx->a, "/", path));
	ipxe_script_parse(ctx->a, buf, len, ipxe_split_warn, &s, &s.sc);
	if (ipxe_index_labels(&s) < 0)
		goto out;
	st->sel = -1;
	st->dflt = true;
	for (size_t i = 0; vars && i < n_vars; i++)
		if (vars[i].name && vars[i].value)
			ipxe_store(&s, st, vars[i].name, vars[i].value, 0);
	ipxe_run(&s, st, 0, 0, true);
	rc = s.added;
out:
	for (size_t i = 0; i < N(s.tmp); i++)
		arena_free(&s.tmp[i]);
	free(st);
	free(s.buf[0]);
	free(s.buf[1]);
	return rc;
}
