/* grub_state.c - what every part of the grub.cfg interpreter uses
 * (grub_state.h): its warnings, its step and byte limits, its menu list.
 */
#include "cfg/grub_state.h"

#include <stdarg.h>
#include <stdio.h>

void grub_warn(struct grub_state *st, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	entry_warn(st->ctx->out, st->fs, st->file, st->line, "%s", msg);
}

bool grub_step(struct grub_state *st)
{
	if (st->stop)
		return false;
	if (++st->steps > st->steps_max) {
		grub_warn(
		    st,
		    "more than %ld steps: the rest of the config is not run",
		    st->steps_max);
		st->stop = true;
	} else if (st->bytes > GRUB_BYTES_MAX) {
		grub_warn(st,
			  "words larger than %u bytes in all: the rest of the "
			  "config is not run",
			  GRUB_BYTES_MAX);
		st->stop = true;
	}
	return !st->stop;
}

void grub_menu_init(struct grub_menu *m)
{
	m->head = NULL;
	m->tail = &m->head;
	m->n = 0;
}

void grub_menu_add(struct grub_menu *m, struct grub_item *it)
{
	it->next = NULL;
	*m->tail = it;
	m->tail = &it->next;
	m->n++;
}
