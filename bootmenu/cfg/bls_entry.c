/* bls_entry.c - the pieces the BLS readers share (bls_entry.h).
 *
 * The boot counter follows the Boot Loader Specification's "Boot
 * counting": "+LEFT" or "+LEFT-DONE" just before the suffix, decimal.
 */
#include "cfg/bls_entry.h"
#include "cfg/cfg_text.h"
#include "util/arena.h"

#include <string.h>
#include <strings.h>

void bls_vec_push(struct arena *a, struct bls_vec *vec, struct entry *e)
{
	if (vec->n == vec->cap) {
		size_t cap = vec->cap ? vec->cap * 2 : 16;
		struct entry **v = arena_alloc(a, cap * sizeof(*v));

		if (vec->n)
			memcpy(v, vec->v, vec->n * sizeof(*v));
		vec->v = v;
		vec->cap = cap;
	}
	vec->v[vec->n++] = e;
}

/* Decimal digits s[0..n) as an int; -1 when empty, not digits, or huge. */
static int bls_count(const char *s, size_t n)
{
	int v = 0;

	if (!n || n > 6)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

void bls_name_counter(struct arena *a, const char *name, const char *suffix,
		      const char **id, int *left, int *done)
{
	size_t len = strlen(name), sl = strlen(suffix);
	const char *plus, *dash;
	size_t stem;

	*id = arena_strdup(a, name);
	*left = *done = -1;
	if (len < sl || strcasecmp(name + len - sl, suffix))
		return;
	stem = len - sl;
	plus = memrchr(name, '+', stem);
	if (!plus)
		return;
	dash = memchr(plus, '-', stem - (size_t)(plus - name));
	if (dash) {
		*left = bls_count(plus + 1, (size_t)(dash - plus - 1));
		*done = bls_count(dash + 1, stem - (size_t)(dash + 1 - name));
	} else {
		*left = bls_count(plus + 1, stem - (size_t)(plus + 1 - name));
		*done = 0;
	}
	if (*left < 0 || *done < 0) {
		*left = *done = -1;
		return;
	}
	*id = arena_printf(a, "%.*s%s", (int)(plus - name), name, name + stem);
}

bool bls_next_kv(struct arena *a, struct cfg_text_lines *it, struct bls_kv *kv)
{
	const char *p, *v;
	size_t n, vn;

	while (cfg_text_next_line(it, &p, &n)) {
		cfg_text_split_word(p, n, &kv->key, &kv->key_len, &v, &vn);
		if (!kv->key_len || kv->key[0] == '#')
			continue;
		kv->value = arena_strndup(a, v, vn);
		kv->line = it->line;
		return true;
	}
	return false;
}
