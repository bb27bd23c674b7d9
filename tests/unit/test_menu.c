/* test_menu.c - the menu's line editor and bootmenu.conf (the model and
 * the key decoder: test_ui_model.c, test_ui_keys.c). */
#include "test.h"
#include <errno.h>
#include "conf/conf.h"
#include "ui/edit.h"
#include "ui/key.h"

static void keys(struct ui_edit *ed, const int *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ui_edit_key(ed, k[i]);
}

TEST(editor)
{
	static struct ui_edit ed;
	const int k1[] = {' ',	       'x', '=',	'1',
			  UI_KEY_HOME, 'Q', UI_KEY_END, UI_KEY_BACKSPACE};
	const int k2[] = {UI_KEY_HOME, UI_KEY_RIGHT, UI_KEY_DELETE,
			  UI_KEY_RIGHT, 0x0b /* Ctrl-K */};
	const int k3[] = {UI_KEY_LEFT, 0x15 /* Ctrl-U */};

	ui_edit_init(&ed, "ro quiet");
	CHECK_INT(ed.cur, 8);
	keys(&ed, k1, sizeof(k1) / sizeof(k1[0]));
	CHECK_STR(ed.buf, "Qro quiet x=");
	keys(&ed, k2, sizeof(k2) / sizeof(k2[0]));
	CHECK_STR(ed.buf, "Qo");
	CHECK_INT(ed.len, 2);
	keys(&ed, k3, sizeof(k3) / sizeof(k3[0]));
	CHECK_STR(ed.buf, "o");
	CHECK_INT(ed.cur, 0);
	CHECK_INT(ui_edit_key(&ed, UI_KEY_BACKSPACE), UI_EDIT_MORE);
	CHECK_STR(ed.buf, "o");
	ui_edit_key(&ed, 0x01); /* a stray control byte inserts nothing */
	CHECK_STR(ed.buf, "o");
	CHECK_INT(ui_edit_key(&ed, UI_KEY_ENTER), UI_EDIT_DONE);
	CHECK_INT(ui_edit_key(&ed, UI_KEY_ESC), UI_EDIT_CANCEL);
}

TEST(editor_full)
{
	static struct ui_edit ed;
	static char big[UI_EDIT_MAX + 10];

	memset(big, 'a', sizeof(big) - 1);
	ui_edit_init(&ed, big);
	CHECK_INT(ed.len, UI_EDIT_MAX - 1);
	ui_edit_key(&ed, 'b');
	CHECK_INT(ed.len, UI_EDIT_MAX - 1);
	CHECK_INT(ed.buf[UI_EDIT_MAX - 1], 0);
}

TEST(conf_file)
{
	struct conf c;
	char err[128];

	conf_init(&c);
	CHECK_INT(conf_parse(&c, "# c\n\n timeout = 7 \ndefault = Debian*\n",
			     err, sizeof(err)),
		  0);
	CHECK(c.timeout == 7);
	CHECK_STR(c.default_pat, "Debian*");
	conf_init(&c);
	CHECK_INT(conf_parse(&c, "timeout=x\nbogus = 1\ntimeout=-1\n", err,
			     sizeof(err)),
		  -EINVAL);
	CHECK_STR(err, "line 1: bad value");
	CHECK(c.timeout == -1);
	CHECK_INT(conf_load(&c, "/nonexistent/bootmenu.conf", err, sizeof(err)),
		  0);
	conf_init(&c);
	CHECK_INT(conf_load(&c, "configs/bootmenu.conf", err, sizeof(err)), 0);
	CHECK_STR(err, "");
}

TEST_MAIN("test_menu", editor, editor_full, conf_file)
