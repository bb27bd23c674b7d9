/* kexload.c - load a kernel for a later kexec, with kexec-tools' habits.
 *
 * Argument parsing and wiring only: the kexec room does the work. Exit 0
 * only on success, 1 on a refusal, 2 on a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kexec/blob.h"
#include "kexec/load.h"
#include "kexec/machine.h"

#define KEXLOAD_INITRD_MAX 32
#define CMDLINE_MAX 65536

struct kexload {
	const char *kernel;
	const char *initrds[KEXLOAD_INITRD_MAX];
	size_t n_initrds;
	const char *append;
	bool reuse, unload, exec, dry_run;
	struct kexec_request rq;
	struct kexec_machine_paths paths;
};

enum {
	OPT_INITRD = 256,
	OPT_APPEND,
	OPT_REUSE,
	OPT_DRY,
	OPT_SHA,
	OPT_MEMMAP,
	OPT_PARAMS,
	OPT_EFI,
	OPT_IOMEM,
	OPT_MEMINFO,
	OPT_VERSION
};

static const struct option long_opts[] = {
    {"load", required_argument, NULL, 'l'},
    {"initrd", required_argument, NULL, OPT_INITRD},
    {"ramdisk", required_argument, NULL, OPT_INITRD},
    {"append", required_argument, NULL, OPT_APPEND},
    {"command-line", required_argument, NULL, OPT_APPEND},
    {"reuse-cmdline", no_argument, NULL, OPT_REUSE},
    {"kexec-file-syscall", no_argument, NULL, 's'},
    {"kexec-syscall", no_argument, NULL, 'c'},
    {"load-panic", no_argument, NULL, 'p'},
    {"unload", no_argument, NULL, 'u'},
    {"exec", no_argument, NULL, 'e'},
    {"dry-run", no_argument, NULL, OPT_DRY},
    {"sha256", no_argument, NULL, OPT_SHA},
    {"memmap", required_argument, NULL, OPT_MEMMAP},
    {"boot-params", required_argument, NULL, OPT_PARAMS},
    {"efi-dir", required_argument, NULL, OPT_EFI},
    {"iomem", required_argument, NULL, OPT_IOMEM},
    {"meminfo", required_argument, NULL, OPT_MEMINFO},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

static void usage(FILE *f)
{
	fputs(
	    "usage: kexload -l KERNEL [--initrd FILE]... [--append STRING]\n"
	    "               [--reuse-cmdline] [-s|-c] [--sha256] [--dry-run]\n"
	    "       kexload -p [-l] KERNEL ...  load a panic (crash) kernel\n"
	    "       kexload -u [-p]         unload\n"
	    "       kexload -e              boot the loaded kernel\n"
	    "  -s, --kexec-file-syscall  use kexec_file_load\n"
	    "  -c, --kexec-syscall       use kexec_load\n"
	    "  --dry-run                 print the plan, load nothing\n"
	    "  --memmap DIR|FILE, --boot-params FILE, --efi-dir DIR, --iomem "
	    "FILE,\n"
	    "  --meminfo FILE\n"
	    "                            read these instead of this machine's\n"
	    "                            (--meminfo: MemTotal for the plan,\n"
	    "                            MemAvailable for reading the files)\n",
	    f);
}

static int parse_opt(struct kexload *k, int c, const char *arg)
{
	switch (c) {
	case 'l':
		k->kernel = arg;
		break;
	case 'p':
		k->rq.crash = true;
		break;
	case OPT_INITRD:
		if (k->n_initrds == KEXLOAD_INITRD_MAX)
			return -E2BIG;
		k->initrds[k->n_initrds++] = arg;
		break;
	case OPT_APPEND:
		k->append = arg;
		break;
	case OPT_REUSE:
		k->reuse = true;
		break;
	case 's':
		k->rq.syscall = KEXEC_SYSCALL_FILE;
		break;
	case 'c':
		k->rq.syscall = KEXEC_SYSCALL_LOAD;
		break;
	case 'u':
		k->unload = true;
		break;
	case 'e':
		k->exec = true;
		break;
	case OPT_DRY:
		k->rq.dry_run = true;
		break;
	case OPT_SHA:
		k->rq.sha256 = true;
		break;
	case OPT_MEMMAP:
		k->paths.memmap = arg;
		break;
	case OPT_PARAMS:
		k->paths.boot_params = arg;
		break;
	case OPT_EFI:
		k->paths.efi_dir = arg;
		break;
	case OPT_IOMEM:
		k->paths.iomem = arg;
		break;
	case OPT_MEMINFO:
		k->paths.meminfo = arg;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/* /proc/cmdline without BOOT_IMAGE= (the old loader's, not ours). */
static int reuse_cmdline(char *out, size_t len)
{
	char buf[CMDLINE_MAX], *save = NULL;
	FILE *f = fopen("/proc/cmdline", "re");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	out[0] = '\0';
	for (char *w = strtok_r(buf, " \n", &save); w;
	     w = strtok_r(NULL, " \n", &save)) {
		if (strncmp(w, "BOOT_IMAGE=", 11) == 0)
			continue;
		if (strlen(out) + strlen(w) + 2 > len)
			return -E2BIG;
		if (out[0])
			strcat(out, " ");
		strcat(out, w);
	}
	return 0;
}

static int open_all(const char *const *paths, size_t n, int *fds)
{
	for (size_t i = 0; i < n; i++) {
		fds[i] = open(paths[i], O_RDONLY | O_CLOEXEC);
		if (fds[i] < 0) {
			int rc = -errno;

			fprintf(stderr, "kexload: cannot open %s: %s\n",
				paths[i], strerror(errno));
			while (i--)
				close(fds[i]);
			return rc;
		}
	}
	return 0;
}

/* Open the kernel and initrds, refuse them when they would not fit in the
 * free RAM (past it the OOM killer ends kexload half-way), then read
 * them: the kernel into rq.kernel, the initrds back to back into
 * rq.initrd. */
static int read_inputs(struct kexload *k)
{
	int fds[KEXLOAD_INITRD_MAX + 1];
	unsigned long long ks = 0, is = 0, avail = 0;
	bool initrd_failed = false;
	int rc = open_all(&k->kernel, 1, fds);

	if (rc)
		return rc;
	rc = open_all(k->initrds, k->n_initrds, fds + 1);
	if (rc) {
		close(fds[0]);
		return rc;
	}
	rc = kexec_blob_size(fds, 1, &ks);
	if (!rc && k->n_initrds) {
		rc = kexec_blob_size(fds + 1, k->n_initrds, &is);
		initrd_failed = rc != 0;
	}
	if (!rc && kexec_machine_room(k->paths.meminfo, ks + is, &avail)) {
		fprintf(stderr,
			"kexload: the kernel%s (%llu MiB) %s not fit in "
			"the free RAM (%llu MiB)\n",
			k->n_initrds ? " and initrds" : "", (ks + is) >> 20,
			k->n_initrds ? "do" : "does", avail >> 20);
		rc = -ENOMEM;
		goto out;
	}
	if (!rc)
		rc = kexec_blob_read(fds, 1, NULL, &k->rq.kernel);
	if (!rc && k->n_initrds) {
		rc =
		    kexec_blob_read(fds + 1, k->n_initrds, NULL, &k->rq.initrd);
		initrd_failed = rc != 0;
	}
	if (rc)
		fprintf(stderr, "kexload: cannot read %s%s: %s\n",
			initrd_failed ? k->initrds[0] : k->kernel,
			initrd_failed && k->n_initrds > 1 ? " and the others"
							  : "",
			strerror(-rc));
out:
	for (size_t i = 0; i <= k->n_initrds; i++)
		close(fds[i]);
	return rc;
}

static int build_cmdline(const struct kexload *k, char *cmd, size_t len)
{
	int rc;

	cmd[0] = '\0';
	if (k->reuse && (rc = reuse_cmdline(cmd, len)) < 0) {
		fprintf(stderr, "kexload: cannot reuse /proc/cmdline: %s\n",
			strerror(-rc));
		return rc;
	}
	if (k->append) {
		if (strlen(cmd) + strlen(k->append) + 2 > len)
			return -E2BIG;
		if (cmd[0])
			strcat(cmd, " ");
		strcat(cmd, k->append);
	}
	return 0;
}

static void print_inputs(const struct kexload *k, FILE *out)
{
	fprintf(out, "kernel:   %s (%zu bytes)\n", k->kernel, k->rq.kernel.len);
	for (size_t i = 0; i < k->n_initrds; i++)
		fprintf(out, "initrd %zu: %s\n", i, k->initrds[i]);
}

static int do_load(struct kexload *k)
{
	static char cmd[CMDLINE_MAX];
	char err[512] = "";
	enum kexec_syscall used;
	int rc;

	rc = build_cmdline(k, cmd, sizeof(cmd));
	if (rc)
		return rc;
	rc = read_inputs(k);
	if (rc)
		goto out;
	k->rq.cmdline = cmd;
	k->rq.paths = &k->paths;
	if (k->rq.dry_run)
		print_inputs(k, stdout);
	rc = kexec_load_request(&k->rq, &used, err, sizeof(err));
	if (rc)
		fprintf(stderr, "kexload: %s: %s\n", k->kernel, err);
	else if (!k->rq.dry_run)
		printf("kexload: loaded %s%s with %s\n", k->kernel,
		       k->rq.crash ? " as the panic kernel" : "",
		       kexec_syscall_name(used));
out:
	kexec_blob_free(&k->rq.initrd);
	kexec_blob_free(&k->rq.kernel);
	return rc;
}

static int run(struct kexload *k)
{
	char err[512] = "";
	int rc;

	if (k->unload) {
		rc = kexec_unload(k->rq.crash, err, sizeof(err));
		if (rc)
			fprintf(stderr, "kexload: unload: %s\n", err);
		return rc;
	}
	if (k->kernel && (rc = do_load(k)) < 0)
		return rc;
	if (k->exec && !k->rq.dry_run) {
		fflush(stdout);
		rc = kexec_jump(NULL, NULL, err, sizeof(err));
		fprintf(stderr, "kexload: exec: %s\n", err);
		return rc;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct kexload k;
	int c;

	memset(&k, 0, sizeof(k));
	while ((c = getopt_long(argc, argv, "l:pscuehv", long_opts, NULL)) !=
	       -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		if (c == OPT_VERSION || c == 'v') {
			printf("kexload %s\n", BOOTMENU_VERSION);
			return 0;
		}
		if (parse_opt(&k, c, optarg) < 0) {
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc && !k.kernel)
		k.kernel =
		    argv[optind++]; /* kexec-tools: kexec -l is optional */
	if (optind < argc || (!k.kernel && !k.unload && !k.exec)) {
		usage(stderr);
		return 2;
	}
	return run(&k) ? 1 : 0;
}
