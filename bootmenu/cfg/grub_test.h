/* grub_test.h - grub.cfg's `test` and `[` expressions (grub_test.c). */
#ifndef BM_CFG_GRUB_TEST_H
#define BM_CFG_GRUB_TEST_H

#include "cfg/grub_state.h"

/* Evaluate argv[0..argc) (the words after `test`, or between `[` and
 * `]`): 0 when true, 1 when false. File tests look through st's
 * filesystems (grub_where()); the evaluation counts steps (grub_step()). */
int grub_test(struct grub_state *st, const char *const *argv, size_t argc);

#endif
