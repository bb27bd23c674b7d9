/* net_cfg.c - a network root's one config, read by its loader's parser.
 *
 * A TFTP server cannot be listed, so the usual searches (extlinux.conf in
 * /boot/syslinux, grub.cfg in /boot/grub...) mean nothing there: the
 * network source already found the config the loader DHCP named would
 * read (fs_net.config), and only that parser runs, as that loader would:
 * - pxelinux: the config's paths are relative to the path prefix, which
 *   is pxelinux's working directory; the TFTP root is the server's.
 * - GRUB: the config runs as grub.cfg; its paths are on the server.
 * - iPXE: the script runs with the lease's values as ${...} variables.
 */
#include "cfg/net_cfg.h"
#include "cfg/grub.h"
#include "cfg/ipxe.h"
#include "cfg/syslinux_boot.h"
#include "scan/fs.h"

#include <errno.h>
#include <string.h>

int net_parse_fs(struct cfg_ctx *ctx)
{
	const struct fs_net *n = ctx->fs->net;
	struct sl_seen seen = {0};

	if (!n->config) {
		entry_warn(ctx->out, ctx->fs, "/", 0, "%s",
			   n->why ? n->why : "the server offered no config");
		return 0;
	}
	switch (n->loader) {
	case FS_NET_PXELINUX:
		sl_run(ctx, &seen, SL_VAR_PXELINUX, "/", n->config,
		       n->prefix && *n->prefix ? n->prefix : "/", NULL, 0);
		break;
	case FS_NET_GRUB:
		grub_run_file(ctx, n->config);
		break;
	case FS_NET_IPXE: {
		int rc = ipxe_parse(ctx, n->config, n->vars, n->n_vars);

		if (rc < 0 && rc != -ENOEXEC)
			entry_warn(ctx->out, ctx->fs, n->config, 0,
				   "cannot read: %s", strerror(-rc));
		break;
	}
	case FS_NET_NONE:
		break;
	}
	return 0;
}
