/* init.c - /init of bootmenu's initramfs.
 *
 * Mounts the kernel's filesystems, then keeps bootmenu running on the
 * console: restarts it when it exits or crashes (with a short back-off and
 * a message), reaps every child, and gives a busybox shell when asked with
 * `bootmenu.shell` on the kernel command line or after bootmenu failed
 * INIT_FAILS_FOR_SHELL times in a row.
 */
#include "init/init_cmdline.h"

#include <errno.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define INIT_BOOTMENU "/bin/bootmenu"
#define INIT_SHELL "/bin/sh"
#define INIT_FAILS_FOR_SHELL 5
/* A run shorter than this counts as a failure for the back-off. */
#define INIT_STABLE_MS 10000
#define INIT_BACKOFF_MIN_MS 200
#define INIT_BACKOFF_MAX_MS 2000

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One line, written at once: stderr is unbuffered, and the kernel's own
 * console lines landed between the pieces of a line written in three
 * (the tests wait for "init: bootmenu <version>"). */
static void say(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	memcpy(line, "init: ", 6);
	va_start(ap, fmt);
	n = vsnprintf(line + 6, sizeof(line) - 7, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	n = 6 + (n < (int)sizeof(line) - 7 ? n : (int)sizeof(line) - 8);
	line[n++] = '\n';
	fwrite(line, 1, (size_t)n, stderr);
}

static void mount_one(const char *src, const char *dir, const char *type,
		      unsigned long flags, const char *data)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, flags, data) < 0 && errno != EBUSY)
		say("mount %s on %s: %s", type, dir, strerror(errno));
}

static void mount_all(void)
{
	const unsigned long safe = MS_NOSUID | MS_NODEV | MS_NOEXEC;

	mount_one("proc", "/proc", "proc", safe, NULL);
	mount_one("sysfs", "/sys", "sysfs", safe, NULL);
	mount_one("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
	mount_one("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, NULL);
	mount_one("tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755");
	mount_one("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
	/* the lockdown state (securityfs), and the EFI variables the firmware
	 * boot method writes: only when the machine booted through UEFI */
	mount_one("securityfs", "/sys/kernel/security", "securityfs", safe,
		  NULL);
	if (access("/sys/firmware/efi", F_OK) == 0)
		mount_one("efivarfs", "/sys/firmware/efi/efivars", "efivarfs",
			  safe, NULL);
	mkdir("/run/bootmenu", 0755);
}

static void console_stdio(void)
{
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);

	if (fd < 0)
		return;
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Start @path as a session leader with the console as its terminal. */
static pid_t spawn(const char *path, char *const argv[])
{
	pid_t pid = fork();
	sigset_t none;

	if (pid != 0)
		return pid;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setsid();
	console_stdio();
	ioctl(0, TIOCSCTTY, 0);
	execv(path, argv);
	fprintf(stderr, "init: cannot run %s: %s\n", path, strerror(errno));
	_exit(127);
}

/* Wait for @pid, reaping any other child on the way; returns its status. */
static int wait_for(pid_t pid)
{
	int status;

	for (;;) {
		pid_t got = waitpid(-1, &status, 0);

		if (got == pid)
			return status;
		if (got < 0 && errno == ECHILD)
			return 0;
	}
}

static void run_shell(void)
{
	char *argv[] = {INIT_SHELL, NULL};

	say("rescue shell: type `exit` to go back to the menu");
	wait_for(spawn(INIT_SHELL, argv));
}

static void describe_exit(int status, long ran_ms)
{
	if (WIFSIGNALED(status))
		say("bootmenu was killed by signal %d after %ld ms; restarting",
		    WTERMSIG(status), ran_ms);
	else
		say("bootmenu exited with status %d after %ld ms; restarting",
		    WEXITSTATUS(status), ran_ms);
}

static void supervise(const struct init_cmdline *cl)
{
	char *argv[] = {INIT_BOOTMENU, NULL};
	long backoff = INIT_BACKOFF_MIN_MS;
	int fails = 0;

	if (cl->shell)
		run_shell();
	for (;;) {
		long start = now_ms(), ran;
		int status = wait_for(spawn(INIT_BOOTMENU, argv));

		ran = now_ms() - start;
		describe_exit(status, ran);
		if (ran >= INIT_STABLE_MS) {
			fails = 0;
			backoff = INIT_BACKOFF_MIN_MS;
		} else if (++fails >= INIT_FAILS_FOR_SHELL) {
			say("bootmenu failed %d times in a row", fails);
			run_shell();
			fails = 0;
		}
		usleep((useconds_t)backoff * 1000);
		if (fails && backoff < INIT_BACKOFF_MAX_MS)
			backoff *= 2;
	}
}

int main(void)
{
	struct init_cmdline cl;
	char buf[4096];
	ssize_t n;
	int fd;

	if (getpid() != 1) {
		fputs("init: this is bootmenu's /init, meant to run as PID 1\n",
		      stderr);
		return 1;
	}
	mount_all();
	console_stdio();
	setenv("PATH", "/bin:/sbin", 1);
	setenv("HOME", "/", 1);
	fd = open("/proc/cmdline", O_RDONLY);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : 0;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	init_parse_cmdline(buf, &cl);
	say("bootmenu %s", BOOTMENU_VERSION);
	supervise(&cl);
	reboot(RB_POWER_OFF);
	return 0;
}
