/* source/firmware.c - the firmware's own boot options: a source of
 * entries (source.h).
 *
 * Read once when it starts, as the firmware's boot menu shows them
 * (efi/bootopts.h): a network card, a DVD drive, a loader on a disk
 * bootmenu does not read. They belong to the machine, not to one ESP, so
 * they go with the first ESP of the set, after that filesystem's own
 * entries: each option once, leaving out those that boot bootmenu itself
 * (entry_finish() drops those whose file an ESP's entry boots already),
 * then "UEFI Firmware Settings" when the firmware offers its setup screen
 * (efi/fwstate.h). Which ESP is first depends on the whole set, so the
 * session asks again whenever a filesystem comes or goes.
 */
#include "source/source.h"
#include "efi/bootopts.h"
#include "efi/fwstate.h"
#include "entry/entry.h"
#include "format/bzimage.h"
#include "scan/fs.h"
#include "util/arena.h"
#include "util/file.h"
#include "util/log.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#define FIRMWARE_UI_TITLE "UEFI Firmware Settings"
#define FIRMWARE_OFF_MAX 192

struct firmware_src {
	struct arena a; /* the options and their strings */
	const struct efi_boot_option *opts;
	size_t n_opts;
	bool ui;		    /* it offers its setup screen */
	char off[FIRMWARE_OFF_MAX]; /* why EFI loaders cannot boot here */
};

static struct entry *firmware_add(struct source_entries *x, const char *title)
{
	struct entry *e = entry_new(x->out, FMT_EFI, x->fs);

	e->method = ENTRY_FIRMWARE;
	e->title = title;
	return entry_add(x->out, e) == 0 ? e : NULL;
}

/* Whether @path on @fs is bootmenu itself (format/bzimage.h), as the
 * ESP's parser finds it (cfg/efi_loaders.c). */
static bool firmware_is_bootmenu(const struct fs_root *fs, const char *path)
{
	int fd = fs_open(fs, path, false);
	bool yes = fd >= 0 && bzimage_fd_is_bootmenu(fd);

	if (fd >= 0)
		close(fd);
	return yes;
}

/* Option @o, unless it boots bootmenu itself. Its file, when on a
 * filesystem of the set, lets entry_finish() leave it out where an ESP's
 * own entry boots that file already. */
static void firmware_option(struct source_entries *x,
			    const struct efi_boot_option *o)
{
	struct arena *a = x->out->a;
	const struct fs_root *fs = NULL;
	const char *dev = NULL;
	struct entry *e;

	if (o->partuuid) {
		dev = arena_printf(a, "PARTUUID=%s", o->partuuid);
		fs = fs_find(dev, x->all, x->n_all);
	}
	if (fs && firmware_is_bootmenu(fs, o->file))
		return;
	e = firmware_add(x, arena_strdup(a, o->desc));
	if (!e)
		return;
	e->fw_option = true;
	e->fw_num = o->num;
	e->id = e->source = arena_printf(a, "Boot%04X", o->num);
	if (fs) {
		e->kernel.dev = dev;
		e->kernel.path = arena_strdup(a, o->file);
	}
}

static void firmware_entries(struct source *src, struct source_entries *x)
{
	const struct firmware_src *f = src->priv;
	struct entry *e;

	if (!x->fs->esp || (!f->ui && !f->n_opts))
		return;
	x->all_deps = true;
	for (size_t i = 0; i < x->n_all && x->all[i] != x->fs; i++)
		if (x->all[i]->esp)
			return; /* an ESP before this one has them */
	for (size_t i = 0; i < f->n_opts; i++)
		firmware_option(x, &f->opts[i]);
	if (f->ui && (e = firmware_add(x, FIRMWARE_UI_TITLE))) {
		e->id = "fwsetup";
		e->fw_setup = true;
	}
}

static void firmware_free(struct source *src)
{
	struct firmware_src *f = src->priv;

	arena_free(&f->a);
	free(f);
	free(src);
}

static const struct source_ops firmware_ops = {
    .name = "firmware",
    .free = firmware_free,
    .entries = firmware_entries,
};

/* The options of @w's variables (efi_fw_vars()). */
static void firmware_read(struct firmware_src *f, const struct efi_fw *w)
{
	struct efi_vars v;
	struct efi_boot_option *opts = NULL;
	char dir[PATH_MAX], why[256];
	int rc = efi_fw_vars(w, NULL, &v, dir, sizeof(dir), why, sizeof(why));

	if (rc == 0)
		rc = efi_boot_options(&v, &f->a, &opts, &f->n_opts, why,
				      sizeof(why));
	if (rc < 0)
		log_warn("%s", why);
	f->opts = opts;
}

struct source *source_firmware_new(const struct efi_fw *w, const char **fw_off)
{
	struct source *src = calloc(1, sizeof(*src));
	struct firmware_src *f = calloc(1, sizeof(*f));

	if (!src || !f) {
		free(src);
		free(f);
		errno = ENOMEM;
		return NULL;
	}
	*src = (struct source){&firmware_ops, f};
	*fw_off = NULL;
	if (efi_fw_ready(w, f->off, sizeof(f->off)) < 0) {
		*fw_off = f->off;
		return src;
	}
	f->ui = efi_fw_setup_offered(w);
	firmware_read(f, w);
	return src;
}
