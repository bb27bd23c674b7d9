#include "arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_CHUNK_MIN (64 * 1024)

struct arena_chunk {
	struct arena_chunk *next;
	size_t size;
	size_t off;
	_Alignas(16) unsigned char data[];
};

static struct arena_chunk *chunk_new(size_t need)
{
	size_t size = need > ARENA_CHUNK_MIN ? need : ARENA_CHUNK_MIN;
	struct arena_chunk *c;

	if (size > SIZE_MAX - sizeof(*c))
		abort();
	c = malloc(sizeof(*c) + size);
	if (!c) {
		fputs("bootmenu: out of memory\n", stderr);
		abort();
	}
	c->next = NULL;
	c->size = size;
	c->off = 0;
	return c;
}

void *arena_alloc(struct arena *a, size_t size)
{
	struct arena_chunk *c = a->head;
	size_t rounded;
	void *p;

	if (size > SIZE_MAX - 15)
		abort();
	rounded = (size + 15) & ~(size_t)15;
	if (!c || rounded > c->size - c->off) {
		c = chunk_new(rounded);
		c->next = a->head;
		a->head = c;
	}
	p = c->data + c->off;
	c->off += rounded;
	a->used += rounded;
	memset(p, 0, size);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *d;

	if (!s)
		return NULL;
	d = arena_alloc(a, n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return s ? arena_strndup(a, s, strlen(s)) : NULL;
}

char *arena_vprintf(struct arena *a, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;
	char *d;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return arena_strdup(a, "");
	d = arena_alloc(a, (size_t)n + 1);
	vsnprintf(d, (size_t)n + 1, fmt, ap);
	return d;
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	char *d;

	va_start(ap, fmt);
	d = arena_vprintf(a, fmt, ap);
	va_end(ap);
	return d;
}

void arena_free(struct arena *a)
{
	struct arena_chunk *c = a->head, *next;

	for (; c; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
	a->used = 0;
}
