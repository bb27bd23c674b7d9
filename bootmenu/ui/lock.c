/* lock.c - the password rules of GRUB's superusers and lilo.conf. */
#include "ui/lock.h"
#include "entry.h"

/* lilo.conf(5): "mandatory" is the default when a password is given;
 * "restricted" only guards parameters typed at the boot prompt. */
static bool lilo_asks(const struct entry *e, enum ui_act act)
{
	if (act == UI_ACT_EDIT)
		return true;
	return act == UI_ACT_BOOT && !e->restricted;
}

enum ui_lock ui_lock_need(const char *hash, bool unlocked, enum ui_act act,
			  const struct entry *e, const struct entry *def)
{
	bool have = hash && *hash, ask;

	if (unlocked)
		return UI_LOCK_FREE;
	if (e && e->password && (act == UI_ACT_BOOT || act == UI_ACT_EDIT))
		ask = lilo_asks(e, act);
	else if (act == UI_ACT_BOOT)
		ask = have && e != def;
	else
		ask = have;
	if (!ask)
		return UI_LOCK_FREE;
	return have ? UI_LOCK_ASK : UI_LOCK_LOCKED;
}
