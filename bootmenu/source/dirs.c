/* source/dirs.c - directories as filesystems (`bootmenu --root`). */
#include "scan/btrfs.h"
#include "scan/fs.h"
#include "source/source.h"
#include "util/arena.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

struct dirs {
	struct arena a; /* the fs_roots and their strings */
	struct fs_root **roots;
	size_t n, told; /* announced so far; n + 1 once SETTLED went */
	int efd;	/* readable until every event was taken */
};

/* What --root says of a btrfs top level: the default subvolume's path
 * (NULL: not btrfs) and the others' (subvol=, past FS_SUBVOL_MAX left
 * out as the scan leaves them out). */
struct dirs_btrfs_opt {
	const char *def;
	const char *subvols[FS_SUBVOL_MAX];
	size_t n;
};

/* "DIR=LABEL,uuid=U,partuuid=P,btrfs=DEFAULT,subvol=S..." into @fs's
 * identities and @b (strings in @a). The directory part is returned. */
static char *root_spec(struct arena *a, const char *spec, struct fs_root *fs,
		       struct dirs_btrfs_opt *b)
{
	char *dir = arena_strdup(a, spec), *eq = strchr(dir, '=');
	char *opt;

	if (!eq)
		return dir;
	*eq = '\0';
	fs->name = fs->label = eq + 1;
	opt = strchr(eq + 1, ',');
	while (opt) {
		char *next = strchr(opt + 1, ',');

		*opt++ = '\0';
		if (next)
			*next = '\0';
		if (!strncmp(opt, "uuid=", 5))
			fs->uuid = opt + 5;
		else if (!strncmp(opt, "partuuid=", 9))
			fs->partuuid = opt + 9;
		else if (!strncmp(opt, "btrfs=", 6))
			b->def = opt + 6;
		else if (!strncmp(opt, "subvol=", 7) && b->n < FS_SUBVOL_MAX)
			b->subvols[b->n++] = opt + 7;
		if (next)
			*next = ',';
		opt = next;
	}
	return dir;
}

/* A btrfs top level given as a directory: subvolumes are directories in
 * it, @b->def names the default one (as `btrfs subvolume get-default`
 * would) and subvol= the others (as `btrfs subvolume list` would). The
 * root handed on is picked as the scan picks it. */
static int dirs_btrfs(struct arena *a, struct fs_root *fs,
		      const struct dirs_btrfs_opt *b)
{
	char sub[BTRFS_PATH_MAX];
	const char *def = b->def + strspn(b->def, "/");
	int top = fs->root_fd;

	btrfs_pick_root(top, def, sub);
	fs->fstype = "btrfs";
	fs->root_fd = fs_open_how(fs, sub[0] ? sub : ".", O_PATH | O_DIRECTORY,
				  FS_RESOLVE_AUTO);
	if (fs->root_fd < 0) {
		int rc = fs->root_fd;

		fs->root_fd = top;
		return rc;
	}
	return fs_root_add_btrfs(fs, a, top, sub, def, b->subvols, b->n);
}

static int dirs_fd(const struct source *src)
{
	const struct dirs *d = src->priv;

	return d->efd;
}

static int dirs_next(struct source *src, struct source_event *ev)
{
	struct dirs *d = src->priv;

	uint64_t v;

	if (d->told > d->n)
		return 0;
	if (d->told == d->n) {
		ev->type = SOURCE_SETTLED;
		ev->fs = NULL;
		if (read(d->efd, &v, sizeof(v)) < 0)
			v = 0; /* nonblocking: nothing to clear */
	} else {
		ev->type = SOURCE_FS_ADDED;
		ev->fs = d->roots[d->told];
	}
	d->told++;
	return 1;
}

static void dirs_stop(struct source *src)
{
}

static void dirs_free(struct source *src)
{
	struct dirs *d = src->priv;

	for (size_t i = 0; i < d->n; i++)
		fs_root_close(d->roots[i]);
	arena_free(&d->a);
	if (d->efd >= 0)
		close(d->efd);
	free(d);
	free(src);
}

static const struct source_ops dirs_ops = {
    .name = "dirs",
    .fd = dirs_fd,
    .next = dirs_next,
    .stop = dirs_stop,
    .free = dirs_free,
    .sorted = false,
};

struct source *source_dirs_new(const char *const *specs, size_t n)
{
	struct source *src = calloc(1, sizeof(*src));
	struct dirs *d = calloc(1, sizeof(*d));

	if (!src || !d) {
		free(src);
		free(d);
		return NULL;
	}
	*src = (struct source){&dirs_ops, d};
	d->efd = eventfd(1, EFD_CLOEXEC | EFD_NONBLOCK);
	if (d->efd < 0) {
		dirs_free(src);
		return NULL;
	}
	d->roots = arena_alloc(&d->a, (n + 1) * sizeof(*d->roots));
	for (; d->n < n; d->n++) {
		struct fs_root *fs = arena_alloc(&d->a, sizeof(*fs));
		struct dirs_btrfs_opt b = {0};
		const char *dir = root_spec(&d->a, specs[d->n], fs, &b);
		int rc;

		fs->root_fd = -1;
		rc = fs_root_open_dir(fs, dir);
		if (rc == 0 && b.def)
			rc = dirs_btrfs(&d->a, fs, &b);
		if (rc < 0) {
			fprintf(stderr, "bootmenu: --root %s: %s\n", dir,
				strerror(-rc));
			dirs_free(src);
			return NULL;
		}
		d->roots[d->n] = fs;
	}
	return src;
}
