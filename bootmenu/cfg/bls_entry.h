/* bls_entry.h - what the BLS readers share (bls_entry.c): the key-value
 * lines of entry files and loader.conf, the boot counter in a file name,
 * and a growing array of entries.
 *
 * Used by bls.c (Type 1 entries, the BLS menu), uki.c (Type 2) and
 * loader_conf.c; it uses none of them. Strings and arrays it makes
 * belong to the arena passed in.
 */
#ifndef BM_CFG_BLS_ENTRY_H
#define BM_CFG_BLS_ENTRY_H

#include <stdbool.h>
#include <stddef.h>

struct arena;
struct cfg_text_lines;
struct entry;

/* Most entry files read from one directory. */
#define BLS_ENTRIES_MAX 1024

/* A growing array of entries; its memory belongs to the arena. */
struct bls_vec {
	struct entry **v;
	size_t n, cap;
};

void bls_vec_push(struct arena *a, struct bls_vec *vec, struct entry *e);

/* One "key value" line of an entry file or loader.conf. */
struct bls_kv {
	const char *key; /* key[0..key_len), not NUL-terminated */
	size_t key_len;
	const char *value; /* trimmed, NUL-terminated, owned by the arena */
	int line;	   /* 1-based */
};

/* The next "key value" line of @it into @kv, skipping blank lines and
 * '#' comment lines; the value is copied into @a. False at the end. */
bool bls_next_kv(struct arena *a, struct cfg_text_lines *it, struct bls_kv *kv);

/* Split a file name "NAME+LEFT-DONE<suffix>" or "NAME+LEFT<suffix>"
 * (the boot counter of the Boot Loader Specification) into the id
 * "NAME<suffix>" (arena-owned) and the counts; a name without a valid
 * counter keeps itself as id and gets -1, -1. */
void bls_name_counter(struct arena *a, const char *name, const char *suffix,
		      const char **id, int *left, int *done);

#endif
