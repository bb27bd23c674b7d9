/* edit.h - the one-line editor behind `e`. Pure, no curses.
 *
 * The text lives in the struct (UI_EDIT_MAX bytes); nothing is allocated.
 */
#ifndef BM_UI_EDIT_H
#define BM_UI_EDIT_H

#include <stddef.h>

#define UI_EDIT_MAX 4096

struct ui_edit {
	char buf[UI_EDIT_MAX];
	size_t len, cur; /* bytes; cur <= len */
};

enum ui_edit_rc { UI_EDIT_MORE, UI_EDIT_DONE, UI_EDIT_CANCEL };

/* Start editing a copy of @text (cut at UI_EDIT_MAX - 1), cursor at end. */
void ui_edit_init(struct ui_edit *ed, const char *text);
/* Apply @key (enum ui_key or a byte): Left/Right, Home/End (and Ctrl-A,
 * Ctrl-E), Backspace/Delete, Ctrl-U (cut to start), Ctrl-K (cut to end),
 * printable bytes insert. Enter returns UI_EDIT_DONE, Esc UI_EDIT_CANCEL. */
enum ui_edit_rc ui_edit_key(struct ui_edit *ed, int key);

#endif
