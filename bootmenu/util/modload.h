/* modload.h - kernel modules loaded behind the first frame (issue #38's
 * experiment, kernel/modules-experiment.sh).
 *
 * The list is made at build time: one module path a line, an empty line
 * ending a group. The modules of a group load in parallel (a process
 * each), and a group starts when the one before it has loaded: a module's
 * dependencies are in earlier groups. Nothing here runs unless the
 * initramfs holds the list: today's kernel has no modules. A line that
 * starts with '#' is a mark: once every load before it has returned, its
 * text goes to the log.
 */
#ifndef BM_UTIL_MODLOAD_H
#define BM_UTIL_MODLOAD_H

/* Where the experiment's initramfs puts the list. */
#define MODLOAD_LIST "/lib/modules/load.list"
/* Modules in one group at most; a longer group is split. */
#define MODLOAD_MAX_GROUP 64

/* Load the modules of @list in a process of its own, in order, and
 * return at once. Each group's end and every failed load are written to
 * the kernel's log (/dev/kmsg), which is how the timing is read from the
 * serial console. The process is left to PID 1 to reap. Returns 0, or
 * -errno: -ENOENT when there is no list (nothing to do), or fork()'s. */
int modload_start(const char *list);

/* The loading itself, in the calling process: what modload_start()'s
 * process runs, with /dev/kmsg as @log (an existing file the lines are
 * appended to). Returns the number of modules that failed to load, or
 * -errno when @list cannot be opened. */
int modload_run(const char *list, const char *log);

#endif
