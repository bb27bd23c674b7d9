/* uki.h - Unified Kernel Images (BLS Type 2): the .efi files in /EFI/Linux.
 *
 * A UKI is a PE file whose sections carry the kernel (.linux), initrd
 * (.initrd), command line (.cmdline), os-release (.osrel) and kernel
 * version (.uname). Only the headers and the small text sections are
 * read here; the loader reads .linux and .initrd when it boots.
 */
#ifndef BM_CFG_UKI_H
#define BM_CFG_UKI_H

#include "cfg/ctx.h"

#include <stdint.h>

struct bls_vec;

/* Largest .cmdline/.osrel/.uname section read. */
#define UKI_TEXT_MAX (64u * 1024)

/* Where a UKI's bytes come from: a file, or memory for tests. */
struct uki_src {
	/* Read n bytes at @off into @buf; 0 or -errno (-EIO when short). */
	int (*read)(void *p, uint64_t off, void *buf, size_t n);
	void *p;
	uint64_t size;
};

/* Build the entry for the UKI at @path (ctx->fs) read through @src:
 * kernel = @path, cmdline = .cmdline, title from .osrel PRETTY_NAME (then
 * NAME, then the file name), version from .uname (then IMAGE_VERSION,
 * VERSION, VERSION_ID), sort key IMAGE_ID or ID, boot counter from the
 * name. Returns 0 and *out (not added), -ENOEXEC when it is not a PE file
 * with a .linux section, or -errno. */
int uki_parse(struct cfg_ctx *ctx, const char *path, const struct uki_src *src,
	      struct entry **out);

/* uki_parse() over buf[0..len). */
int uki_parse_mem(struct cfg_ctx *ctx, const char *path, const void *buf,
		  size_t len, struct entry **out);

/* Every *.efi UKI in @dir, appended to @vec (bls_entry.h) unsorted;
 * bls_parse_fs() sorts them with the Type 1 entries. Returns how many. */
int uki_collect(struct cfg_ctx *ctx, const char *dir, struct bls_vec *vec);

/* The parser table's UKI slot: adds nothing, as bls_parse_fs() lists the
 * UKIs. Returns 0. */
int uki_parse_fs(struct cfg_ctx *ctx);

#endif
