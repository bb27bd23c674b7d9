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
#ifndef BM_CHOOSE_LOCK_H
#define BM_CHOOSE_LOCK_H

#include <stdbool.h>

struct entry;

enum choose_act {
	CHOOSE_ACT_BOOT,
	CHOOSE_ACT_EDIT,
	CHOOSE_ACT_SHELL,
	CHOOSE_ACT_SAVE
};

enum choose_lock {
	CHOOSE_LOCK_FREE,   /* go ahead */
	CHOOSE_LOCK_ASK,    /* ask for the password first */
	CHOOSE_LOCK_LOCKED, /* lilo.conf asks for one, bootmenu.conf has none */
};

/* What @act on entry @e (NULL for the shell) needs, when bootmenu.conf's
 * hash is @hash ("" none), @def is the default entry and @unlocked says the
 * password was already given in this menu. */
enum choose_lock choose_lock_need(const char *hash, bool unlocked,
				  enum choose_act act, const struct entry *e,
				  const struct entry *def);

#endif
