/* bls_entry.h - the pieces of the BLS reader (bls.c, uki.c, loader_conf.c)
 * that tests and fuzzers call directly. bls.h is the interface the grub
 * interpreter uses; this is the one below it.
 */
#ifndef BM_CFG_BLS_ENTRY_H
#define BM_CFG_BLS_ENTRY_H

#include "cfg/bls.h"

struct arena;
struct cfg_text_lines;

/* Most entry files read from one directory. */
#define BLS_ENTRIES_MAX 1024
/* The architecture this build boots, as BLS `architecture` names it. */
#if defined(__x86_64__)
#define BLS_ARCH_NATIVE "x64"
#elif defined(__aarch64__)
#define BLS_ARCH_NATIVE "aa64"
#elif defined(__i386__)
#define BLS_ARCH_NATIVE "ia32"
#elif defined(__riscv) && __riscv_xlen == 64
#define BLS_ARCH_NATIVE "riscv64"
#else
#define BLS_ARCH_NATIVE "unknown"
#endif

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

/* Parse one Type 1 entry file called @name (with ".conf") in @dir whose
 * contents are buf[0..len). Returns a new entry (owned by ctx->a, not yet
 * added to ctx->out), or NULL when it is for another architecture or
 * names nothing to boot (with a warning). @expand as in bls_collect(). */
struct entry *bls_parse_entry(struct cfg_ctx *ctx, const char *dir,
			      const char *name, const char *buf, size_t len,
			      enum entry_format fmt, bls_expand_fn expand,
			      void *data);

/* systemd-boot's order: entries with no tries left last; entries with a
 * sort-key before those without; among those with one: sort-key, then
 * machine-id ascending, then version descending; then id descending
 * (version comparison); for the same id, more tries left first, then
 * fewer tries done. Returns <0 when @a goes first. */
int bls_compare(const struct entry *a, const struct entry *b);
void bls_sort(struct entry **v, size_t n);

/* systemd-boot's shown titles (boot.c config_title_generate, v252): a
 * title shared by several of v[0..n) gets " (version)" appended, one still
 * shared then " (first 8 characters of machine-id)", one still shared then
 * " (file name in lower case)", sd-boot's id; an entry without that field
 * keeps its title in that round. New titles are owned by @a. */
void bls_unique_titles(struct arena *a, struct entry **v, size_t n);

/* /loader/loader.conf, as far as a menu needs it. */
struct loader_conf {
	const char *default_pattern; /* glob over entry ids, or NULL */
	int timeout_ds;		     /* -1 when unset or "menu-force" */
};

/* Parse loader.conf contents buf[0..len) found at @path; unknown keys
 * warn through ctx->out. Returns 0. */
int loader_conf_parse(struct cfg_ctx *ctx, const char *path, const char *buf,
		      size_t len, struct loader_conf *lc);

/* The index in v[0..n) of the entry systemd-boot starts on: the first
 * whose id matches @pattern (fnmatch, case-insensitive), else the first
 * whose id without ".conf"/".efi" matches (older sd-boot ids), else the
 * first entry; -1 when n is 0. */
long bls_pick_default(struct entry *const *v, size_t n, const char *pattern);

#endif
