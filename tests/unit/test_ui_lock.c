/* test_ui_lock.c - what asks for the password: GRUB-superuser style for
 * bootmenu.conf's, lilo.conf's own rule for the entries it protects. */
#include "entry.h"
#include "test.h"
#include "ui/lock.h"

#define HASH "$6$salt$x"

static struct entry def = { .title = "default" };
static struct entry other = { .title = "other" };
static struct entry lilo_mand = { .title = "m", .password = true,
				  .mandatory = true };
static struct entry lilo_plain = { .title = "p", .password = true };
static struct entry lilo_restr = { .title = "r", .password = true,
				   .restricted = true };

TEST(no_password_nothing_asks)
{
	CHECK_INT(ui_lock_need("", false, UI_ACT_BOOT, &other, &def), UI_LOCK_FREE);
	CHECK_INT(ui_lock_need(NULL, false, UI_ACT_EDIT, &def, &def), UI_LOCK_FREE);
	CHECK_INT(ui_lock_need("", false, UI_ACT_SHELL, NULL, &def), UI_LOCK_FREE);
	CHECK_INT(ui_lock_need("", false, UI_ACT_SAVE, &other, &def), UI_LOCK_FREE);
}

TEST(password_guards_all_but_the_default)
{
	CHECK_INT(ui_lock_need(HASH, false, UI_ACT_BOOT, &def, &def), UI_LOCK_FREE);
	CHECK_INT(ui_lock_need(HASH, false, UI_ACT_BOOT, &other, &def), UI_LOCK_ASK);
	CHECK_INT(ui_lock_need(HASH, false, UI_ACT_EDIT, &def, &def), UI_LOCK_ASK);
	CHECK_INT(ui_lock_need(HASH, false, UI_ACT_SHELL, NULL, &def), UI_LOCK_ASK);
	CHECK_INT(ui_lock_need(HASH, false, UI_ACT_SAVE, &def, &def), UI_LOCK_ASK);
	/* no default (nothing settled yet): every boot asks */
	CHECK_INT(ui_lock_need(HASH, false, UI_ACT_BOOT, &def, NULL), UI_LOCK_ASK);
}

TEST(given_once_unlocks)
{
	CHECK_INT(ui_lock_need(HASH, true, UI_ACT_BOOT, &other, &def), UI_LOCK_FREE);
	CHECK_INT(ui_lock_need(HASH, true, UI_ACT_EDIT, &lilo_mand, &def),
		  UI_LOCK_FREE);
	CHECK_INT(ui_lock_need(HASH, true, UI_ACT_SHELL, NULL, &def), UI_LOCK_FREE);
}

TEST(lilo_mandatory_asks_even_as_default)
{
	CHECK_INT(ui_lock_need(HASH, false, UI_ACT_BOOT, &lilo_mand, &lilo_mand),
		  UI_LOCK_ASK);
	CHECK_INT(ui_lock_need(HASH, false, UI_ACT_BOOT, &lilo_plain, &lilo_plain),
		  UI_LOCK_ASK);
	CHECK_INT(ui_lock_need(HASH, false, UI_ACT_EDIT, &lilo_mand, &def),
		  UI_LOCK_ASK);
}

TEST(lilo_restricted_asks_only_to_edit)
{
	/* booted as it is, even when not the default */
	CHECK_INT(ui_lock_need(HASH, false, UI_ACT_BOOT, &lilo_restr, &def),
		  UI_LOCK_FREE);
	CHECK_INT(ui_lock_need("", false, UI_ACT_BOOT, &lilo_restr, &def),
		  UI_LOCK_FREE);
	CHECK_INT(ui_lock_need(HASH, false, UI_ACT_EDIT, &lilo_restr, &def),
		  UI_LOCK_ASK);
}

TEST(lilo_without_a_bootmenu_password_stays_locked)
{
	CHECK_INT(ui_lock_need("", false, UI_ACT_BOOT, &lilo_mand, &lilo_mand),
		  UI_LOCK_LOCKED);
	CHECK_INT(ui_lock_need("", false, UI_ACT_EDIT, &lilo_restr, &def),
		  UI_LOCK_LOCKED);
	/* the shell and saving follow bootmenu.conf alone */
	CHECK_INT(ui_lock_need("", false, UI_ACT_SAVE, &lilo_mand, &def),
		  UI_LOCK_FREE);
}

TEST_MAIN("test_ui_lock", no_password_nothing_asks,
	  password_guards_all_but_the_default, given_once_unlocks,
	  lilo_mandatory_asks_even_as_default, lilo_restricted_asks_only_to_edit,
	  lilo_without_a_bootmenu_password_stays_locked)
