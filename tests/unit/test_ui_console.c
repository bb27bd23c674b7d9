/* test_ui_console.c - the console list, bootmenu.* values, TERM choice. */
#include "test.h"
#include "ui/console.h"
#include "util/cmdline.h"

TEST(active_list)
{
	char p[UI_CONSOLE_MAX][UI_CONSOLE_PATH];

	CHECK_INT(ui_console_parse("tty0 ttyS0\n", p, UI_CONSOLE_MAX), 2);
	CHECK_STR(p[0], "/dev/tty0");
	CHECK_STR(p[1], "/dev/ttyS0");
	CHECK_INT(ui_console_parse("ttyS0", p, UI_CONSOLE_MAX), 1);
	CHECK_STR(p[0], "/dev/ttyS0");
	CHECK_INT(ui_console_parse("", p, UI_CONSOLE_MAX), 0);
	CHECK_INT(ui_console_parse(" \n", p, UI_CONSOLE_MAX), 0);
}

TEST(option_list_and_paths)
{
	char p[UI_CONSOLE_MAX][UI_CONSOLE_PATH];

	CHECK_INT(ui_console_parse("/dev/pts/3,/dev/pts/7", p, UI_CONSOLE_MAX),
		  2);
	CHECK_STR(p[0], "/dev/pts/3");
	CHECK_STR(p[1], "/dev/pts/7");
	CHECK_INT(ui_console_parse("hvc0, ttyAMA0", p, UI_CONSOLE_MAX), 2);
	CHECK_STR(p[1], "/dev/ttyAMA0");
}

TEST(bad_and_repeated_names_skipped)
{
	char p[UI_CONSOLE_MAX][UI_CONSOLE_PATH];

	/* only /dev paths; no "..", no other directories, no repeats */
	CHECK_INT(ui_console_parse("/etc/passwd ../tty1 /dev/../etc/x "
				   "tty/1 tty1 tty1 /dev/tty1 /dev/",
				   p, UI_CONSOLE_MAX),
		  1);
	CHECK_STR(p[0], "/dev/tty1");
	/* at most @max */
	CHECK_INT(ui_console_parse("a b c d", p, 2), 2);
	CHECK_STR(p[1], "/dev/b");
	/* a name too long for the path is skipped, not cut */
	CHECK_INT(ui_console_parse("tty0123456789012345678901234567890123456789"
				   "0123456789012345678901234567890",
				   p, 8),
		  0);
}

TEST(cmdline_values)
{
	char v[16];

	CHECK(cmdline_value("console=ttyS0 bootmenu.term=xterm quiet", "term",
			    v, sizeof(v)));
	CHECK_STR(v, "xterm");
	CHECK(!cmdline_value("bootmenu.terminal=x", "term", v, sizeof(v)));
	CHECK(!cmdline_value("bootmenu.term=", "term", v, sizeof(v)));
	CHECK(!cmdline_value("xbootmenu.term=a", "term", v, sizeof(v)));
	CHECK(!cmdline_value("bootmenu.term=xterm-256color-very-long", "term",
			     v, sizeof(v)));
	CHECK_STR(v, "");
	CHECK(cmdline_value("bootmenu.utf8=1\n", "utf8", v, sizeof(v)));
	CHECK_STR(v, "1");
	CHECK(!cmdline_value(NULL, "utf8", v, sizeof(v)));
}

TEST(terminal_types)
{
	CHECK_STR(ui_console_term(true, NULL), "linux");
	CHECK_STR(ui_console_term(true, "xterm"), "linux");
	CHECK_STR(ui_console_term(false, NULL), "vt220");
	CHECK_STR(ui_console_term(false, ""), "vt220");
	CHECK_STR(ui_console_term(false, "xterm-256color"), "xterm-256color");
}

TEST_MAIN("test_ui_console", active_list, option_list_and_paths,
	  bad_and_repeated_names_skipped, cmdline_values, terminal_types)
