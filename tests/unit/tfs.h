/* tfs.h - a scratch directory as one filesystem, and a parser context
 * over it, for the config parsers' unit tests. tfs_init() makes it,
 * tfs_write()/tfs_link() fill it, tfs_done() removes it and frees the
 * arena that owns the entries. */
#ifndef BM_TEST_TFS_H
#define BM_TEST_TFS_H

#include "cfg/cfg.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct tfs {
	char dir[32];
	struct fs_root fs;
	const struct fs_root *all[1];
	struct arena a;
	struct entry_list out;
	struct cfg_ctx ctx;
};

static void tfs_init(struct tfs *t)
{
	memset(t, 0, sizeof(*t));
	strcpy(t->dir, "/tmp/bm-test-XXXXXX");
	if (!mkdtemp(t->dir))
		abort();
	t->fs.root_fd = -1;
	t->fs.name = "t";
	if (fs_root_open_dir(&t->fs, t->dir))
		abort();
	entry_list_init(&t->out, &t->a);
	t->all[0] = &t->fs;
	t->ctx.a = &t->a;
	t->ctx.fs = &t->fs;
	t->ctx.out = &t->out;
	t->ctx.all = t->all;
	t->ctx.n_all = 1;
}

static void tfs_mkdirs(const char *full)
{
	char tmp[512];

	snprintf(tmp, sizeof(tmp), "%s", full);
	for (char *p = tmp + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(tmp, 0755);
			*p = '/';
		}
}

static void tfs_write(struct tfs *t, const char *path, const char *text)
{
	char full[512];
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", t->dir, path);
	tfs_mkdirs(full);
	f = fopen(full, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

static __attribute__((unused)) void tfs_link(struct tfs *t, const char *path,
					     const char *target)
{
	char full[512];

	snprintf(full, sizeof(full), "%s%s", t->dir, path);
	tfs_mkdirs(full);
	if (symlink(target, full))
		abort();
}

static int tfs_rm(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(p);
}

static void tfs_done(struct tfs *t)
{
	fs_root_close(&t->fs);
	arena_free(&t->a);
	nftw(t->dir, tfs_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static struct entry *nth(struct tfs *t, int i)
{
	struct entry *e = t->out.head;

	while (e && i--)
		e = e->next;
	return e;
}

static size_t n_warn(struct tfs *t)
{
	return t->out.n_warnings;
}

#endif
