/* uki.c - placeholder until the uki parser lands. */
#include "cfg/cfg.h"

int uki_parse_fs(struct cfg_ctx *ctx)
{
	(void)ctx;
	return 0;
}
