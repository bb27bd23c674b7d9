/* verscmp.h - version comparison of the UAPI Version Format
 * Specification (what systemd-boot and bootctl sort BLS entries with).
 */
#ifndef BM_CFG_VERSCMP_H
#define BM_CFG_VERSCMP_H

/* <0, 0, >0 as @a is older than, the same as, or newer than @b.
 * NULL and "" sort before everything else. Examples, oldest first:
 * 122.1 < 123~rc1-1 < 123 < 123-a < 123-1 < 123^post1 < 123.1-1 < 123a-1. */
int cfg_verscmp(const char *a, const char *b);

#endif
