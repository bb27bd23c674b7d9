/* grub_exec.c - running the syntax tree: lists, if/for/while, functions,
 * menuentry declarations, and commands by name through st->cmds.
 *
 * GRUB manual, "Shell-like scripting": the status of `if`'s list decides
 * the branch; `for NAME in WORDS` sets NAME; functions get $1..$9, $# and
 * $@; `break`, `continue` and `return` leave loops and functions.
 */
#include "cfg/grub_exec.h"
#include "cfg/grub_parse.h"
#include "cfg/grub_vars.h"
#include "entry/entry.h"
#include "util/arena.h"

#include <string.h>

void grub_expand(struct grub_state *st, const char *const *words, size_t n,
		 struct grub_fields *out)
{
	for (size_t i = 0; i < n; i++) {
		bool cut = false;

		st->bytes += grub_expand_word(st->a, words[i], grub_lookup, st,
					      GRUB_VALUE_MAX, out, &cut);
		if (cut)
			grub_warn(st, "a word longer than %u bytes was cut",
				  GRUB_VALUE_MAX);
	}
}

static struct grub_func *grub_func_find(struct grub_state *st, const char *name)
{
	for (struct grub_func *f = st->funcs; f; f = f->next)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

/* GRUB: a function's body runs with the caller's variables and its own
 * positional parameters. */
static int grub_call(struct grub_state *st, struct grub_func *f,
		     const char *const *argv, size_t argc)
{
	const char *const *sv = st->argv, *file = st->file;
	const struct fs_root *fs = st->fs;
	size_t sc = st->argc;
	int line = st->line;

	st->argv = argv + 1;
	st->argc = argc - 1;
	st->file = f->file;
	st->fs = f->fs;
	grub_exec_list(st, f->body);
	if (st->flow == GF_RETURN)
		st->flow = GF_NONE;
	st->argv = sv;
	st->argc = sc;
	st->file = file;
	st->fs = fs;
	st->line = line;
	return st->status;
}

/* `name=value` as a command of its own (grub-mkconfig writes
 * `menuentry_id_option="--id"`). */
static bool grub_assignment(struct grub_state *st, struct grub_node *n)
{
	const char *w = n->words[0], *p = w;
	struct grub_fields f = {0};
	char name[GRUB_NAME_MAX + 1];

	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
	      *p == '_'))
		return false;
	while (grub_is_name_char(*p))
		p++;
	if (*p != '=' || (size_t)(p - w) > GRUB_NAME_MAX)
		return false;
	memcpy(name, w, (size_t)(p - w));
	name[p - w] = '\0';
	p++;
	grub_expand(st, &p, 1, &f);
	/* quotes may make the value several words joined in one field */
	grub_set(st, name, f.n ? f.v[0] : "");
	st->status = 0;
	return true;
}

/* A command by name from st->cmds (grub.c gives grub_cmd.c's table). */
static int grub_dispatch(struct grub_state *st, const char *const *argv,
			 size_t argc, int line)
{
	st->line = line;
	for (const struct grub_cmd *c = st->cmds; c && c->name; c++)
		if (argv[0][0] == c->name[0] && !strcmp(argv[0], c->name))
			return c->fn ? c->fn(st, argv, argc) : 0;
	grub_warn(st, "unknown command '%.64s': ignored", argv[0]);
	return 1;
}

static int grub_exec_cmd(struct grub_state *st, struct grub_node *n)
{
	struct grub_fields f = {0};
	struct grub_func *fn;

	if (!n->n_words || grub_assignment(st, n))
		return st->status;
	grub_expand(st, n->words, n->n_words, &f);
	if (!f.n)
		return st->status = 0;
	grub_fields_push(st->a, &f, NULL);
	fn = grub_func_find(st, f.v[0]);
	if (fn) {
		if (st->depth >= GRUB_EXEC_DEPTH) {
			grub_warn(st, "function %s: calls nested too deeply",
				  f.v[0]);
			return st->status = 1;
		}
		return st->status = grub_call(st, fn, f.v, f.n - 1);
	}
	return st->status = grub_dispatch(st, f.v, f.n - 1, n->line);
}

static void grub_exec_if(struct grub_state *st, struct grub_node *n)
{
	while (n && n->kind == GN_IF) {
		grub_exec_list(st, n->cond);
		if (st->stop || st->flow)
			return;
		if (st->status == 0) {
			grub_exec_list(st, n->body);
			return;
		}
		n = n->other;
		if (n && n->kind != GN_IF) {
			grub_exec_list(st, n);
			return;
		}
	}
	st->status = 0;
}

/* A loop body finished: true when the loop goes on. */
static bool grub_loop_next(struct grub_state *st)
{
	if (st->flow == GF_BREAK || st->flow == GF_CONTINUE) {
		bool go_on = st->flow == GF_CONTINUE && st->flow_n <= 1;

		if (--st->flow_n <= 0)
			st->flow = GF_NONE;
		return go_on && !st->flow;
	}
	return !st->flow && !st->stop;
}

static void grub_exec_for(struct grub_state *st, struct grub_node *n)
{
	struct grub_fields f = {0};
	const char *var = n->n_words ? n->words[0] : NULL;

	if (!var)
		return;
	grub_expand(st, n->words + 1, n->n_words - 1, &f);
	st->status = 0;
	for (size_t i = 0; i < f.n && grub_step(st); i++) {
		grub_set(st, var, f.v[i]);
		grub_exec_list(st, n->body);
		if (!grub_loop_next(st))
			break;
	}
}

static void grub_exec_while(struct grub_state *st, struct grub_node *n)
{
	for (;;) {
		grub_exec_list(st, n->cond);
		if (st->stop || st->flow)
			return;
		if ((st->status == 0) != (n->kind == GN_WHILE))
			break;
		grub_exec_list(st, n->body);
		if (!grub_loop_next(st) || !grub_step(st))
			return;
	}
	st->status = 0;
}

static void grub_define(struct grub_state *st, struct grub_node *n)
{
	struct grub_func *f = grub_func_find(st, n->words[0]);

	if (!f) {
		f = arena_alloc(st->a, sizeof(*f));
		f->name = arena_strdup(st->a, n->words[0]);
		f->next = st->funcs;
		st->funcs = f;
	}
	f->body = n->body;
	f->file = st->file;
	f->fs = st->fs;
	st->status = 0;
}

/* menuentry/submenu: options as grub-core/commands/menuentry.c takes
 * them (anywhere among the words); the other words are the title and
 * the body's $2... */
static bool grub_menu_opt(struct grub_state *st, struct grub_item *it,
			  const char *const *v, size_t n, size_t *i)
{
	static const char *const with_arg[] = {"--class", "--users", "--hotkey",
					       "--id", "--source"};
	const char *w = v[*i];

	if (!strcmp(w, "--unrestricted"))
		return true;
	for (size_t k = 0; k < sizeof(with_arg) / sizeof(with_arg[0]); k++) {
		size_t kl = strlen(with_arg[k]);
		const char *val;

		if (strncmp(w, with_arg[k], kl) || (w[kl] && w[kl] != '='))
			continue;
		/* grub-core/lib/arg.c: a following word that starts with '-'
		 * is not taken as the value (RHEL's `--users $grub_users --id
		 * X` with grub_users empty) */
		if (w[kl])
			val = w + kl + 1;
		else
			val =
			    *i + 1 < n && v[*i + 1][0] != '-' ? v[++*i] : NULL;
		if (!strcmp(with_arg[k], "--id") && val)
			it->id = val;
		return true;
	}
	return false;
}

static void grub_declare(struct grub_state *st, struct grub_node *n)
{
	struct grub_item *it = arena_alloc(st->a, sizeof(*it));
	struct grub_fields f = {0}, args = {0};

	grub_expand(st, n->words, n->n_words, &f);
	for (size_t i = 0; i < f.n; i++)
		if (!grub_menu_opt(st, it, f.v, f.n, &i))
			grub_fields_push(st->a, &args, f.v[i]);
	if (!args.n) {
		grub_warn(st, "%s without a title: ignored",
			  n->kind == GN_MENU ? "menuentry" : "submenu");
		st->status = 1;
		return;
	}
	it->submenu = n->kind == GN_SUBMENU;
	it->title = args.v[0];
	it->args = args.v;
	it->n_args = args.n;
	it->body = n->body;
	it->file = st->file;
	it->fs = st->fs;
	it->line = n->line;
	grub_menu_add(st->menu, it);
	st->status = 0;
}

static void grub_exec_node(struct grub_state *st, struct grub_node *n)
{
	st->line = n->line;
	switch (n->kind) {
	case GN_CMD:
		grub_exec_cmd(st, n);
		break;
	case GN_IF:
		grub_exec_if(st, n);
		break;
	case GN_FOR:
		grub_exec_for(st, n);
		break;
	case GN_WHILE:
	case GN_UNTIL:
		grub_exec_while(st, n);
		break;
	case GN_FUNC:
		grub_define(st, n);
		break;
	case GN_MENU:
	case GN_SUBMENU:
		if (st->load) {
			grub_warn(st, "a menu entry inside a menu entry is not "
				      "supported");
			st->status = 1;
		} else {
			grub_declare(st, n);
		}
		break;
	}
}

int grub_exec_list(struct grub_state *st, struct grub_node *n)
{
	if (st->depth >= GRUB_EXEC_DEPTH) {
		grub_warn(st, "blocks nested more than %d deep: not run",
			  GRUB_EXEC_DEPTH);
		return st->status = 1;
	}
	st->depth++;
	for (; n && !st->flow && grub_step(st) && !st->replaced; n = n->next)
		grub_exec_node(st, n);
	st->depth--;
	return st->status;
}

static void grub_parse_warn(void *data, int line, const char *msg)
{
	struct grub_state *st = data;

	entry_warn(st->ctx->out, st->fs, st->file, line, "%s", msg);
}

int grub_exec_buffer(struct grub_state *st, const struct fs_root *fs,
		     const char *path, const char *buf, size_t len)
{
	const char *file = st->file;
	const struct fs_root *sfs = st->fs;
	int line = st->line;
	struct grub_node *list;

	st->file = path;
	st->fs = fs;
	grub_parse(st->a, buf, len, &list, grub_parse_warn, st);
	grub_exec_list(st, list);
	st->file = file;
	st->fs = sfs;
	st->line = line;
	return st->status;
}
