/* bare.c - placeholder until the bare parser lands. */
#include "cfg/cfg.h"

int bare_parse_fs(struct cfg_ctx *ctx)
{
	(void)ctx;
	return 0;
}
