/* key.c - escape sequence decoding (ECMA-48 CSI and SS3 forms). */
#include "ui/key.h"

#include <string.h>

/* CSI <n> ~ : VT220 and the Linux console; rxvt's 7/8 for Home/End. */
static int key_tilde(int n)
{
	switch (n) {
	case 1:
	case 7:
		return UI_KEY_HOME;
	case 2:
		return UI_KEY_INSERT;
	case 3:
		return UI_KEY_DELETE;
	case 4:
	case 8:
		return UI_KEY_END;
	case 5:
		return UI_KEY_PGUP;
	case 6:
		return UI_KEY_PGDN;
	case 11:
		return UI_KEY_F1;
	}
	return UI_KEY_UNKNOWN;
}

/* The final byte of CSI A..H (xterm, ANSI) or SS3 A..H (application
 * cursor mode), SS3 M (keypad Enter), SS3 P (F1), CSI Z (Shift-Tab). */
static int key_final(unsigned char c)
{
	switch (c) {
	case 'A':
		return UI_KEY_UP;
	case 'B':
		return UI_KEY_DOWN;
	case 'C':
		return UI_KEY_RIGHT;
	case 'D':
		return UI_KEY_LEFT;
	case 'H':
		return UI_KEY_HOME;
	case 'F':
		return UI_KEY_END;
	case 'M':
		return UI_KEY_ENTER;
	case 'P':
		return UI_KEY_F1;
	case 'Z':
		return UI_KEY_BACKTAB;
	}
	return UI_KEY_UNKNOWN;
}

/* seq = ESC '[' params final, complete. Params may carry modifiers
 * ("1;5A" for Ctrl-Up): the first number picks the key for '~'. */
static int key_csi(const unsigned char *seq, int len)
{
	unsigned char fin = seq[len - 1];
	int n = 0;

	/* Linux console F1..F5: ESC [ [ A..E */
	if (len == 4 && seq[2] == '[')
		return fin == 'A' ? UI_KEY_F1 : UI_KEY_UNKNOWN;
	for (int i = 2; i < len - 1 && seq[i] >= '0' && seq[i] <= '9'; i++)
		n = n * 10 + (seq[i] - '0');
	if (fin == '~')
		return key_tilde(n);
	return key_final(fin);
}

static int key_done(struct ui_keydec *d, int key)
{
	d->len = 0;
	return key;
}

static int key_in_seq(struct ui_keydec *d, unsigned char c)
{
	if (d->len == UI_KEY_SEQ_MAX)
		return key_done(d, UI_KEY_UNKNOWN);
	d->seq[d->len++] = c;
	if (d->len == 2) {
		if (c == '[' || c == 'O')
			return UI_KEY_NONE;
		/* ESC ESC: the first was the Esc key, the second may start
		 * a sequence; ESC x (Alt-x, unused): Esc, and x is dropped */
		d->len = c == 0x1b ? 1 : 0;
		return UI_KEY_ESC;
	}
	if (d->seq[1] == 'O')
		return key_done(d, key_final(c));
	if (d->len == 3 && c == '[')
		return UI_KEY_NONE; /* Linux console function keys */
	if (c >= 0x40 && c <= 0x7e)
		return key_done(d, key_csi(d->seq, d->len));
	return UI_KEY_NONE;
}

int ui_key_feed(struct ui_keydec *d, unsigned char c)
{
	bool was_cr = d->last_cr;

	d->last_cr = false;
	if (d->len)
		return key_in_seq(d, c);
	switch (c) {
	case 0x1b:
		d->seq[0] = c;
		d->len = 1;
		return UI_KEY_NONE;
	case '\r':
		d->last_cr = true;
		return UI_KEY_ENTER;
	case '\n':
		return was_cr ? UI_KEY_NONE : UI_KEY_ENTER;
	case 0x7f:
	case 0x08:
		return UI_KEY_BACKSPACE;
	}
	return c;
}

bool ui_key_pending(const struct ui_keydec *d)
{
	return d->len > 0;
}

int ui_key_timeout(struct ui_keydec *d)
{
	int len = d->len;

	d->len = 0;
	if (!len)
		return UI_KEY_NONE;
	return len == 1 ? UI_KEY_ESC : UI_KEY_UNKNOWN;
}
