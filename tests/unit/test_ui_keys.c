/* test_ui_keys.c - the sequences xterm, VT220 and the Linux console send
 * decode to the same keys. */
#include "test.h"
#include "ui/key.h"

/* Feed @s; returns the last key produced (after a timeout flush). */
static int keys(const char *s, int *out, int max)
{
	struct ui_keydec d = {0};
	int n = 0, k;

	for (; *s; s++) {
		k = ui_key_feed(&d, (unsigned char)*s);
		if (k != UI_KEY_NONE && n < max)
			out[n++] = k;
	}
	k = ui_key_timeout(&d);
	if (k != UI_KEY_NONE && n < max)
		out[n++] = k;
	return n;
}

static int one(const char *s)
{
	int k[8];

	return keys(s, k, 8) == 1 ? k[0] : -99;
}

TEST(arrows_every_terminal)
{
	CHECK_INT(one("\033[A"), UI_KEY_UP);   /* xterm, linux, vt220 */
	CHECK_INT(one("\033OB"), UI_KEY_DOWN); /* application mode */
	CHECK_INT(one("\033[C"), UI_KEY_RIGHT);
	CHECK_INT(one("\033OD"), UI_KEY_LEFT);
	CHECK_INT(one("\033[1;5A"), UI_KEY_UP); /* xterm Ctrl-Up */
}

TEST(home_end_and_friends)
{
	CHECK_INT(one("\033[H"), UI_KEY_HOME); /* xterm */
	CHECK_INT(one("\033OH"), UI_KEY_HOME);
	CHECK_INT(one("\033[1~"), UI_KEY_HOME); /* linux, vt220 Find */
	CHECK_INT(one("\033[7~"), UI_KEY_HOME); /* rxvt */
	CHECK_INT(one("\033[F"), UI_KEY_END);
	CHECK_INT(one("\033OF"), UI_KEY_END);
	CHECK_INT(one("\033[4~"), UI_KEY_END); /* linux, vt220 Select */
	CHECK_INT(one("\033[8~"), UI_KEY_END);
	CHECK_INT(one("\033[2~"), UI_KEY_INSERT);
	CHECK_INT(one("\033[3~"), UI_KEY_DELETE);
	CHECK_INT(one("\033[5~"), UI_KEY_PGUP);
	CHECK_INT(one("\033[6~"), UI_KEY_PGDN);
	CHECK_INT(one("\033[3;2~"), UI_KEY_DELETE); /* Shift-Delete */
	CHECK_INT(one("\033[[A"), UI_KEY_F1);	    /* linux F1 */
	CHECK_INT(one("\033OP"), UI_KEY_F1);
	CHECK_INT(one("\033[Z"), UI_KEY_BACKTAB); /* Shift-Tab */
	CHECK_INT(one("\033[99~"), UI_KEY_UNKNOWN);
}

TEST(plain_bytes)
{
	int k[8];

	CHECK_INT(one("j"), 'j');
	CHECK_INT(one("\r"), UI_KEY_ENTER);
	CHECK_INT(one("\n"), UI_KEY_ENTER);
	CHECK_INT(keys("\r\n", k, 8), 1); /* CR LF is one Enter */
	CHECK_INT(keys("\n\n", k, 8), 2);
	CHECK_INT(one("\177"), UI_KEY_BACKSPACE);
	CHECK_INT(one("\b"), UI_KEY_BACKSPACE);
	CHECK_INT(one("\025"), UI_KEY_CTRL('u'));
	CHECK_INT(one("\303"), 0xc3); /* UTF-8 lead byte */
}

TEST(escape_alone_and_sequences_in_a_row)
{
	int k[8];

	CHECK_INT(one("\033"), UI_KEY_ESC);
	CHECK_INT(keys("\033[A\033[B\033[3~x", k, 8), 4);
	CHECK_INT(k[0], UI_KEY_UP);
	CHECK_INT(k[1], UI_KEY_DOWN);
	CHECK_INT(k[2], UI_KEY_DELETE);
	CHECK_INT(k[3], 'x');
	CHECK_INT(keys("\033\033[A", k, 8), 2); /* Esc, then Up */
	CHECK_INT(k[0], UI_KEY_ESC);
	CHECK_INT(k[1], UI_KEY_UP);
	CHECK_INT(keys("\033[1", k, 8), 1); /* cut short */
	CHECK_INT(k[0], UI_KEY_UNKNOWN);
	CHECK_INT(keys("\033[11111111111111111111~", k, 8) >= 1, 1);
}

TEST(pending)
{
	struct ui_keydec d = {0};

	CHECK(!ui_key_pending(&d));
	CHECK_INT(ui_key_feed(&d, 0x1b), UI_KEY_NONE);
	CHECK(ui_key_pending(&d));
	CHECK_INT(ui_key_feed(&d, '['), UI_KEY_NONE);
	CHECK_INT(ui_key_feed(&d, 'B'), UI_KEY_DOWN);
	CHECK(!ui_key_pending(&d));
	CHECK_INT(ui_key_timeout(&d), UI_KEY_NONE);
}

TEST_MAIN("test_ui_keys", arrows_every_terminal, home_end_and_friends,
	  plain_bytes, escape_alone_and_sequences_in_a_row, pending)
