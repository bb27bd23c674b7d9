#include "util/modload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* One line to @log, opened for each line as /dev/kmsg wants (one write a
 * record): in the kernel's log its printk time stamps it on the serial
 * console, the same clock as the kernel's own lines. */
static void __attribute__((format(printf, 2, 3)))
kmsg(const char *log, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int fd = open(log, O_WRONLY | O_APPEND | O_CLOEXEC);

	if (fd < 0)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (write(fd, line, strlen(line)) < 0) {
		/* nowhere else to say it */
	}
	close(fd);
}

/* finit_module() of @path; 0 or -errno. EEXIST (built in, or loaded
 * already) is no failure. */
static int load_one(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, "", 0) != 0 && errno != EEXIST)
		rc = -errno;
	close(fd);
	return rc;
}

/* A process loading @path; -errno when none could be started. */
static pid_t spawn_load(const char *path, const char *log)
{
	pid_t pid = fork();

	if (pid == 0) {
		int rc = load_one(path);

		if (rc < 0)
			kmsg(log, "bootmenu-modload: %s: %s\n", path,
			     strerror(-rc));
		_exit(rc < 0 ? 1 : 0);
	}
	return pid < 0 ? -errno : pid;
}

/* Wait for the @n loads of @pids; returns how many failed. */
static int reap(const pid_t *pids, int n)
{
	int failed = 0;

	for (int i = 0; i < n; i++) {
		int status = 0;

		while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR)
			;
		failed += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	}
	return failed;
}

int modload_run(const char *list, const char *log)
{
	FILE *f = fopen(list, "re");
	char path[512];
	pid_t pids[MODLOAD_MAX_GROUP];
	int group = 1, n = 0, failed = 0;
	long t0, g0;
	bool more = true;

	if (!f)
		return -errno;
	t0 = g0 = mono_ms();
	kmsg(log, "bootmenu-modload: start\n");
	while (more) {
		more = fgets(path, sizeof(path), f) != NULL;
		path[more ? strcspn(path, "\n") : 0] = '\0';
		if (path[0] && path[0] != '#') {
			pid_t pid;

			if (n == MODLOAD_MAX_GROUP) { /* split the group */
				failed += reap(pids, n);
				n = 0;
			}
			pid = spawn_load(path, log);

			if (pid > 0)
				pids[n++] = pid;
			else
				failed++;
			continue;
		}
		if (n) {
			failed += reap(pids, n);
			kmsg(log,
			     "bootmenu-modload: group %d done: %d modules in "
			     "%ld ms\n",
			     group++, n, mono_ms() - g0);
			n = 0;
			g0 = mono_ms();
		}
		if (path[0] == '#') /* a mark, once the loads before it are */
			kmsg(log, "bootmenu-modload: %s\n", path + 1);
	}
	fclose(f);
	kmsg(log, "bootmenu-modload: all done in %ld ms, %d failed\n",
	     mono_ms() - t0, failed);
	return failed;
}

int modload_start(const char *list)
{
	pid_t pid;
	int status;

	if (access(list, R_OK) != 0)
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* the loader's own child does the work, so that it is PID 1's
		 * to reap and never one of bootmenu's children */
		if (fork() == 0) {
			modload_run(list, "/dev/kmsg");
			_exit(0);
		}
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return 0;
}
