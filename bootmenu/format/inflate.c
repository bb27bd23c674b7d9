/* inflate.c - deflate (RFC 1951) and gzip (RFC 1952) decoding.
 *
 * Canonical Huffman codes decoded through a 9-bit lookup table, with a
 * bit-by-bit walk of the canonical code for the longer codes. Bits are
 * taken least significant first (RFC 1951 3.1.1); past the end of the
 * input zero bits are supplied and counted, and a stream that consumes
 * them is truncated.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "format/inflate.h"

#define MAXBITS 15 /* RFC 1951: code lengths are 0..15 */
#define FAST 9	   /* bits resolved by one table lookup */
#define NLIT 288   /* literal/length symbols, 286 and 287 unused */
#define NDIST 32   /* distance symbols, 30 and 31 unused */
#define NCLEN 19   /* code length symbols */

struct bits {
	const uint8_t *p, *end;
	uint64_t buf;
	unsigned cnt;  /* bits in buf */
	unsigned fake; /* of those, zero bits supplied past the end */
};

struct huff {
	uint16_t count[MAXBITS + 1]; /* codes of each length */
	uint16_t sym[NLIT];	     /* symbols by code length, then value */
	uint16_t fast[1 << FAST];    /* sym << 4 | length, 0: walk the code */
};

struct out {
	uint8_t *buf;
	size_t len, cap, max;
};

static void refill(struct bits *b)
{
	while (b->cnt <= 56) {
		uint64_t byte = 0;

		if (b->p < b->end)
			byte = *b->p++;
		else
			b->fake += 8;
		b->buf |= byte << b->cnt;
		b->cnt += 8;
	}
}

static uint32_t peek(struct bits *b, unsigned n)
{
	if (b->cnt < n)
		refill(b);
	return (uint32_t)(b->buf & ((1ull << n) - 1));
}

static void drop(struct bits *b, unsigned n)
{
	b->buf >>= n;
	b->cnt -= n;
}

static uint32_t take(struct bits *b, unsigned n)
{
	uint32_t v = peek(b, n);

	drop(b, n);
	return v;
}

/* Zero bits past the end were consumed: the input is truncated. */
static bool overrun(const struct bits *b)
{
	return b->fake > b->cnt;
}

static uint32_t reverse(uint32_t code, unsigned len)
{
	uint32_t r = 0;

	while (len--) {
		r = (r << 1) | (code & 1);
		code >>= 1;
	}
	return r;
}

/* Build @h from @n code lengths. An over-subscribed set is refused; an
 * incomplete one is allowed (a lone distance code is), and its unused
 * codes fail when met. */
static int huff_build(struct huff *h, const uint8_t *len, unsigned n)
{
	uint16_t offs[MAXBITS + 2], next[MAXBITS + 1];
	int left = 1;
	uint32_t code = 0;

	memset(h->count, 0, sizeof(h->count));
	memset(h->fast, 0, sizeof(h->fast));
	for (unsigned i = 0; i < n; i++)
		h->count[len[i]]++;
	for (unsigned l = 1; l <= MAXBITS; l++) {
		left = left * 2 - h->count[l];
		if (left < 0)
			return -EINVAL;
	}
	offs[1] = 0;
	for (unsigned l = 1; l <= MAXBITS; l++) {
		offs[l + 1] = offs[l] + h->count[l];
		/* RFC 1951 3.2.2: the first code of each length */
		code = (code + (l > 1 ? h->count[l - 1] : 0)) << 1;
		next[l] = (uint16_t)code;
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned l = len[i];
		uint32_t c;

		if (!l)
			continue;
		h->sym[offs[l]++] = (uint16_t)i;
		c = next[l]++;
		if (l > FAST)
			continue;
		for (uint32_t k = reverse(c, l); k < (1u << FAST); k += 1u << l)
			h->fast[k] = (uint16_t)(i << 4 | l);
	}
	return 0;
}

/* Walk the canonical code one bit at a time (RFC 1951 3.2.2). */
static int huff_slow(struct bits *b, const struct huff *h)
{
	uint32_t bits = peek(b, MAXBITS);
	int code = 0, first = 0, index = 0;

	for (unsigned l = 1; l <= MAXBITS; l++) {
		int count = h->count[l];

		code |= (int)((bits >> (l - 1)) & 1);
		if (code - first < count) {
			drop(b, l);
			return h->sym[index + code - first];
		}
		index += count;
		first = (first + count) << 1;
		code <<= 1;
	}
	return -EINVAL; /* a code the incomplete set does not have */
}

static int huff_decode(struct bits *b, const struct huff *h)
{
	uint16_t e = h->fast[peek(b, FAST)];

	if (e) {
		drop(b, e & 15);
		return e >> 4;
	}
	return huff_slow(b, h);
}

static int out_room(struct out *o, size_t n)
{
	size_t cap;
	uint8_t *nb;

	if (n <= o->cap - o->len)
		return 0;
	if (n > o->max - o->len)
		return -EFBIG;
	cap = o->cap ? o->cap : 65536;
	while (cap - o->len < n)
		cap = cap > o->max / 2 ? o->max : cap * 2;
	if (cap > o->max)
		cap = o->max;
	nb = realloc(o->buf, cap);
	if (!nb)
		return -ENOMEM;
	o->buf = nb;
	o->cap = cap;
	return 0;
}

static int stored(struct bits *b, struct out *o)
{
	size_t avail, n;
	int rc;

	/* back to whole bytes: give the buffered real bytes back */
	drop(b, b->cnt % 8);
	b->p -= (b->cnt - (b->fake < b->cnt ? b->fake : b->cnt)) / 8;
	b->buf = 0;
	b->cnt = b->fake = 0;
	avail = (size_t)(b->end - b->p);
	if (avail < 4)
		return -ENODATA;
	n = (size_t)b->p[0] | (size_t)b->p[1] << 8;
	if ((n ^ ((size_t)b->p[2] | (size_t)b->p[3] << 8)) != 0xffff)
		return -EINVAL;
	b->p += 4;
	if (n > avail - 4)
		return -ENODATA;
	if (n == 0)
		return 0; /* an empty block (a flush): there may be no buffer */
	rc = out_room(o, n);
	if (rc)
		return rc;
	memcpy(o->buf + o->len, b->p, n);
	o->len += n;
	b->p += n;
	return 0;
}

/* RFC 1951 3.2.5 */
static const uint16_t len_base[29] = {
    3,	4,  5,	6,  7,	8,  9,	10, 11,	 13,  15,  17,	19,  23,  27,
    31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
};
static const uint8_t len_extra[29] = {
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
    2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
};
static const uint16_t dist_base[30] = {
    1,	  2,	3,    4,    5,	  7,	9,    13,    17,    25,
    33,	  49,	65,   97,   129,  193,	257,  385,   513,   769,
    1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
};
static const uint8_t dist_extra[30] = {
    0, 0, 0, 0, 1, 1, 2, 2,  3,	 3,  4,	 4,  5,	 5,  6,
    6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
};

static int copy_back(struct out *o, size_t dist, size_t n)
{
	int rc;

	if (dist > o->len)
		return -EINVAL; /* before the start of the output */
	rc = out_room(o, n);
	if (rc)
		return rc;
	/* may overlap itself: byte by byte repeats the pattern */
	for (uint8_t *d = o->buf + o->len, *s = d - dist; n--; o->len++)
		*d++ = *s++;
	return 0;
}

static int codes(struct bits *b, struct out *o, const struct huff *lit,
		 const struct huff *dist)
{
	for (;;) {
		int sym = huff_decode(b, lit), rc;
		size_t n, d;

		if (sym < 0 || overrun(b))
			return sym < 0 ? sym : -ENODATA;
		if (sym < 256) {
			if (o->len == o->cap && (rc = out_room(o, 1)) < 0)
				return rc;
			o->buf[o->len++] = (uint8_t)sym;
			continue;
		}
		if (sym == 256)
			return 0;
		if (sym > 285)
			return -EINVAL;
		n = len_base[sym - 257] + take(b, len_extra[sym - 257]);
		sym = huff_decode(b, dist);
		if (sym < 0 || sym > 29)
			return -EINVAL;
		d = dist_base[sym] + take(b, dist_extra[sym]);
		if (overrun(b))
			return -ENODATA;
		if ((rc = copy_back(o, d, n)) < 0)
			return rc;
	}
}

static int fixed(struct bits *b, struct out *o)
{
	struct huff lit, dist;
	uint8_t len[NLIT];

	/* RFC 1951 3.2.6; built each time: no shared state between threads */
	memset(len, 8, 144);
	memset(len + 144, 9, 112);
	memset(len + 256, 7, 24);
	memset(len + 280, 8, 8);
	huff_build(&lit, len, NLIT);
	memset(len, 5, NDIST);
	huff_build(&dist, len, NDIST);
	return codes(b, o, &lit, &dist);
}

/* The code lengths of a dynamic block, through the code length code. */
static int lengths(struct bits *b, uint8_t *len, unsigned n)
{
	static const uint8_t order[NCLEN] = {
	    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
	};
	uint8_t cl[NCLEN] = {0};
	unsigned ncl = take(b, 4) + 4;
	struct huff h;

	for (unsigned i = 0; i < ncl; i++)
		cl[order[i]] = (uint8_t)take(b, 3);
	if (huff_build(&h, cl, NCLEN) < 0)
		return -EINVAL;
	for (unsigned i = 0; i < n;) {
		int sym = huff_decode(b, &h);
		unsigned rep;
		uint8_t v = 0;

		if (sym < 0 || overrun(b))
			return sym < 0 ? sym : -ENODATA;
		if (sym < 16) {
			len[i++] = (uint8_t)sym;
			continue;
		}
		if (sym == 16) {
			if (i == 0)
				return -EINVAL; /* nothing to repeat */
			v = len[i - 1];
			rep = 3 + take(b, 2);
		} else {
			rep = sym == 17 ? 3 + take(b, 3) : 11 + take(b, 7);
		}
		if (rep > n - i)
			return -EINVAL;
		memset(len + i, v, rep);
		i += rep;
	}
	return 0;
}

static int dynamic(struct bits *b, struct out *o)
{
	struct huff *lit = malloc(2 * sizeof(*lit));
	uint8_t len[NLIT + NDIST];
	unsigned nlit, ndist;
	int rc;

	if (!lit)
		return -ENOMEM;
	nlit = take(b, 5) + 257;
	ndist = take(b, 5) + 1;
	rc = nlit > 286 || ndist > 30 ? -EINVAL : lengths(b, len, nlit + ndist);
	if (!rc && len[256] == 0)
		rc = -EINVAL; /* no end-of-block code */
	if (!rc)
		rc = huff_build(lit, len, nlit);
	if (!rc)
		rc = huff_build(lit + 1, len + nlit, ndist);
	if (!rc)
		rc = codes(b, o, lit, lit + 1);
	free(lit);
	return rc;
}

static int blocks(struct bits *b, struct out *o)
{
	unsigned last;
	int rc;

	do {
		unsigned type;

		last = take(b, 1);
		type = take(b, 2);
		if (overrun(b))
			return -ENODATA;
		rc = type == 0	 ? stored(b, o)
		     : type == 1 ? fixed(b, o)
		     : type == 2 ? dynamic(b, o)
				 : -EINVAL;
		if (rc)
			return rc;
	} while (!last);
	return 0;
}

/* Input bytes the stream took: the real bytes not still buffered. */
static size_t consumed(const struct bits *b, const uint8_t *start)
{
	size_t real = (b->cnt - (b->fake < b->cnt ? b->fake : b->cnt)) / 8;

	return (size_t)(b->p - start) - real;
}

static int raw(const uint8_t *in, size_t len, struct out *o, size_t *used)
{
	struct bits b = {in, in + len, 0, 0, 0};
	int rc = blocks(&b, o);

	if (!rc && used)
		*used = consumed(&b, in);
	return rc;
}

int inflate_raw(const void *in, size_t len, size_t max, uint8_t **out,
		size_t *outlen, size_t *used)
{
	struct out o = {NULL, 0, 0, max};
	int rc = raw(in, len, &o, used);

	if (rc) {
		free(o.buf);
		*out = NULL;
		return rc;
	}
	*out = o.buf ? o.buf : malloc(1);
	*outlen = o.len;
	return *out ? 0 : -ENOMEM;
}

uint32_t inflate_crc32(uint32_t crc, const void *buf, size_t len)
{
	uint32_t table[256];
	const uint8_t *p = buf;

	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & -(c & 1));
		table[i] = c;
	}
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

int inflate_is_gzip(const void *buf, size_t len)
{
	const uint8_t *p = buf;

	return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

/* RFC 1952 2.3: the member header; returns its length or -errno. */
static long gz_header(const uint8_t *p, size_t len)
{
	size_t off = 10;
	uint8_t flg;

	if (len < 10)
		return -ENODATA;
	if (p[2] != 8)
		return -ENOEXEC; /* CM: only deflate is defined */
	flg = p[3];
	if (flg & 0xe0)
		return -EINVAL; /* reserved flags */
	if (flg & 4) {		/* FEXTRA */
		if (len - off < 2)
			return -ENODATA;
		off += 2 + ((size_t)p[off] | (size_t)p[off + 1] << 8);
	}
	for (int f = 8; f <= 16; f <<= 1) { /* FNAME, FCOMMENT */
		const uint8_t *z;

		if (!(flg & f))
			continue;
		if (off >= len || !(z = memchr(p + off, 0, len - off)))
			return -ENODATA;
		off = (size_t)(z - p) + 1;
	}
	if (flg & 2) /* FHCRC */
		off += 2;
	return off > len ? -ENODATA : (long)off;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* One member at in[0..len): appended to @o; *took gets its length. */
static int gz_member(const uint8_t *in, size_t len, struct out *o, size_t *took)
{
	long hdr = gz_header(in, len);
	size_t start = o->len, used = 0;
	int rc;

	if (hdr < 0)
		return (int)hdr;
	rc = raw(in + hdr, len - (size_t)hdr, o, &used);
	if (rc)
		return rc;
	used += (size_t)hdr;
	if (len - used < 8)
		return -ENODATA;
	if (le32(in + used) !=
		(o->len > start
		     ? inflate_crc32(0, o->buf + start, o->len - start)
		     : 0) ||
	    le32(in + used + 4) != (uint32_t)(o->len - start))
		return -EBADMSG;
	*took = used + 8;
	return 0;
}

int inflate_gzip(const void *in, size_t len, size_t max, uint8_t **out,
		 size_t *outlen)
{
	const uint8_t *p = in;
	struct out o = {NULL, 0, 0, max};
	size_t off = 0, took = 0;
	uint64_t isize;
	int rc = 0;

	*out = NULL;
	if (!inflate_is_gzip(p, len))
		return -ENOEXEC;
	/* The last 4 bytes hold the (last) member's size: a first guess of
	 * the room, believed only up to deflate's largest ratio (~1032:1). */
	isize = len >= 18 ? le32(p + len - 4) : 0;
	if (isize > 0 && isize <= max && isize / 1032 <= len)
		out_room(&o, (size_t)isize); /* on failure, grow as needed */
	while (!rc && off < len && inflate_is_gzip(p + off, len - off)) {
		rc = gz_member(p + off, len - off, &o, &took);
		off += took;
	}
	if (rc) {
		free(o.buf);
		return rc;
	}
	*out = o.buf ? o.buf : malloc(1);
	*outlen = o.len;
	return *out ? 0 : -ENOMEM;
}

const char *inflate_strerror(int rc)
{
	switch (-rc) {
	case 0:
		return "no error";
	case ENOEXEC:
		return "not gzip-compressed deflate data";
	case EINVAL:
		return "corrupt deflate data";
	case ENODATA:
		return "the compressed data ends early (truncated)";
	case EBADMSG:
		return "CRC-32 or length mismatch";
	case EFBIG:
		return "larger than the limit once decompressed";
	case ENOMEM:
		return "out of memory";
	}
	return "decompression failed";
}
