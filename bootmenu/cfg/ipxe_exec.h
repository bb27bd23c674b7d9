/* ipxe_exec.h - running an iPXE script and making its entries
 * (ipxe_exec.c, which says what each command does here).
 *
 * The script is split into lines by ipxe_parse.c first; the run follows
 * every path through it (each menu item is one) with its own variables
 * and images. Entries and warnings go to ctx->out; what the run keeps
 * comes from ctx->a, and its scratch memory is freed before it returns.
 */
#ifndef BM_CFG_IPXE_EXEC_H
#define BM_CFG_IPXE_EXEC_H

#include "cfg/ctx.h"
#include "scan/fs.h" /* struct ipxe_var */

/* Most entries one script yields. */
#define IPXE_ENTRIES_MAX 256
/* Commands run over every path through the script (each menu item is
 * one path): a loop that never boots stops here. The fuzz target lowers
 * these limits to keep its runs fast; their own paths are still reached. */
#ifndef IPXE_STEPS_MAX
#define IPXE_STEPS_MAX 10000
#endif
/* Bytes that expanding ${...} may write over the whole run, counted as
 * each expansion's full length, cut or not: words grown to the line's
 * limit in a loop stop here, where they cost a minute and 280 MB before
 * (a 4.4 KB script the fuzzer found). 16 MiB is 4,096 words at the
 * line's limit. */
#ifndef IPXE_EXPAND_BYTES_MAX
#define IPXE_EXPAND_BYTES_MAX (16ul << 20)
#endif
/* Most gotos one path follows: `:a goto a` ends there with a warning. */
#ifndef IPXE_GOTO_MAX
#define IPXE_GOTO_MAX 1024
#endif
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

/* Run the script buf[0..len) (its "#!ipxe" already checked) that lives
 * at @path on ctx->fs, with the @n_vars variables @vars (may be NULL),
 * which stay the caller's. Relative names in it resolve against the
 * script's directory. Returns the number of entries added, or -ENOMEM. */
int ipxe_exec_script(struct cfg_ctx *ctx, const char *path,
		     const struct ipxe_var *vars, size_t n_vars,
		     const char *buf, size_t len);

#endif
