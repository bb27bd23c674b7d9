/* ipxe.c - where an iPXE script is, and the entry points (ipxe.h).
 *
 * A script starts with "#!ipxe" (or the older "#!gpxe") and a blank;
 * anything else is refused with a warning. ipxe_parse.c splits the rest
 * into lines, ipxe_exec.c runs them and makes the entries.
 */
#include "cfg/ipxe.h"
#include "scan/fs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

int ipxe_parse_buf(struct cfg_ctx *ctx, const char *path,
		   const struct ipxe_var *vars, size_t n_vars, const char *buf,
		   size_t len)
{
	if (!ipxe_magic(buf, len)) {
		entry_warn(ctx->out, ctx->fs, path, 1,
			   "ipxe: not an iPXE script: it does not start with "
			   "#!ipxe, so it is not run");
		return -ENOEXEC;
	}
	return ipxe_exec_script(ctx, path, vars, n_vars, buf, len);
}

int ipxe_parse(struct cfg_ctx *ctx, const char *path,
	       const struct ipxe_var *vars, size_t n_vars)
{
	char *buf;
	size_t len;
	int rc = fs_read_file(ctx->fs, path, FS_CONFIG_MAX, &buf, &len);

	if (rc < 0)
		return rc;
	rc = ipxe_parse_buf(ctx, path, vars, n_vars, buf, len);
	free(buf);
	return rc;
}

/* iPXE's EFI build runs autoexec.ipxe from the directory it was loaded
 * from, then from the root (efi_autoexec.c); which directory that was a
 * disk does not say, so the root's. boot.ipxe is the name the iPXE
 * documentation gives the script a DHCP server hands out. iPXE runs one
 * script: the first found is read. */
int ipxe_parse_fs(struct cfg_ctx *ctx)
{
	static const char *const paths[] = {"/autoexec.ipxe", "/boot.ipxe"};

	for (size_t i = 0; i < N(paths); i++) {
		int rc = ipxe_parse(ctx, paths[i], NULL, 0);

		if (rc == -ENOENT || rc == -ENOTDIR)
			continue;
		if (rc < 0 && rc != -ENOEXEC)
			entry_warn(ctx->out, ctx->fs, paths[i], 0,
				   "cannot read: %s", strerror(-rc));
		return 0;
	}
	return 0;
}
