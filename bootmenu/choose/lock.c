/* lock.c - the password rules of GRUB's superusers and lilo.conf. */
#include "choose/lock.h"
#include "entry/entry.h"

/* lilo.conf(5): "mandatory" is the default when a password is given;
 * "restricted" only guards parameters typed at the boot prompt. */
static bool lilo_asks(const struct entry *e, enum choose_act act)
{
	if (act == CHOOSE_ACT_EDIT)
		return true;
	return act == CHOOSE_ACT_BOOT && !e->restricted;
}

enum choose_lock choose_lock_need(const char *hash, bool unlocked,
				  enum choose_act act, const struct entry *e,
				  const struct entry *def)
{
	bool have = hash && *hash, ask;

	if (unlocked)
		return CHOOSE_LOCK_FREE;
	if (e && e->password &&
	    (act == CHOOSE_ACT_BOOT || act == CHOOSE_ACT_EDIT))
		ask = lilo_asks(e, act);
	else if (act == CHOOSE_ACT_BOOT)
		ask = have && e != def;
	else
		ask = have;
	if (!ask)
		return CHOOSE_LOCK_FREE;
	return have ? CHOOSE_LOCK_ASK : CHOOSE_LOCK_LOCKED;
}
