/* ctx.h - what every config parser is handed, and the two services they
 * all share: the include budget and the record of other filesystems
 * reached.
 *
 * The leaf of cfg/: it includes no other parser's header, and every
 * parser includes it. The caller (session/, the tests) owns the context
 * and everything it points to. A parser adds to ctx->out, allocates from
 * ctx->a and updates the budget and reach fields below; the rest it only
 * reads.
 */
#ifndef BM_CFG_CTX_H
#define BM_CFG_CTX_H

#include "entry/entry.h"

struct arena;
struct fs_root;

/* Nesting limits shared by the formats. */
#define CFG_INCLUDE_DEPTH 8 /* source/configfile/INCLUDE */
#define CFG_SUBMENU_DEPTH 16
#define CFG_STEPS_MAX 1000000 /* interpreter steps per config file */
/* What the included files (INCLUDE, source, configfile, load_env) of one
 * filesystem may cost in all: includes fan out (a file that includes the
 * next ten times, eight deep, is 10^8 reads), so each attempt counts. */
#ifndef CFG_FILES_MAX /* the fuzz targets lower it to keep runs fast */
#define CFG_FILES_MAX 1024
#endif
#define CFG_BYTES_MAX (32u << 20)

/* Most other filesystems one parse records as reached; past it the parse
 * counts as depending on every filesystem. */
#define CFG_REACHED_MAX 16

struct cfg_ctx {
	struct arena *a;
	const struct fs_root *fs; /* the filesystem being read */
	const struct fs_root *const
	    *all; /* every known filesystem (grub search) */
	size_t n_all;
	struct entry_list *out;
	unsigned files; /* included files tried so far */
	size_t bytes;	/* and the bytes they held */
	bool spent;	/* past a limit: warned once */
	/* What the parse looked up among @all (cfg_reached()): the session
	 * parses a filesystem again only when one it depends on comes or
	 * goes. @missed: a lookup found nothing (a filesystem that arrives
	 * may answer it); @all_deps: the answer depends on the whole set
	 * (grub's (hdN) numbering), or more than CFG_REACHED_MAX. */
	const struct fs_root *reached[CFG_REACHED_MAX];
	size_t n_reached;
	bool missed, all_deps;
	/* A fact of the machine: why no EFI loader can boot through the
	 * firmware here (efi_fw_ready(), as the firmware source read it:
	 * source.h), or NULL. efi_loaders_parse_fs() lists its entries and
	 * grub's `chainloader` of an .efi disables its entry with this
	 * reason. The firmware's own boot options are not the parsers':
	 * they are a source of entries (source/firmware.c). */
	const char *fw_off;
};

/* Count @files included-file attempts and @bytes read for @path against
 * CFG_FILES_MAX and CFG_BYTES_MAX. False once past either: the caller
 * reads nothing more; the first refusal leaves a warning. */
bool cfg_budget(struct cfg_ctx *ctx, const char *path, unsigned files,
		size_t bytes);

/* Record that a lookup among ctx->all found @fs (NULL: found nothing).
 * Every parser that looks at other filesystems calls it. */
void cfg_reached(struct cfg_ctx *ctx, const struct fs_root *fs);

#endif
