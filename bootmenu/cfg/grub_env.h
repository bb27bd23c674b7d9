/* grub_env.h - reading a GRUB environment block (grubenv).
 *
 * grub-editenv writes a file that starts with "# GRUB Environment Block\n",
 * holds NAME=VALUE lines (a backslash escapes a newline or a backslash in a
 * value) and is padded with '#' to 1024 bytes. load_env reads it; bootmenu
 * never writes it (save_env is ignored).
 */
#ifndef BM_CFG_GRUB_ENV_H
#define BM_CFG_GRUB_ENV_H

#include <stddef.h>

#define GRUB_ENV_SIGNATURE "# GRUB Environment Block\n"
/* Largest block read (grub-editenv writes 1024 bytes; others may grow it). */
#define GRUB_ENV_MAX (64u << 10)

/* Called for each variable; @name and @value are NUL-terminated and only
 * valid during the call. Return nonzero to stop. */
typedef int (*grub_env_fn)(void *data, const char *name, const char *value);

/* Parse buf[0..len). Returns the number of variables passed to @fn, or
 * -EINVAL when the signature is missing, -EFBIG past GRUB_ENV_MAX. */
int grub_env_parse(const char *buf, size_t len, grub_env_fn fn, void *data);

#endif
