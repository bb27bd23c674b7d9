/* keyslot.c - how long bootmenu takes to try one LUKS keyslot.
 *
 *   keyslot DEVICE PASSPHRASE MEM_MAX_MIB
 *     -> stdout: "KEYSLOT kdf=K hash=H iter=N mem_kib=M lanes=L
 *                 wall_ms=W cpu_ms=C rc=R"
 * Reads DEVICE's LUKS header (vol/luks.h, the code the menu runs) and
 * opens its first keyslot with PASSPHRASE, timing luks_unlock() alone:
 * the key derivation, the AF merge and the digest check, single-threaded
 * as bootmenu runs them. Linked against build/host/libbootmenu.a (the
 * host figure) and build/target/libbootmenu.a (static, run inside a
 * TCG guest) by tests/bench/run.sh.
 */
#include "vol/luks.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

static double ms_of(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static unsigned long long dev_size(int fd)
{
	unsigned long long n = 0;
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		return (unsigned long long)st.st_size;
	if (ioctl(fd, BLKGETSIZE64, &n) < 0)
		return 0;
	return n;
}

int main(int argc, char **argv)
{
	static struct luks_hdr h;
	uint8_t key[512];
	size_t key_len = 0;
	char err[512];
	double w0, c0, w1, c1;
	int fd, rc, slot = -1;

	if (argc != 4) {
		fprintf(stderr,
			"usage: keyslot DEVICE PASSPHRASE MEM_MAX_MIB\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0 ||
	    luks_read(luks_fd_read, &fd, dev_size(fd), &h, err, sizeof(err)) <
		0 ||
	    !h.n_slot) {
		fprintf(stderr, "keyslot: %s: not a LUKS header we read\n",
			argv[1]);
		return 1;
	}
	struct luks_unlock u = {.pass = argv[2],
				.pass_len = strlen(argv[2]),
				.slot = h.slot[0].id,
				.mem_max_kib =
				    strtoull(argv[3], NULL, 10) * 1024};
	w0 = ms_of(CLOCK_MONOTONIC);
	c0 = ms_of(CLOCK_PROCESS_CPUTIME_ID);
	rc = luks_unlock(&h, luks_fd_read, &fd, &u, key, sizeof(key), &key_len,
			 &slot, err, sizeof(err));
	c1 = ms_of(CLOCK_PROCESS_CPUTIME_ID);
	w1 = ms_of(CLOCK_MONOTONIC);
	printf("KEYSLOT kdf=%s hash=%s iter=%u mem_kib=%u lanes=%u "
	       "wall_ms=%.1f cpu_ms=%.1f rc=%d\n",
	       h.slot[0].kdf, h.slot[0].kdf_hash[0] ? h.slot[0].kdf_hash : "-",
	       h.slot[0].iter, h.slot[0].mem_kib, h.slot[0].lanes, w1 - w0,
	       c1 - c0, rc);
	if (rc < 0)
		fprintf(stderr, "keyslot: %s\n", err);
	luks_free(&h);
	close(fd);
	return rc < 0;
}
