/* peakrss.c - run a command, then print its peak resident set size.
 *
 *   peakrss CMD [ARG]...  ->  stderr: "PEAKRSS kb=N status=S"
 * The figure is the child's ru_maxrss from wait4(2) (kilobytes), the same
 * number /usr/bin/time -v reports as "Maximum resident set size". Built
 * static with musl for the guest and with gcc for the host.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status = 0;
	pid_t pid;

	if (argc < 2) {
		fputs("usage: peakrss CMD [ARG]...\n", stderr);
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("peakrss: fork");
		return 1;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror("peakrss: exec");
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("peakrss: wait4");
		return 1;
	}
	fprintf(stderr, "PEAKRSS kb=%ld status=%d\n", ru.ru_maxrss,
		WIFEXITED(status) ? WEXITSTATUS(status)
				  : 128 + WTERMSIG(status));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
