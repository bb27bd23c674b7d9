/* grub_menu.h - phase two of a grub.cfg run: menu items become entries
 * (grub_menu.c). */
#ifndef BM_CFG_GRUB_MENU_H
#define BM_CFG_GRUB_MENU_H

#include "cfg/grub_state.h"

/* Turn st->menu into entries on st->ctx->out, mark the default from
 * $default (and $fallback), take $timeout. */
void grub_menu_finish(struct grub_state *st);
/* Phase two of @m (a menu a chosen entry's `configfile` showed) with
 * @scope, its entries grouped under the entry's @title. */
void grub_menu_nested(struct grub_state *st, struct grub_menu *m,
		      struct grub_scope *scope, const char *title);

#endif
