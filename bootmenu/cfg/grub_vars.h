/* grub_vars.h - grub.cfg variables: scopes, export, `$name` lookup
 * (grub_vars.c). Scopes and values are owned by st->a. */
#ifndef BM_CFG_GRUB_VARS_H
#define BM_CFG_GRUB_VARS_H

#include "cfg/grub_state.h"

struct grub_scope *grub_scope_new(struct grub_state *st,
				  struct grub_scope *parent);
/* A scope holding copies of the exported variables of @from (GRUB's
 * grub_env_context_open for submenus and configfile). */
struct grub_scope *grub_scope_exported(struct grub_state *st,
				       struct grub_scope *from);
const char *grub_get(struct grub_state *st, const char *name);
void grub_set(struct grub_state *st, const char *name, const char *value);
void grub_unset(struct grub_state *st, const char *name);
void grub_export(struct grub_state *st, const char *name);
/* The value for `$name` in a word (positional and special ones too); a
 * grub_lookup_fn (grub_expand.h) over the state @st. */
const char *grub_lookup(void *st, const char *name, size_t n);

#endif
