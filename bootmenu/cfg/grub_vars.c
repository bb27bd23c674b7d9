/* grub_vars.c - grub.cfg variables: scopes, export, `$name` lookup.
 *
 * GRUB keeps one environment per menu context; opening a context (a
 * submenu, configfile) copies only exported variables (grub-core/normal/
 * context.c). Positional parameters belong to the running function or
 * menu entry body.
 */
#include "cfg/grub_vars.h"
#include "util/arena.h"

#include <stdio.h>
#include <string.h>

static unsigned grub_hash(const char *s)
{
	unsigned h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % GRUB_VAR_BUCKETS;
}

struct grub_scope *grub_scope_new(struct grub_state *st,
				  struct grub_scope *parent)
{
	struct grub_scope *sc = arena_alloc(st->a, sizeof(*sc));

	sc->parent = parent;
	return sc;
}

static struct grub_var *grub_find(struct grub_scope *sc, const char *name,
				  unsigned h)
{
	for (struct grub_var *v = sc->b[h]; v; v = v->next)
		if (!strcmp(v->name, name))
			return v;
	return NULL;
}

/* The variable as the chain of scopes sees it, or NULL. */
static struct grub_var *grub_find_chain(struct grub_scope *sc, const char *name)
{
	unsigned h = grub_hash(name);

	for (; sc; sc = sc->parent) {
		struct grub_var *v = grub_find(sc, name, h);

		if (v)
			return v;
	}
	return NULL;
}

static struct grub_var *grub_var_top(struct grub_state *st, const char *name)
{
	unsigned h = grub_hash(name);
	struct grub_var *v = grub_find(st->scope, name, h), *up;

	if (v)
		return v;
	up =
	    st->scope->parent ? grub_find_chain(st->scope->parent, name) : NULL;
	v = arena_alloc(st->a, sizeof(*v));
	v->name = arena_strdup(st->a, name);
	v->value = up ? up->value : NULL;
	v->exported = up && up->exported;
	v->next = st->scope->b[h];
	st->scope->b[h] = v;
	return v;
}

/* Put a copy of @v in @sc unless @sc has the name already. */
static void grub_scope_put(struct grub_state *st, struct grub_scope *sc,
			   const struct grub_var *v)
{
	unsigned h = grub_hash(v->name);
	struct grub_var *c;

	if (grub_find(sc, v->name, h))
		return;
	c = arena_alloc(st->a, sizeof(*c));
	*c = *v;
	c->next = sc->b[h];
	sc->b[h] = c;
}

struct grub_scope *grub_scope_exported(struct grub_state *st,
				       struct grub_scope *from)
{
	struct grub_scope *sc = grub_scope_new(st, NULL);

	for (struct grub_scope *s = from; s; s = s->parent)
		for (unsigned i = 0; i < GRUB_VAR_BUCKETS; i++)
			for (struct grub_var *v = s->b[i]; v; v = v->next)
				if (grub_find_chain(from, v->name) == v &&
				    v->exported && v->value)
					grub_scope_put(st, sc, v);
	return sc;
}

const char *grub_get(struct grub_state *st, const char *name)
{
	struct grub_var *v = grub_find_chain(st->scope, name);

	return v ? v->value : NULL;
}

void grub_set(struct grub_state *st, const char *name, const char *value)
{
	grub_var_top(st, name)->value = arena_strdup(st->a, value);
}

void grub_unset(struct grub_state *st, const char *name)
{
	struct grub_var *v = grub_var_top(st, name);

	v->value = NULL;
	v->exported = false;
}

void grub_export(struct grub_state *st, const char *name)
{
	struct grub_var *v = grub_var_top(st, name);

	/* export of an unset name makes it exist, empty (env.c's export) */
	if (!v->value)
		v->value = "";
	v->exported = true;
}

static const char *grub_join_args(struct grub_state *st)
{
	size_t len = 1;
	char *s, *p;

	for (size_t i = 0; i < st->argc; i++)
		len += strlen(st->argv[i]) + 1;
	p = s = arena_alloc(st->a, len);
	for (size_t i = 0; i < st->argc; i++) {
		size_t n = strlen(st->argv[i]);

		if (i)
			*p++ = ' ';
		memcpy(p, st->argv[i], n);
		p += n;
	}
	*p = '\0';
	return s;
}

const char *grub_lookup(void *data, const char *name, size_t n)
{
	struct grub_state *st = data;
	char buf[GRUB_NAME_MAX + 1];

	if (n == 1 && *name == '?')
		return arena_printf(st->a, "%d", st->status);
	if (n == 1 && *name == '#')
		return arena_printf(st->a, "%zu", st->argc);
	if (n == 1 && (*name == '@' || *name == '*'))
		return grub_join_args(st);
	if (n == 1 && *name >= '1' && *name <= '9')
		return (size_t)(*name - '0') <= st->argc ? st->argv[*name - '1']
							 : NULL;
	if (!n || n > GRUB_NAME_MAX)
		return NULL;
	memcpy(buf, name, n);
	buf[n] = '\0';
	return grub_get(st, buf);
}
