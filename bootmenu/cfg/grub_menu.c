/* grub_menu.c - phase two: menu items become entries; the default.
 *
 * GRUB runs an entry's commands only when it is chosen, with the
 * variables the script left (grub-core/normal/menu.c); a submenu's body
 * runs when it is opened, in a context holding the exported variables.
 * `default` is an index, an id or a title, and "A>B" walks into submenu A
 * (">>" stands for a '>' in a title); one that matches nothing means
 * entry 0.
 */
#include "cfg/grub_menu.h"
#include "cfg/grub_exec.h"
#include "cfg/grub_vars.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <stdlib.h>
#include <string.h>

#define GRUB_NO_LINUX "no linux command: nothing to boot"

/* What phase two changes in the state, to put back afterwards. */
struct grub_saved {
	struct grub_scope *scope;
	struct grub_menu *menu;
	const char *const *argv;
	size_t argc;
	const char *file, *group;
	const struct fs_root *fs;
	struct grub_load *load;
};

static void grub_save(struct grub_state *st, struct grub_saved *sv)
{
	*sv = (struct grub_saved){st->scope, st->menu,	st->argv, st->argc,
				  st->file,  st->group, st->fs,	  st->load};
}

static void grub_restore(struct grub_state *st, const struct grub_saved *sv)
{
	st->scope = sv->scope;
	st->menu = sv->menu;
	st->argv = sv->argv;
	st->argc = sv->argc;
	st->file = sv->file;
	st->group = sv->group;
	st->fs = sv->fs;
	st->load = sv->load;
	st->flow = GF_NONE;
}

static const char *grub_item_path(struct grub_state *st,
				  const struct grub_item *it)
{
	return st->group ? arena_printf(st->a, "%s>%s", st->group, it->title)
			 : it->title;
}

static void grub_enter(struct grub_state *st, struct grub_item *it,
		       struct grub_scope *scope)
{
	st->scope = scope;
	st->argv = it->args;
	st->argc = it->n_args;
	st->file = it->file;
	st->fs = it->fs;
	grub_set(st, "chosen", it->id ? it->id : it->title);
}

static void grub_build_entry(struct grub_state *st, struct grub_item *it,
			     struct grub_scope *base)
{
	struct grub_load ld = {0};
	struct grub_saved sv;
	/* an entry read from a btrfs top level belongs to the filesystem
	 * as listed; its files keep the top level (grub_where_top()) */
	struct entry *e =
	    entry_new(st->ctx->out, FMT_GRUB,
		      it->fs && it->fs->btrfs ? it->fs->btrfs->home : it->fs);

	e->title = it->title;
	e->group = st->group;
	e->id = it->id ? it->id : grub_item_path(st, it);
	e->source = it->file;
	e->line = it->line;
	ld.e = e;
	grub_save(st, &sv);
	grub_enter(st, it, grub_scope_new(st, base));
	st->load = &ld;
	grub_exec_list(st, it->body);
	grub_restore(st, &sv);
	if (st->stop || ld.replaced)
		return;
	e->disabled = ld.why			      ? ld.why
		      : ld.linux_seen || e->multiboot ? NULL
						      : GRUB_NO_LINUX;
	if (entry_add(st->ctx->out, e) == 0)
		it->built = e;
}

static void grub_build_menu(struct grub_state *st, struct grub_menu *m,
			    struct grub_scope *scope);

static void grub_build_submenu(struct grub_state *st, struct grub_item *it,
			       struct grub_scope *base)
{
	struct grub_scope *sc = grub_scope_exported(st, base);
	const char *group = grub_item_path(st, it);
	struct grub_saved sv;

	if (st->submenu_depth >= CFG_SUBMENU_DEPTH) {
		st->line = it->line;
		grub_warn(st,
			  "submenus nested more than %d deep: '%s' not read",
			  CFG_SUBMENU_DEPTH, it->title);
		return;
	}
	it->sub = arena_alloc(st->a, sizeof(*it->sub));
	grub_menu_init(it->sub);
	grub_save(st, &sv);
	grub_enter(st, it, sc);
	st->menu = it->sub;
	st->submenu_depth++;
	grub_exec_list(st, it->body);
	/* `configfile` in the body (grub-btrfs's snapshot submenu) put its
	 * own menu in place of the submenu's */
	it->sub = st->menu;
	st->replaced = false;
	st->group = group;
	grub_build_menu(st, it->sub, st->scope);
	st->submenu_depth--;
	grub_restore(st, &sv);
}

static void grub_build_menu(struct grub_state *st, struct grub_menu *m,
			    struct grub_scope *scope)
{
	for (struct grub_item *it = m->head; it && !st->stop; it = it->next) {
		if (it->built) {
			it->built->group = st->group;
			if (entry_add(st->ctx->out, it->built) < 0)
				it->built = NULL;
		} else if (it->submenu) {
			grub_build_submenu(st, it, scope);
		} else {
			grub_build_entry(st, it, scope);
		}
	}
}

void grub_menu_nested(struct grub_state *st, struct grub_menu *m,
		      struct grub_scope *scope, const char *title)
{
	struct grub_saved sv;
	const char *group =
	    st->group ? arena_printf(st->a, "%s>%s", st->group, title) : title;

	if (st->submenu_depth >= CFG_SUBMENU_DEPTH) {
		grub_warn(st, "menus nested more than %d deep: '%s' not read",
			  CFG_SUBMENU_DEPTH, title);
		return;
	}
	grub_save(st, &sv);
	st->load = NULL;
	st->group = group;
	st->submenu_depth++;
	grub_build_menu(st, m, scope);
	st->submenu_depth--;
	grub_restore(st, &sv);
}

static struct entry *grub_first_entry(const struct grub_menu *m)
{
	for (const struct grub_item *it = m ? m->head : NULL; it;
	     it = it->next) {
		struct entry *e =
		    it->built ? it->built : grub_first_entry(it->sub);

		if (e)
			return e;
	}
	return NULL;
}

/* Copy the first component of @spec (up to a '>' not doubled) into @out;
 * returns the rest after the '>', or NULL at the end. */
static const char *grub_spec_part(const char *spec, char *out)
{
	for (; *spec; spec++) {
		if (*spec == '>' && spec[1] == '>') {
			*out++ = *spec++;
		} else if (*spec == '>') {
			*out = '\0';
			return spec + 1;
		} else {
			*out++ = *spec;
		}
	}
	*out = '\0';
	return NULL;
}

static const struct grub_item *grub_find_item(const struct grub_menu *m,
					      const char *part)
{
	char *end;
	long idx = strtol(part, &end, 10);
	const struct grub_item *it;

	if (*part && !*end) {
		for (it = m->head; it && idx > 0; it = it->next)
			idx--;
		return idx == 0 ? it : NULL;
	}
	for (it = m->head; it; it = it->next)
		if (!strcmp(it->title, part) ||
		    (it->id && !strcmp(it->id, part)))
			return it;
	return NULL;
}

static struct entry *grub_default_in(struct grub_state *st,
				     const struct grub_menu *m,
				     const char *spec)
{
	char *part = arena_alloc(st->a, strlen(spec) + 1);
	const char *rest = grub_spec_part(spec, part);
	const struct grub_item *it = grub_find_item(m, part);

	if (!it)
		return NULL;
	if (it->built)
		return it->built;
	if (rest && it->sub)
		return grub_default_in(st, it->sub, rest);
	return grub_first_entry(it->sub);
}

static void grub_mark_default(struct grub_state *st)
{
	const char *def = grub_get(st, "default");
	struct entry *e = NULL;

	/* GRUB legacy's "default saved", which some hand-written configs keep
	 */
	if (def && !strcmp(def, "saved")) {
		def = grub_get(st, "next_entry");
		if (!def || !*def)
			def = grub_get(st, "saved_entry");
	}
	if (def && *def)
		e = grub_default_in(st, st->menu, def);
	if (!e)
		e = grub_first_entry(st->menu);
	if (e)
		e->is_default = true;
}

/* GRUB 2's `fallback`: entries (indexes, ids or titles, "A>B" paths) to
 * try in turn when the default fails, separated by spaces. */
static void grub_mark_fallback(struct grub_state *st)
{
	const char *fb = grub_get(st, "fallback");
	char word[GRUB_FALLBACK_WORD_MAX];
	int rank = 0;

	while (fb && *fb && rank < GRUB_FALLBACK_MAX) {
		size_t n;
		struct entry *e;

		fb += strspn(fb, " \t");
		n = strcspn(fb, " \t");
		if (n && n < sizeof(word)) {
			memcpy(word, fb, n);
			word[n] = '\0';
			e = grub_default_in(st, st->menu, word);
			if (e && !e->fallback && !e->is_default)
				e->fallback = ++rank;
		}
		fb += n;
	}
}

static void grub_take_timeout(struct grub_state *st)
{
	const char *t = grub_get(st, "timeout");
	char *end;
	long v;

	if (!t || !*t || st->ctx->out->timeout_ds >= 0)
		return;
	v = strtol(t, &end, 10);
	if (*end || v < 0)
		return; /* -1: wait for a key; bootmenu keeps its own default */
	st->ctx->out->timeout_ds = v > 100000 ? 1000000 : (int)v * 10;
}

void grub_menu_finish(struct grub_state *st)
{
	st->replaced = false;
	st->stop = false; /* the menu read so far is still built */
	st->steps = 0;
	grub_build_menu(st, st->menu, st->scope);
	if (!st->menu->n)
		return;
	grub_mark_default(st);
	grub_mark_fallback(st);
	grub_take_timeout(st);
}
