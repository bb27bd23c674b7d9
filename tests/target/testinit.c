/* testinit.c - /init of the demo's and the tests' target initrd.
 *
 * Proves a kexec boot arrived: prints one line naming the entry it was
 * booted as (demo.entry= on its command line), its /proc/cmdline, whether
 * it sees EFI, and a CRC-32 of every file under /payload (the tests put
 * files there through a second, concatenated initrd), and when there is
 * a TPM its PCRs 8, 9, 11 and 12 of every bank and the event log bootmenu
 * passed on (hex, for the tests to replay). Then a shell, or a power-off
 * when the command line says target.poweroff.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

static uint32_t crc32_update(uint32_t crc, const unsigned char *p, size_t n)
{
	crc = ~crc;
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
	}
	return ~crc;
}

static void payloads(void)
{
	static unsigned char buf[65536];
	struct dirent *de;
	DIR *d = opendir("/payload");

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[512];
		unsigned long long total = 0;
		uint32_t crc = 0;
		ssize_t n;
		int fd;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/payload/%s", de->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		while ((n = read(fd, buf, sizeof(buf))) > 0) {
			crc = crc32_update(crc, buf, (size_t)n);
			total += (unsigned long long)n;
		}
		close(fd);
		printf("BOOTMENU-TARGET: payload %s bytes=%llu crc32=%08x\n",
		       de->d_name, total, crc);
	}
	closedir(d);
}

/* "BOOTMENU-TARGET: pcr sha256 9=<hex>" for the PCRs a boot loader
 * measures into, from the TPM driver's sysfs files. */
static void pcrs(void)
{
	static const char *const banks[] = {"sha1", "sha256", "sha384",
					    "sha512"};
	static const int idx[] = {8, 9, 11, 12};
	char path[128], v[160];

	for (size_t b = 0; b < sizeof(banks) / sizeof(banks[0]); b++)
		for (size_t i = 0; i < sizeof(idx) / sizeof(idx[0]); i++) {
			ssize_t n;
			int fd;

			snprintf(path, sizeof(path),
				 "/sys/class/tpm/tpm0/pcr-%s/%d", banks[b],
				 idx[i]);
			fd = open(path, O_RDONLY);
			if (fd < 0)
				continue;
			n = read(fd, v, sizeof(v) - 1);
			close(fd);
			v[n > 0 ? n : 0] = '\0';
			v[strcspn(v, "\n")] = '\0';
			printf("BOOTMENU-TARGET: pcr %s %d=%s\n", banks[b],
			       idx[i], v);
		}
}

/* The event log bootmenu added to the initramfs, in hex lines of 64
 * bytes: "BOOTMENU-TARGET: tpmlog <hex>", then "tpmlog end N". */
static void tpm_log(void)
{
	unsigned char buf[64];
	unsigned long long total = 0;
	ssize_t n;
	int fd = open("/.extra/bootmenu/tpm-eventlog.bin", O_RDONLY);

	if (fd < 0)
		return;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		printf("BOOTMENU-TARGET: tpmlog ");
		for (ssize_t i = 0; i < n; i++)
			printf("%02x", buf[i]);
		printf("\n");
		total += (unsigned long long)n;
	}
	close(fd);
	printf("BOOTMENU-TARGET: tpmlog end %llu\n", total);
}

static const char *word(const char *cmdline, const char *key, char *out,
			size_t len)
{
	const char *p = cmdline;
	size_t k = strlen(key);

	while ((p = strstr(p, key))) {
		if ((p == cmdline || p[-1] == ' ') && p[k] == '=') {
			size_t n = strcspn(p + k + 1, " \n");

			if (n >= len)
				n = len - 1;
			memcpy(out, p + k + 1, n);
			out[n] = '\0';
			return out;
		}
		p += k;
	}
	return "-";
}

int main(void)
{
	char cmdline[4096] = "", entry[128];
	struct utsname u;
	ssize_t n;
	int fd;

	mkdir("/proc", 0755);
	mkdir("/sys", 0755);
	mkdir("/dev", 0755);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	fd = open("/proc/cmdline", O_RDONLY);
	if (fd >= 0) {
		n = read(fd, cmdline, sizeof(cmdline) - 1);
		cmdline[n > 0 ? n : 0] = '\0';
		close(fd);
	}
	cmdline[strcspn(cmdline, "\n")] = '\0';
	uname(&u);
	printf("BOOTMENU-TARGET: booted entry=%s kernel=%s efi=%s\n",
	       word(cmdline, "demo.entry", entry, sizeof(entry)), u.release,
	       access("/sys/firmware/efi", F_OK) == 0 ? "yes" : "no");
	printf("BOOTMENU-TARGET: cmdline=%s\n", cmdline);
	payloads();
	pcrs();
	tpm_log();
	printf("BOOTMENU-TARGET: done\n");
	fflush(stdout);
	if (strstr(cmdline, "target.poweroff")) {
		sync();
		reboot(RB_POWER_OFF);
		reboot(RB_AUTOBOOT);
	}
	execl("/bin/sh", "sh", NULL);
	for (;;)
		pause();
}
