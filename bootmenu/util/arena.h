/* arena.h - bump allocator that owns everything one scan produces.
 *
 * Devices, strings, entries and warnings of a scan live in one arena; a
 * rescan frees the arena with arena_free() and nothing else needs freeing.
 * Allocation failure aborts the program: a boot menu that cannot get a few
 * kilobytes cannot do anything useful, and this keeps every caller simple.
 */
#ifndef BM_ARENA_H
#define BM_ARENA_H

#include <stddef.h>
#include <stdarg.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *head;
	size_t used; /* bytes handed out, for the statistics only */
};

#define ARENA_INIT                                                             \
	{                                                                      \
		0, 0                                                           \
	}

/* Zeroed, 16-byte aligned memory owned by @a. */
void *arena_alloc(struct arena *a, size_t size);
/* Copies of strings, owned by @a. NULL in, NULL out. */
char *arena_strdup(struct arena *a, const char *s);
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_printf(struct arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *arena_vprintf(struct arena *a, const char *fmt, va_list ap);
/* Frees every chunk; @a is empty and reusable afterwards. */
void arena_free(struct arena *a);

#endif
