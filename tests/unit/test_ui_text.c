/* test_ui_text.c - titles fitted to a line: UTF-8 kept on UTF-8
 * terminals, one '?' per non-ASCII character elsewhere, controls never
 * reach the terminal. */
#include "test.h"
#include "ui/text.h"

static const char *fit(const char *in, int w, bool utf8, int *cols)
{
	static char out[256];

	*cols = ui_text_fit(out, sizeof(out), in, w, utf8);
	return out;
}

TEST(ascii_passes)
{
	int c;

	CHECK_STR(fit("Debian GNU/Linux", 80, false, &c), "Debian GNU/Linux");
	CHECK_INT(c, 16);
	CHECK_STR(fit("Debian GNU/Linux", 6, true, &c), "Debian");
	CHECK_INT(c, 6);
	CHECK_STR(fit("", 10, true, &c), "");
	CHECK_INT(c, 0);
}

TEST(utf8_kept_on_utf8_terminals)
{
	int c;

	/* "Fedora Linux (6.5) – Café" : an en dash and an e acute */
	CHECK_STR(fit("Caf\xc3\xa9 \xe2\x80\x93 x", 80, true, &c),
		  "Caf\xc3\xa9 \xe2\x80\x93 x");
	CHECK_INT(c, 8);
	/* cut by columns, never inside a character */
	CHECK_STR(fit("Caf\xc3\xa9s", 4, true, &c), "Caf\xc3\xa9");
	CHECK_INT(c, 4);
	/* CJK takes two columns: a third one does not fit in 5 */
	CHECK_STR(fit("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 5, true, &c),
		  "\xe6\x97\xa5\xe6\x9c\xac");
	CHECK_INT(c, 4);
}

TEST(one_question_mark_per_character_elsewhere)
{
	int c;

	CHECK_STR(fit("Caf\xc3\xa9 \xe2\x80\x93 x", 80, false, &c), "Caf? ? x");
	CHECK_INT(c, 8);
	CHECK_STR(fit("\xf0\x9f\x90\xa7 Tux", 80, false, &c), "? Tux");
	CHECK_STR(fit("\xe6\x97\xa5\xe6\x9c\xac", 80, false, &c), "??");
	CHECK_INT(c, 2);
}

TEST(malformed_and_controls_are_question_marks)
{
	int c;

	/* Latin-1 e acute, a lone continuation byte, an overlong '/', a
	 * surrogate, a cut sequence at the end */
	CHECK_STR(fit("Caf\xe9", 80, true, &c), "Caf?");
	CHECK_STR(fit("a\x80z", 80, true, &c), "a?z");
	CHECK_STR(fit("\xc0\xaf", 80, true, &c), "??");
	CHECK_STR(fit("\xed\xa0\x80", 80, true, &c), "???");
	CHECK_STR(fit("ab\xe2\x80", 80, true, &c), "ab??");
	/* ESC, CR, TAB, DEL and a C1 CSI never reach the terminal */
	CHECK_STR(fit("a\x1b[2Jb\r\t\x7f", 80, true, &c), "a?[2Jb???");
	CHECK_STR(fit("x\xc2\x9by", 80, true, &c), "x?y");
	CHECK_STR(fit("x\xc2\x9by", 80, false, &c), "x?y");
}

TEST(decode)
{
	long cp;

	CHECK_INT(ui_text_decode("A", &cp), 1);
	CHECK_INT(cp, 'A');
	CHECK_INT(ui_text_decode("\xc3\xa9", &cp), 2);
	CHECK_INT(cp, 0xe9);
	CHECK_INT(ui_text_decode("\xf4\x8f\xbf\xbf", &cp), 4);
	CHECK_INT(cp, 0x10ffff);
	CHECK_INT(ui_text_decode("\xf4\x90\x80\x80", &cp), 1); /* > U+10FFFF */
	CHECK_INT(cp, -1);
	CHECK_INT(ui_text_width(0x301), 0);
	CHECK_INT(ui_text_width(0x4e2d), 2);
	CHECK_INT(ui_text_width('a'), 1);
}

TEST(small_buffers_stay_terminated)
{
	char out[4];

	CHECK_INT(ui_text_fit(out, sizeof(out), "abcdef", 80, true), 3);
	CHECK_STR(out, "abc");
	CHECK_INT(
	    ui_text_fit(out, sizeof(out), "\xe2\x80\x93\xe2\x80\x93", 80, true),
	    1);
	CHECK_STR(out, "\xe2\x80\x93");
	CHECK_INT(ui_text_fit(out, sizeof(out), "abc", 0, true), 0);
	CHECK_STR(out, "");
}

TEST_MAIN("test_ui_text", ascii_passes, utf8_kept_on_utf8_terminals,
	  one_question_mark_per_character_elsewhere,
	  malformed_and_controls_are_question_marks, decode,
	  small_buffers_stay_terminated)
