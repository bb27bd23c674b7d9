/* bls.c - placeholder until the bls parser lands. */
#include "cfg/cfg.h"

int bls_parse_fs(struct cfg_ctx *ctx)
{
	(void)ctx;
	return 0;
}
