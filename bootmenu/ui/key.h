/* key.h - bytes from a terminal become keys, whatever TERM says.
 *
 * The menu reads each console's bytes itself and decodes the sequences
 * that xterm, VT220/VT100 and the Linux console send for arrows, Home,
 * End, Insert, Delete, PgUp and PgDn (vt220's terminfo has no Home or End,
 * so curses' keypad() cannot be trusted for serial lines). No curses here:
 * the decoder is plain state, one per terminal, and unit-tested.
 */
#ifndef BM_UI_KEY_H
#define BM_UI_KEY_H

#include <stdbool.h>

enum ui_key {
	UI_KEY_NONE = -1, /* nothing complete yet */
	/* 0..255: that byte (printable, UTF-8 bytes, Ctrl-letters) */
	UI_KEY_UP = 0x100,
	UI_KEY_DOWN,
	UI_KEY_LEFT,
	UI_KEY_RIGHT,
	UI_KEY_HOME,
	UI_KEY_END,
	UI_KEY_INSERT,
	UI_KEY_DELETE,
	UI_KEY_PGUP,
	UI_KEY_PGDN,
	UI_KEY_ESC,	  /* a lone Escape */
	UI_KEY_ENTER,	  /* CR, LF, or keypad Enter */
	UI_KEY_BACKSPACE, /* DEL (0x7f) or Ctrl-H */
	UI_KEY_F1,
	UI_KEY_BACKTAB, /* Shift-Tab: CSI Z (ECMA-48 CBT) */
	UI_KEY_UNKNOWN, /* a sequence we do not know; ignore it */
};

#define UI_KEY_CTRL(c) ((c)&0x1f)
#define UI_KEY_SEQ_MAX 16

struct ui_keydec {
	unsigned char seq[UI_KEY_SEQ_MAX];
	int len;      /* bytes of an escape sequence held so far */
	bool last_cr; /* swallow the LF of a CR LF pair */
};

/* Feed one byte. Returns a key, or UI_KEY_NONE while inside a sequence. */
int ui_key_feed(struct ui_keydec *d, unsigned char c);

/* True while a sequence is incomplete (the caller then waits a little
 * for more bytes, and calls ui_key_timeout() when none come). */
bool ui_key_pending(const struct ui_keydec *d);

/* No more bytes came: a held lone ESC is UI_KEY_ESC, a cut sequence is
 * UI_KEY_UNKNOWN; UI_KEY_NONE when nothing was held. */
int ui_key_timeout(struct ui_keydec *d);

#endif
