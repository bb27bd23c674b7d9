/* marshal.h - bounds-checked big-endian writing and reading of TPM 2.0
 * commands and responses (TPM 2.0 Part 1, 18: "all values are big-endian").
 *
 * A tpm_out writes into a caller's buffer; a write that would not fit
 * sets ->over and writes nothing more, so a command is built with plain
 * calls and checked once at the end. A tpm_in reads a response, which is
 * outside input: each read returns 0, or -EBADMSG when the field does
 * not lie wholly inside the bytes left, and then reads nothing.
 * Nothing here allocates.
 */
#ifndef BM_TPM_MARSHAL_H
#define BM_TPM_MARSHAL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct tpm_out {
	uint8_t *p;
	size_t cap, len;
	bool over; /* a write did not fit */
};

struct tpm_in {
	const uint8_t *p;
	size_t len, off;
};

static inline void tpm_out_init(struct tpm_out *o, uint8_t *buf, size_t cap)
{
	o->p = buf;
	o->cap = cap;
	o->len = 0;
	o->over = false;
}

/* Room for @n more bytes? (subtraction form: len <= cap always) */
static inline bool tpm_out_room(struct tpm_out *o, size_t n)
{
	if (o->over || n > o->cap - o->len)
		o->over = true;
	return !o->over;
}

static inline void tpm_put_bytes(struct tpm_out *o, const void *b, size_t n)
{
	if (!tpm_out_room(o, n))
		return;
	if (n)
		memcpy(o->p + o->len, b, n);
	o->len += n;
}

static inline void tpm_put_be(struct tpm_out *o, uint32_t v, size_t n)
{
	if (!tpm_out_room(o, n))
		return;
	for (size_t i = 0; i < n; i++)
		o->p[o->len + i] = (uint8_t)(v >> (8 * (n - 1 - i)));
	o->len += n;
}

static inline void tpm_put8(struct tpm_out *o, uint8_t v)
{
	tpm_put_be(o, v, 1);
}

static inline void tpm_put16(struct tpm_out *o, uint16_t v)
{
	tpm_put_be(o, v, 2);
}

static inline void tpm_put32(struct tpm_out *o, uint32_t v)
{
	tpm_put_be(o, v, 4);
}

/* Overwrite a 32-bit field written earlier at @off (a command's size). */
static inline void tpm_patch32(struct tpm_out *o, size_t off, uint32_t v)
{
	if (o->over || off > o->len || 4 > o->len - off)
		return;
	for (size_t i = 0; i < 4; i++)
		o->p[off + i] = (uint8_t)(v >> (8 * (3 - i)));
}

static inline void tpm_in_init(struct tpm_in *in, const void *buf, size_t len)
{
	in->p = buf;
	in->len = len;
	in->off = 0;
}

static inline size_t tpm_in_left(const struct tpm_in *in)
{
	return in->len - in->off;
}

static inline int tpm_get_be(struct tpm_in *in, uint32_t *v, size_t n)
{
	uint32_t x = 0;

	if (in->off > in->len || n > in->len - in->off)
		return -EBADMSG;
	for (size_t i = 0; i < n; i++)
		x = x << 8 | in->p[in->off + i];
	in->off += n;
	*v = x;
	return 0;
}

static inline int tpm_get8(struct tpm_in *in, uint8_t *v)
{
	uint32_t x;
	int rc = tpm_get_be(in, &x, 1);

	if (rc == 0)
		*v = (uint8_t)x;
	return rc;
}

static inline int tpm_get16(struct tpm_in *in, uint16_t *v)
{
	uint32_t x;
	int rc = tpm_get_be(in, &x, 2);

	if (rc == 0)
		*v = (uint16_t)x;
	return rc;
}

static inline int tpm_get32(struct tpm_in *in, uint32_t *v)
{
	return tpm_get_be(in, v, 4);
}

/* Points *p at the next @n bytes and steps over them. */
static inline int tpm_get_bytes(struct tpm_in *in, const uint8_t **p, size_t n)
{
	if (in->off > in->len || n > in->len - in->off)
		return -EBADMSG;
	*p = in->p + in->off;
	in->off += n;
	return 0;
}

#endif
