/* lilo.c - placeholder until the lilo parser lands. */
#include "cfg/cfg.h"

int lilo_parse_fs(struct cfg_ctx *ctx)
{
	(void)ctx;
	return 0;
}
