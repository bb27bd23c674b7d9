/* text.h - titles and paths fitted to a terminal line. Pure, no curses.
 *
 * Config titles are bytes from a disk: usually UTF-8, sometimes Latin-1,
 * sometimes junk. A UTF-8 terminal gets every well-formed character; any
 * other terminal gets plain ASCII with one '?' per non-ASCII character.
 * Control characters and malformed bytes are '?' everywhere, so nothing
 * from a disk can move the cursor or change the terminal's state.
 */
#ifndef BM_UI_TEXT_H
#define BM_UI_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Decode one character at @s (not empty): its code point into *cp and
 * its length in bytes; *cp is -1 for a malformed byte (length 1). */
size_t ui_text_decode(const char *s, long *cp);

/* Columns code point @cp takes: 0 for combining marks, 2 for East Asian
 * wide characters, else 1. */
int ui_text_width(long cp);

/* Copy @in into out[0..outlen) (always terminated) taking at most @width
 * columns: UTF-8 as is when @utf8, else '?' per non-ASCII character;
 * controls and malformed bytes as '?'. Returns the columns used. */
int ui_text_fit(char *out, size_t outlen, const char *in, int width, bool utf8);

#endif
