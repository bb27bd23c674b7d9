/* syslinux.c - placeholder until the syslinux parser lands. */
#include "cfg/cfg.h"

int syslinux_parse_fs(struct cfg_ctx *ctx)
{
	(void)ctx;
	return 0;
}
