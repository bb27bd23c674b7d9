/* fuzz.h - the setup the file-reading fuzz targets share: one scratch
 * directory as a filesystem, and a parser context over it.
 *
 * fz_root_init() makes the directory once per process (under /dev/shm
 * when it is writable: a tmpfs, so the per-input file writes cost no disk
 * I/O) and opens it as fz_fs; it is removed again at exit. fz_write()
 * puts a file in it. fz_begin() readies a fresh arena, entry list and
 * cfg_ctx for one input; fz_end() frees everything that input allocated.
 */
#ifndef BM_FUZZ_H
#define BM_FUZZ_H

#include "cfg/cfg.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

struct fz {
	struct arena a;
	struct entry_list out;
	const struct fs_root *all[1];
	struct cfg_ctx ctx;
};

static char fz_dir[64];
static struct fs_root fz_fs;

static int fz_rm(const char *p, const struct stat *st, int flag,
		 struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(p);
}

static void fz_cleanup(void)
{
	fs_root_close(&fz_fs);
	nftw(fz_dir, fz_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* Make the scratch root, named after @name; aborts when it cannot. */
static void fz_root_init(const char *name)
{
	snprintf(fz_dir, sizeof(fz_dir), "%s/%s.XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", name);
	if (!mkdtemp(fz_dir))
		abort();
	fz_fs.root_fd = -1;
	fz_fs.name = "fuzz";
	if (fs_root_open_dir(&fz_fs, fz_dir) < 0)
		abort();
	atexit(fz_cleanup);
}

/* Write buf[0..len) as @rel ("/boot/grub/grub.cfg"; its directories must
 * exist) inside the root. Returns 0, or -1 when it could not. */
static __attribute__((unused)) int fz_write(const char *rel, const void *buf,
					    size_t len)
{
	char path[160];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s%s", fz_dir, rel);
	f = fopen(path, "w");
	if (!f)
		return -1;
	rc = fwrite(buf, 1, len, f) == len ? 0 : -1;
	return fclose(f) ? -1 : rc;
}

static void fz_begin(struct fz *z)
{
	z->a = (struct arena)ARENA_INIT;
	z->all[0] = &fz_fs;
	entry_list_init(&z->out, &z->a);
	z->ctx = (struct cfg_ctx){&z->a, &fz_fs, z->all, 1, &z->out};
}

static void fz_end(struct fz *z)
{
	arena_free(&z->a);
}

#endif
