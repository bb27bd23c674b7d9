/* grub.c - placeholder until the grub parser lands. */
#include "cfg/cfg.h"

int grub_parse_fs(struct cfg_ctx *ctx)
{
	(void)ctx;
	return 0;
}
