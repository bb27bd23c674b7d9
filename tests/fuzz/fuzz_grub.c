/* fuzz_grub.c - the grub.cfg lexer, parser and interpreter on any input.
 *
 * The input runs as /boot/grub/grub.cfg of a directory-backed root (the
 * scratch root of fuzz.h); a small grubenv and a sourced file sit beside
 * it so load_env, source and configfile paths run too. The step limit is
 * lowered so endless loops cost milliseconds, not seconds.
 */
#include "cfg/resolve.h"
#include "cfg/grub.h"
#include "fuzz.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>

#define FZ_STEPS 2000

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char env[] = "# GRUB Environment Block\nsaved_entry=1\n"
				  "kernelopts=root=/dev/sda1 ro\n";
	static const char extra[] =
	    "set extra=1\nmenuentry x { linux /k $extra; }\n";
	char sub[128];

	(void)argc, (void)argv;
	fz_root_init("fuzz_grub");
	fz_fs.uuid = "1234-ABCD";
	fz_fs.label = "boot";
	snprintf(sub, sizeof(sub), "%s/boot", fz_dir);
	mkdir(sub, 0755);
	snprintf(sub, sizeof(sub), "%s/boot/grub", fz_dir);
	mkdir(sub, 0755);
	if (fz_write("/boot/grub/grubenv", env, sizeof(env) - 1) ||
	    fz_write("/boot/grub/extra.cfg", extra, sizeof(extra) - 1))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz z;

	fz_begin(&z);
	grub_run_config(&z.ctx, "/boot/grub/grub.cfg", (const char *)data, size,
			FZ_STEPS);
	cfg_finish(&z.out, z.all, 1);
	fz_end(&z);
	return 0;
}
