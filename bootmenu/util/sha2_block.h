/* sha2_block.h - the SHA-2 compression function, written once for both
 * word sizes (FIPS 180-4 6.2.2 for SHA-256: 32-bit words, 64 rounds;
 * 6.4.2 for SHA-512: 64-bit words, 80 rounds). The two differ only in
 * the word, the number of rounds, the constants K and the rotation
 * amounts of the four functions of 4.1.2 and 4.1.3. Internal to
 * util/sha256.c and util/sha512.c.
 *
 * SHA2_BLOCK(name, word_t, rounds, k, R) defines
 *	static void name(word_t h[8], const uint8_t *p)
 * that mixes the block of 16 big-endian words at @p into the state @h,
 * where @k is the table of @rounds constants and @R an array of twelve
 * ints: the rotations of Sigma0 (3), Sigma1 (3), then sigma0 (2 and its
 * shift) and sigma1 (2 and its shift).
 */
#ifndef BM_SHA2_BLOCK_H
#define BM_SHA2_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#define SHA2_ROR(x, n) ((x) >> (n) | (x) << (sizeof(x) * 8 - (n)))
#define SHA2_SUM(x, R, i)                                                      \
	(SHA2_ROR(x, R[i]) ^ SHA2_ROR(x, R[i + 1]) ^ SHA2_ROR(x, R[i + 2]))
#define SHA2_SMALL(x, R, i)                                                    \
	(SHA2_ROR(x, R[i]) ^ SHA2_ROR(x, R[i + 1]) ^ (x) >> R[i + 2])

#define SHA2_BLOCK(name, word_t, rounds, k, R)                                 \
	static void name(word_t h[8], const uint8_t *p)                        \
	{                                                                      \
		word_t w[rounds];                                              \
                                                                               \
		for (int i = 0; i < 16; i++) {                                 \
			w[i] = 0;                                              \
			for (size_t j = 0; j < sizeof(word_t); j++)            \
				w[i] = w[i] << 8 | p[sizeof(word_t) * i + j];  \
		}                                                              \
		for (int i = 16; i < (rounds); i++)                            \
			w[i] = w[i - 16] + w[i - 7] +                          \
			       SHA2_SMALL(w[i - 15], R, 6) +                   \
			       SHA2_SMALL(w[i - 2], R, 9);                     \
		/* the working variables a..h in locals, not an array          \
		 * shifted each round: they stay in registers (PBKDF2 runs     \
		 * millions of these for one LUKS keyslot) */                  \
		word_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4],       \
		       f = h[5], g = h[6], hh = h[7];                          \
		for (int i = 0; i < (rounds); i++) {                           \
			word_t t1 = hh + SHA2_SUM(e, R, 3) +                   \
				    ((e & f) ^ (~e & g)) + k[i] + w[i];        \
			word_t t2 =                                            \
			    SHA2_SUM(a, R, 0) + ((a & b) ^ (a & c) ^ (b & c)); \
                                                                               \
			hh = g;                                                \
			g = f;                                                 \
			f = e;                                                 \
			e = d + t1;                                            \
			d = c;                                                 \
			c = b;                                                 \
			b = a;                                                 \
			a = t1 + t2;                                           \
		}                                                              \
		h[0] += a;                                                     \
		h[1] += b;                                                     \
		h[2] += c;                                                     \
		h[3] += d;                                                     \
		h[4] += e;                                                     \
		h[5] += f;                                                     \
		h[6] += g;                                                     \
		h[7] += hh;                                                    \
	}

#endif
