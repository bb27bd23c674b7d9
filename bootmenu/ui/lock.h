/* lock.h - what needs the menu's password. Pure; the check is auth.h's.
 *
 * bootmenu.conf's `password` works like GRUB's superusers: with it set,
 * editing an entry, the rescue shell, saving a default and booting
 * anything but the default ask for it. Entries lilo.conf protects follow
 * lilo.conf's own rule instead (lilo.conf(5)): `mandatory` (lilo's
 * default) asks before booting it at all, even as the default;
 * `restricted` asks only before its command line is changed. A lilo.conf
 * password cannot be checked (lilo keeps it in its own map), so the
 * bootmenu.conf one is asked; without one such an entry stays locked.
 */
#ifndef BM_UI_LOCK_H
#define BM_UI_LOCK_H

#include <stdbool.h>

struct entry;

enum ui_act { UI_ACT_BOOT, UI_ACT_EDIT, UI_ACT_SHELL, UI_ACT_SAVE };

enum ui_lock {
	UI_LOCK_FREE,   /* go ahead */
	UI_LOCK_ASK,    /* ask for the password first */
	UI_LOCK_LOCKED, /* lilo.conf asks for one, bootmenu.conf has none */
};

/* What @act on entry @e (NULL for the shell) needs, when bootmenu.conf's
 * hash is @hash ("" none), @def is the default entry and @unlocked says the
 * password was already given in this menu. */
enum ui_lock ui_lock_need(const char *hash, bool unlocked, enum ui_act act,
			  const struct entry *e, const struct entry *def);

#endif
