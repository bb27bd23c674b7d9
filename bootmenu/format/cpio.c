/* cpio.c - the "newc" cpio writer (cpio.h). */
#include "format/cpio.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* buffer-format.rst: a 110-byte header of "070701" and 13 eight-digit
 * hex fields, the name with its NUL, padded to 4; then the data, padded
 * to 4. */
#define CPIO_HDR 110

static int cpio_room(struct cpio *c, size_t more)
{
	size_t cap = c->cap ? c->cap : 512;
	char *n;

	if (more > SIZE_MAX / 2 - c->len)
		return -ENOMEM;
	while (cap < c->len + more)
		cap *= 2;
	if (cap == c->cap)
		return 0;
	n = realloc(c->buf, cap);
	if (!n)
		return -ENOMEM;
	c->buf = n;
	c->cap = cap;
	return 0;
}

static void cpio_pad(struct cpio *c)
{
	while (c->len & 3)
		c->buf[c->len++] = '\0';
}

static void cpio_entry(struct cpio *c, const char *name, unsigned mode,
		       const void *data, size_t len)
{
	size_t nlen = strlen(name) + 1;

	if (c->rc)
		return;
	if (len > UINT32_MAX || nlen > 4096) {
		c->rc = -EINVAL;
		return;
	}
	if ((c->rc = cpio_room(c, CPIO_HDR + nlen + 3 + len + 3)))
		return;
	c->len +=
	    (size_t)snprintf(c->buf + c->len, CPIO_HDR + 1,
			     "070701%08X%08X%08X%08X%08X%08X%08X"
			     "%08X%08X%08X%08X%08X%08X",
			     mode ? ++c->ino : 0, mode, 0, 0, 1, 0,
			     (unsigned)len, 0, 0, 0, 0, (unsigned)nlen, 0);
	memcpy(c->buf + c->len, name, nlen);
	c->len += nlen;
	cpio_pad(c);
	if (len)
		memcpy(c->buf + c->len, data, len);
	c->len += len;
	cpio_pad(c);
}

void cpio_add_dir(struct cpio *c, const char *path, unsigned mode)
{
	cpio_entry(c, path, S_IFDIR | (mode & 07777), NULL, 0);
}

void cpio_add_file(struct cpio *c, const char *path, const void *data,
		   size_t len, unsigned mode)
{
	cpio_entry(c, path, S_IFREG | (mode & 07777), data, len);
}

int cpio_finish(struct cpio *c)
{
	cpio_entry(c, "TRAILER!!!", 0, NULL, 0);
	return c->rc;
}

void cpio_free(struct cpio *c)
{
	free(c->buf);
	*c = (struct cpio){0};
}
