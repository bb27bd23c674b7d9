/* ipxe.h - the subset of iPXE scripts (#!ipxe) that describes what to
 * boot: kernel, initrd, imgargs, boot, chain, set, goto and menus.
 *
 * ipxe_parse_fs() (cfg.h) reads the script iPXE itself runs from a disk
 * (autoexec.ipxe in the root) or the conventional boot.ipxe. The network
 * room calls ipxe_parse() on the script a DHCP server named, with the
 * lease's values as variables. Entries and warnings go to ctx->out,
 * memory comes from ctx->a; what is supported is listed in ipxe.c.
 */
#ifndef BM_CFG_IPXE_H
#define BM_CFG_IPXE_H

#include "cfg/cfg.h"

/* Longest logical line (backslash continuations joined); longer ones are
 * cut there with a warning. Words and ${...} expansions obey it too. */
#define IPXE_LINE_MAX 4096
/* Most words one command line is split into. */
#define IPXE_ARGS_MAX 256
/* Most entries one script yields. */
#define IPXE_ENTRIES_MAX 256
/* Commands run over every path through the script (each menu item is
 * one path): a loop that never boots stops here. */
#define IPXE_STEPS_MAX 10000
/* Most gotos one path follows: `:a goto a` ends there with a warning. */
#define IPXE_GOTO_MAX 1024
/* Most images (kernel, initrds) registered at once. */
#define IPXE_IMAGES_MAX (ENTRY_INITRD_MAX + 8)
/* Most variables (the caller's and set's together). */
#define IPXE_VARS_MAX 512
/* Most items one menu lists. */
#define IPXE_ITEMS_MAX 256
/* Most ${...} expansions in one word (a value may expand to another). */
#define IPXE_EXPAND_MAX 64

/* A variable as iPXE names it ("ip", "net0/mac", "filename"), with its
 * value formatted as iPXE shows it (a MAC as "52:54:00:12:34:56"). A
 * ${name} without a block also finds a "block/name" given here, as iPXE
 * looks in every settings block: ${mac} finds "net0/mac". */
struct ipxe_var {
	const char *name;
	const char *value;
};

/* Parse the script at @path on ctx->fs with the @n_vars variables
 * @vars (may be NULL: none). Relative names in it resolve against the
 * script's directory. Returns the number of entries added, -errno when
 * @path cannot be read (-EFBIG past FS_CONFIG_MAX), or -ENOEXEC when it
 * does not start with #!ipxe (a warning says so). */
int ipxe_parse(struct cfg_ctx *ctx, const char *path,
	       const struct ipxe_var *vars, size_t n_vars);

/* The same for a script already in memory, buf[0..len) (need not be
 * NUL-terminated), that claims to live at @path. */
int ipxe_parse_buf(struct cfg_ctx *ctx, const char *path,
		   const struct ipxe_var *vars, size_t n_vars, const char *buf,
		   size_t len);

/* True when @s is a URL ("http://...", "tftp://..."): entries keep such
 * kernel and initrd names verbatim (see ipxe.c). */
bool ipxe_is_url(const char *s);

#endif
