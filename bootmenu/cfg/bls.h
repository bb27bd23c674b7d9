/* bls.h - Boot Loader Specification entries and the BLS menu (bls.c).
 *
 * bls_parse_fs() (the parser table's) lists /loader/entries and
 * /boot/loader/entries with the UKIs of /EFI/Linux (uki.c), sorted
 * together and with loader.conf's default and timeout (loader_conf.c),
 * as systemd-boot shows them. Fedora/RHEL grub.cfg runs `blscfg`, which
 * reads the same .conf files: grub's `blscfg` command calls
 * bls_collect() with an expander so `$kernelopts` and other grub
 * variables in `options` lines take grub's values. The rest is here for
 * the tests and the fuzzers. Entries and warnings go to ctx->out, memory
 * comes from ctx->a.
 */
#ifndef BM_CFG_BLS_H
#define BM_CFG_BLS_H

#include "cfg/bls_entry.h"
#include "cfg/ctx.h"

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

/* Expand grub variables in @s; returns a string owned by the arena, or
 * @s itself. */
typedef const char *(*bls_expand_fn)(void *data, const char *s);

/* Read the .conf files of @dir on ctx->fs, append the entries in the
 * specification's order (sort-key, machine-id, version descending, id; no
 * tries left last) to ctx->out with format @fmt. @expand may be NULL; with
 * one, `options` and `initrd` values are expanded and `initrd` is split at
 * blanks, as grub's blscfg does. Each entry's id is the file name with the
 * boot counter removed and ".conf" kept (systemd-boot's id; Fedora's
 * saved_entry is that without ".conf"); no entry is marked default.
 * Returns the number of entries added, or -errno when @dir cannot be
 * listed. */
int bls_collect(struct cfg_ctx *ctx, const char *dir, enum entry_format fmt,
		bls_expand_fn expand, void *data);

/* The BLS menu of ctx->fs (Type 1 entries a grub blscfg did not list
 * already, and UKIs), default and timeout from loader.conf. Returns 0. */
int bls_parse_fs(struct cfg_ctx *ctx);

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

/* The index in v[0..n) of the entry systemd-boot starts on: the first
 * whose id matches @pattern (fnmatch, case-insensitive), else the first
 * whose id without ".conf"/".efi" matches (older sd-boot ids), else the
 * first entry; -1 when n is 0. */
long bls_pick_default(struct entry *const *v, size_t n, const char *pattern);

#endif
