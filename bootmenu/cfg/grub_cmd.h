/* grub_cmd.h - the grub.cfg commands bootmenu understands (grub_cmd.c). */
#ifndef BM_CFG_GRUB_CMD_H
#define BM_CFG_GRUB_CMD_H

#include "cfg/grub_exec.h"

/* Every command by name, ending with a NULL name: those that build
 * entries or change the state, and those GRUB has that change nothing
 * kexec boots (no function). grub.c puts it in st->cmds. */
extern const struct grub_cmd grub_cmds[];

#endif
