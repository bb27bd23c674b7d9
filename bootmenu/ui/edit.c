/* edit.c - the command line editor. */
#include "ui/edit.h"
#include "ui/key.h"

#include <string.h>

#define CTRL(c) ((c)&0x1f)

void ui_edit_init(struct ui_edit *ed, const char *text)
{
	size_t n = strlen(text);

	if (n > UI_EDIT_MAX - 1)
		n = UI_EDIT_MAX - 1;
	memcpy(ed->buf, text, n);
	ed->buf[n] = '\0';
	ed->len = ed->cur = n;
}

static void cut(struct ui_edit *ed, size_t from, size_t to)
{
	memmove(ed->buf + from, ed->buf + to, ed->len - to + 1);
	ed->len -= to - from;
	ed->cur = from;
}

static void insert(struct ui_edit *ed, char c)
{
	if (ed->len + 1 >= UI_EDIT_MAX)
		return;
	memmove(ed->buf + ed->cur + 1, ed->buf + ed->cur,
		ed->len - ed->cur + 1);
	ed->buf[ed->cur++] = c;
	ed->len++;
}

enum ui_edit_rc ui_edit_key(struct ui_edit *ed, int key)
{
	switch (key) {
	case UI_KEY_ENTER:
		return UI_EDIT_DONE;
	case UI_KEY_ESC:
		return UI_EDIT_CANCEL;
	case UI_KEY_LEFT:
		if (ed->cur)
			ed->cur--;
		break;
	case UI_KEY_RIGHT:
		if (ed->cur < ed->len)
			ed->cur++;
		break;
	case UI_KEY_HOME:
	case CTRL('a'):
		ed->cur = 0;
		break;
	case UI_KEY_END:
	case CTRL('e'):
		ed->cur = ed->len;
		break;
	case UI_KEY_BACKSPACE:
		if (ed->cur)
			cut(ed, ed->cur - 1, ed->cur);
		break;
	case UI_KEY_DELETE:
	case CTRL('d'):
		if (ed->cur < ed->len)
			cut(ed, ed->cur, ed->cur + 1);
		break;
	case CTRL('u'):
		cut(ed, 0, ed->cur);
		break;
	case CTRL('k'):
		cut(ed, ed->cur, ed->len);
		break;
	default:
		/* printable ASCII and UTF-8 bytes; other controls ignored */
		if ((key >= 0x20 && key < 0x7f) || (key >= 0x80 && key <= 0xff))
			insert(ed, (char)key);
		break;
	}
	return UI_EDIT_MORE;
}
