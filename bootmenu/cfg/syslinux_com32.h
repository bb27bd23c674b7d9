/* syslinux_com32.h - the COM32 modules that are the menu or only pick a
 * command to run (syslinux_com32.c). */
#ifndef BM_CFG_SYSLINUX_COM32_H
#define BM_CFG_SYSLINUX_COM32_H

#include "cfg/syslinux_int.h"

/* True for vesamenu.c32 and menu.c32: the menu itself. */
bool sl_com32_menu(const char *file);
/* True for whichsys.c32, ifcpu64.c32 and ifcpu.c32. */
bool sl_com32_dispatcher(const char *file);
/* The command dispatcher @file runs given @args, acting as s->variant on
 * a 64-bit x86 CPU; "" runs the default. NULL, with *why set, when it
 * runs nothing. The command is owned by s->ctx->a. */
const char *sl_com32_branch(struct sl_parse *s, const char *file,
			    const char *args, const char **why);

#endif
