/* fuzz_grub.c - the grub.cfg lexer, parser and interpreter on any input.
 *
 * The input runs as /boot/grub/grub.cfg of a directory-backed root (made
 * once, under /dev/shm when it exists); a small grubenv and a sourced file
 * sit beside it so load_env, source and configfile paths run too. The
 * step limit is lowered so endless loops cost milliseconds, not seconds.
 */
#include "cfg/grub.h"
#include "entry.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FZ_STEPS 20000

static char fz_dir[64];
static struct fs_root fz_fs;

static void fz_write(const char *rel, const void *buf, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", fz_dir, rel);
	f = fopen(path, "w");
	if (!f)
		abort();
	fwrite(buf, 1, len, f);
	fclose(f);
}

static void fz_setup(void)
{
	static const char env[] = "# GRUB Environment Block\nsaved_entry=1\n"
				  "kernelopts=root=/dev/sda1 ro\n";
	static const char extra[] =
	    "set extra=1\nmenuentry x { linux /k $extra; }\n";
	char sub[128];

	snprintf(fz_dir, sizeof(fz_dir), "%s/fuzz_grub.XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (!mkdtemp(fz_dir))
		abort();
	snprintf(sub, sizeof(sub), "%s/boot", fz_dir);
	mkdir(sub, 0755);
	snprintf(sub, sizeof(sub), "%s/boot/grub", fz_dir);
	mkdir(sub, 0755);
	fz_write("/boot/grub/grubenv", env, sizeof(env) - 1);
	fz_write("/boot/grub/extra.cfg", extra, sizeof(extra) - 1);
	fz_fs.root_fd = -1;
	fz_fs.name = "fuzz";
	fz_fs.uuid = "1234-ABCD";
	fz_fs.label = "boot";
	if (fs_root_open_dir(&fz_fs, fz_dir) < 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct fs_root *all[1] = {&fz_fs};
	struct arena a = ARENA_INIT;
	struct entry_list out;
	struct cfg_ctx ctx = {
	    .a = &a, .fs = &fz_fs, .all = all, .n_all = 1, .out = &out};

	if (!fz_dir[0])
		fz_setup();
	entry_list_init(&out, &a);
	grub_run_config(&ctx, "/boot/grub/grub.cfg", (const char *)data, size,
			FZ_STEPS);
	entry_finish(&out, all, 1);
	arena_free(&a);
	return 0;
}
