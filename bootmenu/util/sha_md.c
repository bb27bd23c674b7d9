/* sha_md.c - the block buffering and padding of SHA-1 and SHA-256. */
#include "util/sha_md.h"

#include <string.h>

void sha_md_update(const struct sha_md *m, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len) {
		size_t have = *m->n % 64, take = 64 - have;

		if (take > len)
			take = len;
		if (have == 0 && len >= 64) {
			m->fn(m->h, p);
			take = 64;
		} else {
			memcpy(m->buf + have, p, take);
			if (have + take == 64)
				m->fn(m->h, m->buf);
		}
		*m->n += take;
		p += take;
		len -= take;
	}
}

void sha_md_final(const struct sha_md *m, uint8_t *out)
{
	uint64_t bits = *m->n * 8;
	uint8_t pad[72] = {0x80};
	size_t padlen = 64 - (*m->n + 8) % 64;

	for (int i = 0; i < 8; i++)
		pad[padlen + i] = (uint8_t)(bits >> (56 - 8 * i));
	sha_md_update(m, pad, padlen + 8);
	for (size_t i = 0; i < m->words; i++) {
		out[4 * i] = (uint8_t)(m->h[i] >> 24);
		out[4 * i + 1] = (uint8_t)(m->h[i] >> 16);
		out[4 * i + 2] = (uint8_t)(m->h[i] >> 8);
		out[4 * i + 3] = (uint8_t)m->h[i];
	}
}
