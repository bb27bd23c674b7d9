/* grub_source.h - running another config file from grub.cfg: `source`,
 * `configfile`, and the top file itself (grub_source.c). */
#ifndef BM_CFG_GRUB_SOURCE_H
#define BM_CFG_GRUB_SOURCE_H

#include "cfg/grub_state.h"

/* Run buf[0..len) as the file @w names, with $config_file and
 * $config_directory set to it meanwhile (GRUB's read_config_file()).
 * @buf stays the caller's. Returns st->status. */
int grub_source_run(struct grub_state *st, const struct grub_where *w,
		    const char *buf, size_t len);

/* `source FILE` (@configfile false) or `configfile FILE`: read @arg and
 * run it; a configfile's menu replaces the one being built. Returns the
 * command's exit status. */
int grub_source_file(struct grub_state *st, const char *arg, bool configfile);

#endif
