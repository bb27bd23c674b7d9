/* resolve.c - which filesystem each file of an entry is on. The entry
 * model (entry/) knows filesystems only as pointers; finding one by its
 * UUID or label is the fs door's (scan/fs.h), so the step that needs both
 * sits here, where the parsers end. */
#include "cfg/resolve.h"
#include "entry/entry.h"
#include "scan/fs.h"

/* A file the parser put on a btrfs top level (scan/fs.h struct
 * fs_btrfs: not itself in @fss) stays there when its spec still finds
 * that filesystem. */
static void resolve_file(struct entry *e, struct entry_file *f,
			 const struct fs_root *const *fss, size_t n_fss)
{
	const struct fs_root *fs;

	if (!f->path)
		return;
	fs = f->dev ? fs_find(f->dev, fss, n_fss) : e->fs;
	if (f->fs && fs && fs->btrfs && f->fs == fs->btrfs->top)
		return;
	f->fs = fs;
}

void cfg_finish(struct entry_list *l, const struct fs_root *const *fss,
		size_t n_fss)
{
	for (struct entry *e = l->head; e; e = e->next) {
		resolve_file(e, &e->kernel, fss, n_fss);
		for (size_t i = 0; i < e->n_initrds; i++)
			resolve_file(e, &e->initrds[i], fss, n_fss);
		for (size_t i = 0; i < e->n_modules; i++)
			resolve_file(e, &e->modules[i], fss, n_fss);
	}
	entry_finish(l);
}
