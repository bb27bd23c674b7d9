/* install.c - the checks, then the changes (install.h). */
#include "boot/secure.h"
#include "install/install_int.h"
#include "util/file.h"
#include "format/pe_sig.h"
#include "util/say.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define IMAGE_MAX (512u << 20) /* a bootmenu.efi is some MiB */
#define RECORD_TEXT_MAX 8192
#define SLACK (256u << 10) /* the record and a cluster per file */
/* PATH.bootmenu-old */
#define OLD_MAX (REC_PATH_MAX + sizeof(INSTALL_OLD_SUFFIX))

/* --- The image */

/* The first readable @name in o->image_dirs into in->img.path. */
static bool inst_find(struct inst *in, const char *name)
{
	for (const char *const *d = in->o->image_dirs; d && *d; d++) {
		snprintf(in->img.path, sizeof(in->img.path), "%s/%s", *d, name);
		if (access(in->img.path, R_OK) == 0)
			return true;
	}
	return false;
}

int inst_read(struct inst *in, const char *path, const char *what,
	      struct inst_blob *b)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	ssize_t n;

	if (b->path != path)
		snprintf(b->path, sizeof(b->path), "%s", path);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > IMAGE_MAX || !(b->data = malloc(st.st_size + 1))) {
		int rc = fd < 0 ? -errno : -EINVAL;

		if (fd >= 0)
			close(fd);
		return say(in->err, in->errlen, rc, "cannot read %s %s: %s",
			   what, path,
			   rc == -EINVAL ? "not a file of a sensible size"
					 : strerror(-rc));
	}
	n = util_read_full(fd, b->data, (size_t)st.st_size);
	close(fd);
	if (n < 0 || n != st.st_size)
		return say(in->err, in->errlen, n < 0 ? (int)n : -EIO,
			   "cannot read %s %s", what, path);
	b->len = (size_t)n;
	return 0;
}

/* The image's path into in->img.path: --image; else bootmenu.signed.efi
 * when a signed one is wanted, or bootmenu.efi unless --signed insists
 * (under Secure Boot that one is then refused as unsigned, which says
 * more than "not found"). */
static int inst_pick(struct inst *in, bool want)
{
	const struct install_opts *o = in->o;

	if (o->image) {
		snprintf(in->img.path, sizeof(in->img.path), "%s", o->image);
		return 0;
	}
	if ((want && inst_find(in, "bootmenu.signed.efi")) ||
	    (!o->want_signed && inst_find(in, "bootmenu.efi")))
		return 0;
	return say(in->err, in->errlen, -ENOENT,
		   "no %s found where it is installed or built: build it "
		   "(make%s) or name it with --image",
		   want ? "bootmenu.signed.efi" : "bootmenu.efi",
		   want ? " sign" : "");
}

/* Which image, and whether the firmware (or shim, which checks its
 * second stage against its keys) would start it. The signature is only
 * looked for (format/pe_sig.h): the firmware or shim checks it. */
static int inst_image(struct inst *in)
{
	const struct install_opts *o = in->o;
	struct secure_state ss;
	size_t off, size;
	bool sb, want;
	int rc;

	secure_state_read(&ss, o->vars);
	sb = in->sb = ss.sb == SECURE_BOOT_ON;
	want = o->want_signed || sb || o->shim;
	rc = inst_pick(in, want);
	if (rc == 0)
		rc = inst_read(in, in->img.path, "the image", &in->img);
	if (rc < 0)
		return rc;
	rc = pe_sig_locate(in->img.data, in->img.len, &off, &size);
	if (rc == -ENOEXEC)
		return say(in->err, in->errlen, -EINVAL,
			   "%s is not an EFI image (no PE header)",
			   in->img.path);
	if (rc < 0 && want)
		return say(in->err, in->errlen, -EPERM,
			   "%s is not signed, and %s; sign it (make sign) and "
			   "name the signed image with --image",
			   in->img.path,
			   sb	     ? "Secure Boot is on: the firmware would "
				       "refuse to start it"
			   : o->shim ? "shim starts only a second stage signed "
				       "by a key it trusts (--shim)"
				     : "--signed asks for that");
	inst_say(in, "image", in->img.path,
		 rc < 0 ? " (not signed)"
		 : sb	? " (signed; Secure Boot is on)"
			: " (signed)");
	if (sb && !o->shim && !in->bios)
		shim_hint(in);
	return 0;
}

/* --- Checks: nothing is changed before all of them pass */

static bool inst_ours(const struct inst *in, const char *path)
{
	return rec_has(&in->old, REC_NEW, path, 0) ||
	       rec_has(&in->old, REC_BACKUP, path, 0);
}

static int inst_check_files(struct inst *in)
{
	char old[OLD_MAX];
	uint64_t need = SLACK;

	for (size_t i = 0; i < in->n_put; i++) {
		const struct inst_put *p = &in->put[i];

		snprintf(old, sizeof(old), "%s" INSTALL_OLD_SUFFIX, p->path);
		/* a file only kept aside is never ours, even when an earlier
		 * install kept one aside there */
		if ((!p->from || !inst_ours(in, p->path)) &&
		    file_exists(in, p->path) && file_exists(in, old))
			return say(in->err, in->errlen, -EEXIST,
				   "%s/%s is in the way: the installer keeps "
				   "the file it replaces under that name; "
				   "move it elsewhere and run this again",
				   in->esp, old);
		need += p->from ? p->from->len : 0;
	}
	return file_room(in, need);
}

static int inst_check_nvram(struct inst *in)
{
	int rc = nvram_begin(in);

	if (rc < 0)
		return rc;
	if (!in->on_part)
		return say(in->err, in->errlen, -ENXIO,
			   "%s is not the root of a mounted EFI system "
			   "partition (vfat on a GPT partition of type EFI "
			   "System), so the firmware cannot be told where it "
			   "is: name the ESP's mount point with --esp, or add "
			   "--no-nvram (with --removable the firmware finds "
			   "the fallback path itself)",
			   in->esp);
	return 0;
}

/* --- Changes */

static int inst_dir(struct inst *in, const char *dir)
{
	int rc;

	/* made already, or (with --print) listed already */
	if (file_exists(in, dir) || rec_has(&in->done, REC_DIR, dir, 0))
		return 0;
	inst_say(in, "mkdir", dir, NULL);
	rc = in->o->print ? 0 : file_mkdir(in, dir);
	if (rc < 0)
		return say(in->err, in->errlen, rc, "cannot make %s/%s: %s",
			   in->esp, dir, strerror(-rc));
	return rec_add(&in->done, REC_DIR, dir, 0, -1);
}

/* @dir and each missing directory above it, "EFI" first: an empty ESP
 * has none of them. */
int inst_dirs(struct inst *in, const char *dir)
{
	char part[REC_PATH_MAX];
	const char *slash = dir;
	int rc;

	do {
		slash = strchr(slash + 1, '/');
		snprintf(part, sizeof(part), "%.*s",
			 (int)(slash ? (size_t)(slash - dir) : strlen(dir)),
			 dir);
		rc = inst_dir(in, part);
	} while (rc == 0 && slash);
	return rc;
}

int inst_file(struct inst *in, const char *path, const void *buf, size_t len,
	      const char *from)
{
	char old[OLD_MAX], more[PATH_MAX + 64];
	bool keep = !inst_ours(in, path) && file_exists(in, path);
	int rc;

	snprintf(old, sizeof(old), "%s" INSTALL_OLD_SUFFIX, path);
	snprintf(more, sizeof(more), " as %s", old);
	if (keep)
		inst_say(in, "keep", path, more);
	snprintf(more, sizeof(more), " (%zu bytes, from %s)", len, from);
	inst_say(in, "write", path, more);
	rc = in->o->print ? 0 : file_put(in, path, keep ? old : NULL, buf, len);
	if (rc < 0 || inst_ours(in, path))
		return rc;
	return rec_add(&in->done, keep ? REC_BACKUP : REC_NEW, path, 0, -1);
}

static int inst_record(struct inst *in)
{
	char text[RECORD_TEXT_MAX];
	int n = rec_format(&in->old, &in->done, text, sizeof(text));

	if (!in->done.n)
		return 0;
	inst_say(in, "write", in->rec_path, " (what --uninstall takes back)");
	if (n < 0)
		return say(in->err, in->errlen, n,
			   "the install record is "
			   "too long");
	return in->o->print ? 0 : file_put(in, in->rec_path, NULL, text, n);
}

int inst_record_ahead(struct inst *in)
{
	in->rec_ahead = !in->o->print;
	return inst_record(in);
}

/* After a rollback: the record as it was before this run, or none. */
static int inst_record_back(struct inst *in)
{
	char text[RECORD_TEXT_MAX];
	size_t n = in->done.n;
	int len;

	if (!in->rec_ahead)
		return 0;
	if (!in->old.n)
		return file_unlink(in, in->rec_path);
	in->done.n = 0; /* the earlier record's lines alone */
	len = rec_format(&in->old, &in->done, text, sizeof(text));
	in->done.n = n;
	return len < 0 ? len : file_put(in, in->rec_path, NULL, text, len);
}

/* Keep the file at @p->path aside (as @path.bootmenu-old) when there is
 * one, writing nothing in its place; recorded as a backup, which
 * --uninstall renames back. */
static int inst_aside(struct inst *in, const struct inst_put *p)
{
	char old[OLD_MAX], more[OLD_MAX + 160];
	int rc;

	if (!file_exists(in, p->path))
		return 0;
	snprintf(old, sizeof(old), "%s" INSTALL_OLD_SUFFIX, p->path);
	snprintf(more, sizeof(more), " as %s (%s)", old, p->why);
	inst_say(in, "keep", p->path, more);
	rc = in->o->print ? 0 : file_rename(in, p->path, old);
	if (rc < 0)
		return say(in->err, in->errlen, rc, "cannot rename %s/%s: %s",
			   in->esp, p->path, strerror(-rc));
	return rec_add(&in->done, REC_BACKUP, p->path, 0, -1);
}

static int inst_apply(struct inst *in)
{
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < in->n_put; i++) {
		const struct inst_put *p = &in->put[i];

		rc = inst_dirs(in, p->dir);
		if (rc == 0 && p->from)
			rc = inst_file(in, p->path, p->from->data, p->from->len,
				       p->from->path);
		else if (rc == 0)
			rc = inst_aside(in, p);
	}
	if (rc == 0 && in->nvram)
		rc = nvram_install(in);
	if (rc == 0)
		rc = inst_record(in);
	/* last, so it is what the user reads before restarting */
	if (rc == 0 && in->o->shim)
		shim_note(in);
	return rc;
}

/* The BIOS mode's changes: the image beside extlinux's files, then the
 * disk (bios.c). */
static int inst_apply_bios(struct inst *in)
{
	int rc = inst_dirs(in, INSTALL_BIOS_DIR);

	if (rc == 0)
		rc = inst_file(in, INSTALL_BIOS_DIR "/bootmenu.efi",
			       in->img.data, in->img.len, in->img.path);
	if (rc == 0)
		rc = bios_apply(in);
	return rc ? rc : inst_record(in);
}

/* What the record cannot take back itself (record.c): the writers'. */
static const struct rec_undo_steps inst_undo_steps = {.var = nvram_undo,
						      .disk = bios_undo};

/* A change failed: take back the ones before it, keeping its sentence. */
static int inst_rollback(struct inst *in, int rc)
{
	char why[512];
	size_t n;

	snprintf(why, sizeof(why), "%s", in->err ? in->err : "");
	fprintf(in->out, "failed:   taking back what was changed\n");
	if ((rec_undo(in, &in->done, NULL, &inst_undo_steps) < 0 ||
	     inst_record_back(in) < 0) &&
	    in->err) {
		n = strlen(why);
		snprintf(why + n, sizeof(why) - n,
			 "; and taking it back failed too (%s)", in->err);
	}
	say(in->err, in->errlen, rc, "%s", why);
	return rc;
}

/* --- The run */

/* The directory the files go to: the ESP, or in BIOS mode --boot-dir. */
static int inst_root(struct inst *in)
{
	int rc = in->bios ? 0 : esp_find(in);

	if (rc < 0)
		return rc;
	if (in->bios)
		snprintf(in->esp, sizeof(in->esp), "%s", in->o->boot_dir);
	in->espfd = open(in->esp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (in->espfd < 0)
		return say(in->err, in->errlen, -errno,
			   "%s cannot be opened: %s; name %s", in->esp,
			   strerror(errno),
			   in->bios ? "the directory holding /boot with "
				      "--boot-dir"
				    : "the ESP's mount point with --esp");
	fprintf(in->out, "%-9s %s", in->bios ? "boot-dir:" : "esp:", in->esp);
	if (in->on_part)
		fprintf(in->out, " (partition %u of %s, PARTUUID %s)",
			in->part.num, in->part.disk, in->part.partuuid);
	fputc('\n', in->out);
	return 0;
}

static int inst_open(struct inst *in)
{
	char text[RECORD_TEXT_MAX];
	ssize_t n;
	int rc = inst_root(in);

	if (rc < 0)
		return rc;
	n = file_get(in, in->rec_path, text, sizeof(text));
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return say(in->err, in->errlen, (int)n,
			   "cannot read the install record %s/%s: %s", in->esp,
			   in->rec_path, strerror((int)-n));
	return rec_parse(text, (size_t)n, &in->old, in->err, in->errlen) < 0
		   ? -EINVAL
		   : 1;
}

static int inst_uninstall(struct inst *in, bool recorded)
{
	bool vars = false, disk = false;
	int rc;

	if (!recorded)
		return say(in->err, in->errlen, -ENOENT,
			   "there is no install record at %s/%s: this "
			   "installer did not install bootmenu there, so "
			   "there is nothing to take back",
			   in->esp, in->rec_path);
	for (size_t i = 0; i < in->old.n; i++) {
		vars |= in->old.it[i].kind == REC_BOOT ||
			in->old.it[i].kind == REC_ORDER;
		disk |= in->old.it[i].kind >= REC_CODE;
	}
	rc = vars ? nvram_begin(in) : 0;
	if (rc == 0 && disk)
		rc = bios_uninstall_check(in, &in->old);
	if (rc == 0)
		rc = file_room(in, 0);
	return rc ? rc : rec_undo(in, &in->old, in->rec_path, &inst_undo_steps);
}

/* The files this install writes, in order: the shim layout's (shim.c),
 * or the image at INSTALL_FILE and with --removable at the fallback
 * path. */
static void inst_plan(struct inst *in)
{
	if (in->o->shim) {
		shim_plan(in);
		return;
	}
	in->loader = INSTALL_FILE;
	inst_put(in, INSTALL_DIR, INSTALL_FILE, &in->img, NULL);
	if (in->o->removable)
		inst_put(in, INSTALL_FALLBACK_DIR, INSTALL_FALLBACK, &in->img,
			 NULL);
}

void inst_put(struct inst *in, const char *dir, const char *path,
	      const struct inst_blob *from, const char *why)
{
	struct inst_put *p;

	/* the plans are fixed lists, and PUT_MAX holds the longest (a
	 * static assertion in shim.c): this is a bug, not an input */
	if (in->n_put == PUT_MAX)
		abort();
	p = &in->put[in->n_put++];
	*p = (struct inst_put){.dir = dir, .from = from, .why = why};
	snprintf(p->path, sizeof(p->path), "%s", path);
}

/* Every check of an install, in order; nothing is changed. */
static int inst_checks(struct inst *in)
{
	int rc = in->nvram ? inst_check_nvram(in) : 0;

	if (rc == 0)
		rc = in->bios ? bios_check(in) : shim_same_layout(in);
	if (rc == 0)
		rc = inst_image(in);
	if (rc == 0 && in->o->shim)
		rc = shim_check(in);
	if (rc < 0)
		return rc;
	if (in->bios)
		return file_room(in, (uint64_t)in->img.len + SLACK);
	inst_plan(in);
	return inst_check_files(in);
}

static int inst_install(struct inst *in)
{
	int rc;

	in->nvram = !in->bios && !in->o->no_nvram;
	rc = inst_checks(in);
	if (rc < 0)
		return rc;
	/* the checks passed: from here on each change is taken back when a
	 * later one fails */
	rc = in->bios ? inst_apply_bios(in) : inst_apply(in);
	if (rc < 0 && !in->o->print)
		rc = inst_rollback(in, rc);
	return rc;
}

/* What the options ask for makes sense together. */
static int inst_usage(const struct install_opts *o, char *err, size_t len)
{
	if (!o->uninstall && !o->bios_disk != !o->boot_dir)
		return say(err, len, -EINVAL,
			   "%s: a BIOS install needs both the disk "
			   "(--bios DISK) and the directory holding /boot "
			   "(--boot-dir DIR)",
			   o->bios_disk ? "--bios without --boot-dir"
					: "--boot-dir without --bios");
	if (o->bios_disk && o->uninstall && !o->boot_dir)
		return say(err, len, -EINVAL,
			   "--uninstall --bios needs the --boot-dir the "
			   "install was made in: its record is there");
	if ((o->bios_disk || o->boot_dir) &&
	    (o->esp || o->removable || o->set_default || o->no_nvram ||
	     o->shim))
		return say(err, len, -EINVAL,
			   "--bios and --boot-dir do not go with --esp, "
			   "--removable, --default, --no-nvram or --shim: "
			   "those are for a UEFI install");
	return 0;
}

int install_run(const struct install_opts *o, char *err, size_t errlen)
{
	struct inst *in = calloc(1, sizeof(*in));
	int rc;

	say(err, errlen, 0, "%s", "");
	if (!in)
		return say(err, errlen, -ENOMEM, "out of memory");
	*in = (struct inst){.o = o,
			    .err = err,
			    .errlen = errlen,
			    .espfd = -1,
			    .diskfd = -1,
			    .boot_num = -1,
			    .bios = o->boot_dir != NULL,
			    .rec_path = o->boot_dir ? INSTALL_BIOS_RECORD
						    : INSTALL_RECORD};
	in->out = o->out ? o->out : stdout;
	rc = inst_usage(o, err, errlen);
	if (rc == 0)
		rc = inst_open(in);
	if (rc >= 0)
		rc = o->uninstall ? inst_uninstall(in, rc == 1)
				  : inst_install(in);
	if (rc == 0 && o->print)
		fprintf(in->out, "nothing was changed (--print)\n");
	if (in->espfd >= 0)
		close(in->espfd);
	if (in->diskfd >= 0)
		close(in->diskfd);
	free(in->img.data);
	free(in->shim.data);
	for (size_t i = 0; i < SHIM_HELPERS; i++)
		free(in->helper[i].data);
	free(in);
	return rc;
}
