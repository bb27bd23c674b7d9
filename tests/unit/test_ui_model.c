/* test_ui_model.c - the menu's rows, selection, default and countdown,
 * without a terminal. */
#include "choose/choose.h"
#include "conf/conf.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "test.h"
#include "ui/model.h"
#include "util/arena.h"

static struct fs_root fs_a = {.name = "sda1", .fstype = "ext4"};
static struct fs_root fs_b = {.name = "sdb1", .fstype = "vfat"};

static struct entry *add(struct entry_list *l, struct fs_root *fs,
			 const char *id, const char *group, bool def,
			 const char *disabled)
{
	struct entry *e = entry_new(l, FMT_GRUB, fs);

	e->id = id;
	e->title = id;
	e->group = group;
	e->is_default = def;
	e->disabled = disabled;
	e->source = "/boot/grub/grub.cfg";
	entry_add(l, e);
	return e;
}

/* sda1: a, Advanced>{b, c}, d;  sdb1: x (disabled), y */
static void fill(struct entry_list *l, struct arena *a, bool def_c)
{
	entry_list_init(l, a);
	add(l, &fs_a, "a", NULL, false, NULL);
	add(l, &fs_a, "b", "Advanced", false, NULL);
	add(l, &fs_a, "c", "Advanced", def_c, NULL);
	add(l, &fs_a, "d", NULL, false, NULL);
	add(l, &fs_b, "x", NULL, false, "kernel not found");
	add(l, &fs_b, "y", NULL, false, NULL);
}

/* The policy's default (choose.h) with @saved and bootmenu.conf's @pat. */
static const struct entry *pick(const struct entry_list *l, const char *saved,
				const char *pat)
{
	static struct conf c;
	static struct choose ch;

	conf_init(&c);
	snprintf(c.default_pat, sizeof(c.default_pat), "%s", pat ? pat : "");
	choose_init(&ch, &c, "", -2);
	snprintf(ch.saved_id, sizeof(ch.saved_id), "%s", saved ? saved : "");
	return choose_default(&ch, l);
}

static const char *sel_id(const struct ui_model *m)
{
	const struct entry *e = ui_model_selected(m);

	return e				      ? e->id
	       : m->rows[m->sel].kind == UI_ROW_GROUP ? "<group>"
						      : "?";
}

TEST(default_choice)
{
	struct arena a = ARENA_INIT;
	struct entry_list l;

	fill(&l, &a, true);
	CHECK_STR(pick(&l, NULL, NULL)->id, "c");
	CHECK_STR(pick(&l, "y", NULL)->id, "y");
	CHECK_STR(pick(&l, "x", NULL)->id, "c"); /* disabled */
	CHECK_STR(pick(&l, NULL, "[dy]")->id, "d");
	CHECK_STR(pick(&l, "nope", "zz*")->id, "c");
	arena_free(&a);
	fill(&l, &a, false);
	CHECK_STR(pick(&l, NULL, NULL)->id, "a");
	arena_free(&a);
}

TEST(grouping_and_headers)
{
	struct arena a = ARENA_INIT;
	struct ui_model m = {0};
	struct entry_list l;

	fill(&l, &a, false);
	CHECK_INT(ui_model_build(&m, &l, pick(&l, NULL, NULL)), 0);
	/* sda1 header, a, [Advanced], d, sdb1 header, x, y */
	CHECK_INT(m.n_rows, 7);
	CHECK_INT(m.rows[0].kind, UI_ROW_FS);
	CHECK_STR(m.rows[0].configs, "grub /boot/grub/grub.cfg");
	CHECK_INT(m.rows[2].kind, UI_ROW_GROUP);
	CHECK_STR(m.rows[2].label, "Advanced");
	CHECK(!m.rows[2].open);
	CHECK_INT(m.rows[4].kind, UI_ROW_FS);
	CHECK(m.rows[4].fs == &fs_b);
	CHECK_STR(sel_id(&m), "a");
	ui_model_move(&m, 1);
	CHECK_STR(sel_id(&m), "<group>");
	CHECK(ui_model_set_open(&m, &l, -1));
	CHECK_INT(m.n_rows, 9);
	CHECK_STR(sel_id(&m), "<group>");
	CHECK_INT(m.rows[3].depth, 1);
	ui_model_move(&m, 1);
	CHECK_STR(sel_id(&m), "b");
	CHECK(!ui_model_set_open(&m, &l, 0)); /* not a group */
	ui_model_free(&m);
	arena_free(&a);
}

TEST(default_inside_a_group_is_shown)
{
	struct arena a = ARENA_INIT;
	struct ui_model m = {0};
	struct entry_list l;

	fill(&l, &a, true);
	CHECK_INT(ui_model_build(&m, &l, pick(&l, NULL, NULL)), 0);
	CHECK_STR(sel_id(&m), "c");
	CHECK_INT(m.n_rows, 9);
	ui_model_free(&m);
	arena_free(&a);
}

TEST(movement_skips_headers_and_clamps)
{
	struct arena a = ARENA_INIT;
	struct ui_model m = {0};
	struct entry_list l;

	fill(&l, &a, false);
	ui_model_build(&m, &l, NULL);
	ui_model_move(&m, -1);
	CHECK_STR(sel_id(&m), "a");
	ui_model_move(&m, 3); /* group, d, (header) x */
	CHECK_STR(sel_id(&m), "x");
	ui_model_move(&m, 10);
	CHECK_STR(sel_id(&m), "y");
	ui_model_home(&m);
	CHECK_STR(sel_id(&m), "a");
	ui_model_end(&m);
	CHECK_STR(sel_id(&m), "y");
	ui_model_scroll(&m, 3);
	CHECK_INT(m.top, 4);
	ui_model_home(&m);
	ui_model_scroll(&m, 3);
	CHECK_INT(m.top, 0);
	ui_model_free(&m);
	arena_free(&a);
}

TEST(rebuild_keeps_selection)
{
	struct arena a = ARENA_INIT, b = ARENA_INIT;
	struct ui_model m = {0};
	struct entry_list l, l2;

	fill(&l, &a, false);
	ui_model_build(&m, &l, NULL);
	ui_model_end(&m);
	CHECK_STR(sel_id(&m), "y");
	/* a rescan: new list, same names, one more entry first */
	entry_list_init(&l2, &b);
	add(&l2, &fs_b, "new", NULL, false, NULL);
	add(&l2, &fs_b, "y", NULL, false, NULL);
	ui_model_forget(&m);
	arena_free(&a);
	ui_model_build(&m, &l2, NULL);
	CHECK_STR(sel_id(&m), "y");
	CHECK_INT(m.n_rows, 3);
	ui_model_free(&m);
	arena_free(&b);
}

/* Hotplug: the list is rebuilt with a filesystem more or less; the
 * entries of the old list stay valid memory (session.h). */
TEST(stick_comes_and_goes)
{
	struct arena a = ARENA_INIT;
	struct ui_model m = {0};
	struct entry_list l, with, without;
	const struct entry *def;

	fill(&l, &a, true); /* the whole set, to borrow entries */
	entry_list_init(&without, &a);
	for (const struct entry *e = l.head; e; e = e->next)
		if (e->fs == &fs_a)
			add(&without, &fs_a, e->id, e->group, e->is_default,
			    NULL);
	entry_list_init(&with, &a);
	for (const struct entry *e = without.head; e; e = e->next)
		add(&with, &fs_a, e->id, e->group, e->is_default, NULL);
	add(&with, &fs_b, "y", NULL, false, NULL);
	def = pick(&without, NULL, NULL);
	CHECK_STR(def->id, "c");
	ui_model_build(&m, &without, def);
	CHECK_STR(sel_id(&m), "c");
	/* the stick arrives: its rows show, the selection stays */
	def = pick(&with, NULL, NULL);
	ui_model_build(&m, &with, def);
	CHECK_STR(sel_id(&m), "c");
	CHECK_INT(m.n_rows, 8);
	ui_model_end(&m);
	CHECK_STR(sel_id(&m), "y");
	/* pulled out while selected: the selection goes to the default */
	def = pick(&without, NULL, NULL);
	ui_model_build(&m, &without, def);
	CHECK_INT(m.n_rows, 6);
	CHECK_STR(sel_id(&m), "c");
	CHECK(ui_model_selected(&m) == def);
	ui_model_free(&m);
	arena_free(&a);
}

TEST(countdown)
{
	struct ui_model m = {0};

	ui_count_start(&m, 5, 1000);
	CHECK_INT(ui_count_left(&m, 1000), 5);
	CHECK_INT(ui_count_left(&m, 1001), 5);
	CHECK_INT(ui_count_left(&m, 2000), 4);
	CHECK_INT(ui_count_left(&m, 5500), 1);
	CHECK(!ui_count_expired(&m, 5999));
	CHECK(ui_count_expired(&m, 6000));
	CHECK(!ui_count_expired(&m, 7000)); /* once */
	CHECK_INT(ui_count_left(&m, 7000), -1);
	ui_count_start(&m, -1, 0);
	CHECK(!m.counting);
	CHECK(!ui_count_expired(&m, 1LL << 40));
	ui_count_start(&m, 0, 50);
	CHECK(ui_count_expired(&m, 50));
	ui_count_start(&m, 3, 0);
	ui_count_stop(&m);
	CHECK_INT(ui_count_left(&m, 1), -1);
	CHECK(!ui_count_expired(&m, 10000));
}

/* Locked volumes' lines (ENTRY_UNLOCK, no filesystem) come last under a
 * header of their own, wherever they are in the list; they are never
 * the default, but a key selects them. */
TEST(locked_lines_last)
{
	struct arena a = ARENA_INIT;
	struct entry_list l;
	struct ui_model m = {0};
	struct entry *u;
	char buf[64] = "";

	entry_list_init(&l, &a);
	u = add(&l, NULL, "luks-1", NULL, true, NULL);
	u->method = ENTRY_UNLOCK;
	u->unlock_dev = "vda3";
	add(&l, &fs_a, "a", NULL, false, NULL);
	CHECK(pick(&l, "luks-1", "luks*")->id[0] == 'a');
	CHECK_INT(ui_model_build(&m, &l, pick(&l, NULL, NULL)), 0);
	CHECK_INT(m.n_rows, 4);
	for (size_t i = 0; i < m.n_rows && i < 4; i++)
		buf[i] = m.rows[i].kind == UI_ROW_FS ? 'F' : 'E';
	CHECK_STR(buf, "FEFE");
	CHECK(m.rows[2].fs == NULL && m.rows[3].e == u);
	CHECK_STR(sel_id(&m), "a");
	ui_model_move(&m, 1);
	CHECK_STR(sel_id(&m), "luks-1");
	ui_model_home(&m);
	CHECK_STR(sel_id(&m), "a");
	ui_model_end(&m);
	CHECK_STR(sel_id(&m), "luks-1");
	/* only the line: it is the selection, not the default */
	entry_list_init(&l, &a);
	l.head = u;
	u->next = NULL;
	l.count = 1;
	CHECK(pick(&l, "luks-1", NULL) == NULL);
	CHECK_INT(ui_model_build(&m, &l, NULL), 0);
	CHECK_INT(m.n_rows, 2);
	CHECK_STR(sel_id(&m), "luks-1");
	ui_model_free(&m);
	arena_free(&a);
}

TEST_MAIN("test_ui_model", default_choice, grouping_and_headers,
	  default_inside_a_group_is_shown, movement_skips_headers_and_clamps,
	  rebuild_keeps_selection, stick_comes_and_goes, countdown,
	  locked_lines_last)
