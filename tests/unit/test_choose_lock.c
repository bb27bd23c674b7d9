/* test_choose_lock.c - what asks for the password: GRUB-superuser style for
 * bootmenu.conf's, lilo.conf's own rule for the entries it protects. */
#include "entry/entry.h"
#include "test.h"
#include "choose/lock.h"

#define HASH "$6$salt$x"

static struct entry def = {.title = "default"};
static struct entry other = {.title = "other"};
static struct entry lilo_mand = {
    .title = "m", .password = true, .mandatory = true};
static struct entry lilo_plain = {.title = "p", .password = true};
static struct entry lilo_restr = {
    .title = "r", .password = true, .restricted = true};

TEST(no_password_nothing_asks)
{
	CHECK_INT(choose_lock_need("", false, CHOOSE_ACT_BOOT, &other, &def),
		  CHOOSE_LOCK_FREE);
	CHECK_INT(choose_lock_need(NULL, false, CHOOSE_ACT_EDIT, &def, &def),
		  CHOOSE_LOCK_FREE);
	CHECK_INT(choose_lock_need("", false, CHOOSE_ACT_SHELL, NULL, &def),
		  CHOOSE_LOCK_FREE);
	CHECK_INT(choose_lock_need("", false, CHOOSE_ACT_SAVE, &other, &def),
		  CHOOSE_LOCK_FREE);
}

TEST(password_guards_all_but_the_default)
{
	CHECK_INT(choose_lock_need(HASH, false, CHOOSE_ACT_BOOT, &def, &def),
		  CHOOSE_LOCK_FREE);
	CHECK_INT(choose_lock_need(HASH, false, CHOOSE_ACT_BOOT, &other, &def),
		  CHOOSE_LOCK_ASK);
	CHECK_INT(choose_lock_need(HASH, false, CHOOSE_ACT_EDIT, &def, &def),
		  CHOOSE_LOCK_ASK);
	CHECK_INT(choose_lock_need(HASH, false, CHOOSE_ACT_SHELL, NULL, &def),
		  CHOOSE_LOCK_ASK);
	CHECK_INT(choose_lock_need(HASH, false, CHOOSE_ACT_SAVE, &def, &def),
		  CHOOSE_LOCK_ASK);
	/* no default (nothing settled yet): every boot asks */
	CHECK_INT(choose_lock_need(HASH, false, CHOOSE_ACT_BOOT, &def, NULL),
		  CHOOSE_LOCK_ASK);
}

TEST(given_once_unlocks)
{
	CHECK_INT(choose_lock_need(HASH, true, CHOOSE_ACT_BOOT, &other, &def),
		  CHOOSE_LOCK_FREE);
	CHECK_INT(
	    choose_lock_need(HASH, true, CHOOSE_ACT_EDIT, &lilo_mand, &def),
	    CHOOSE_LOCK_FREE);
	CHECK_INT(choose_lock_need(HASH, true, CHOOSE_ACT_SHELL, NULL, &def),
		  CHOOSE_LOCK_FREE);
}

TEST(lilo_mandatory_asks_even_as_default)
{
	CHECK_INT(choose_lock_need(HASH, false, CHOOSE_ACT_BOOT, &lilo_mand,
				   &lilo_mand),
		  CHOOSE_LOCK_ASK);
	CHECK_INT(choose_lock_need(HASH, false, CHOOSE_ACT_BOOT, &lilo_plain,
				   &lilo_plain),
		  CHOOSE_LOCK_ASK);
	CHECK_INT(
	    choose_lock_need(HASH, false, CHOOSE_ACT_EDIT, &lilo_mand, &def),
	    CHOOSE_LOCK_ASK);
}

TEST(lilo_restricted_asks_only_to_edit)
{
	/* booted as it is, even when not the default */
	CHECK_INT(
	    choose_lock_need(HASH, false, CHOOSE_ACT_BOOT, &lilo_restr, &def),
	    CHOOSE_LOCK_FREE);
	CHECK_INT(
	    choose_lock_need("", false, CHOOSE_ACT_BOOT, &lilo_restr, &def),
	    CHOOSE_LOCK_FREE);
	CHECK_INT(
	    choose_lock_need(HASH, false, CHOOSE_ACT_EDIT, &lilo_restr, &def),
	    CHOOSE_LOCK_ASK);
}

TEST(lilo_without_a_bootmenu_password_stays_locked)
{
	CHECK_INT(choose_lock_need("", false, CHOOSE_ACT_BOOT, &lilo_mand,
				   &lilo_mand),
		  CHOOSE_LOCK_LOCKED);
	CHECK_INT(
	    choose_lock_need("", false, CHOOSE_ACT_EDIT, &lilo_restr, &def),
	    CHOOSE_LOCK_LOCKED);
	/* the shell and saving follow bootmenu.conf alone */
	CHECK_INT(
	    choose_lock_need("", false, CHOOSE_ACT_SAVE, &lilo_mand, &def),
	    CHOOSE_LOCK_FREE);
}

TEST_MAIN("test_choose_lock", no_password_nothing_asks,
	  password_guards_all_but_the_default, given_once_unlocks,
	  lilo_mandatory_asks_even_as_default,
	  lilo_restricted_asks_only_to_edit,
	  lilo_without_a_bootmenu_password_stays_locked)
