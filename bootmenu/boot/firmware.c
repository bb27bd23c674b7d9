/* firmware.c - BootNext and OsIndications for ENTRY_FIRMWARE (firmware.h).
 *
 * UEFI 2.10 section 3.1.2: at the next boot the firmware tries the load
 * option BootNext names once (and deletes BootNext) before BootOrder;
 * edk2's BdsEntry skips one without LOAD_OPTION_ACTIVE, so only active
 * options count as pointing at a file. Section 8.5.4: OsIndications bit
 * 0 asks for the setup screen at the next boot, when
 * OsIndicationsSupported has it. Every variable is NV+BS+RT.
 */
#include "boot/firmware.h"
#include "efi/bootopts.h"
#include "efi/fwstate.h"
#include "efi/guid.h"
#include "efi/loadopt.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"
#include "util/le.h"
#include "util/say.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define FW_NUMS_MAX 65536 /* every Boot#### there can be */
#define FW_DP_MAX 4096	  /* HD/File/End for a path of FS_PATH_MAX */

struct fw {
	const struct entry *e;
	const struct firmware_opts *o;
	struct efi_vars vars;
	char dir[PATH_MAX];
	char *err;
	size_t errlen;
	uint8_t *buf; /* one variable's data, EFI_VAR_DATA_MAX */
	uint16_t *nums, *order;
	size_t n_nums, n_order;
	char desc[EFI_DESC_MAX]; /* the matching option's description */
	uint8_t *opt;		 /* a new option's bytes, in @buf */
	size_t opt_len;
};

static FILE *fw_out(const struct fw *f)
{
	return f->o && f->o->out ? f->o->out : stdout;
}

/* The efivarfs directory, once the machine is known to run UEFI. */
static int fw_begin(struct fw *f)
{
	static const char no_setup[] =
	    "there is no firmware setup to restart into";
	struct efi_fw w = {f->o ? f->o->efi_dir : NULL,
			   f->o ? f->o->vars : NULL};
	int rc = efi_fw_vars(&w, f->e->fw_setup ? no_setup : NULL, &f->vars,
			     f->dir, sizeof(f->dir), f->err, f->errlen);

	if (rc < 0)
		return rc;
	f->buf = malloc(EFI_VAR_DATA_MAX);
	f->nums = malloc(2 * FW_NUMS_MAX * sizeof(*f->nums));
	if (!f->buf || !f->nums)
		return say(f->err, f->errlen, -ENOMEM,
			   "out of memory for the EFI variables");
	f->order = f->nums + FW_NUMS_MAX;
	return 0;
}

/* Read @name into f->buf; -ENOENT quietly, other errors with a sentence. */
static int fw_read(struct fw *f, const char *name, uint32_t *attrs, size_t *len)
{
	int rc = efi_var_read(&f->vars, name, EFI_GLOBAL_GUID, attrs, f->buf,
			      EFI_VAR_DATA_MAX, len, f->err, f->errlen);

	if (rc == -ENOENT)
		say(f->err, f->errlen, rc, "%s", "");
	return rc;
}

/* Keep @name's value in @u, to put back. */
static int fw_keep_old(struct fw *f, const char *name, struct firmware_undo *u)
{
	uint32_t attrs;
	size_t len;
	int rc = fw_read(f, name, &attrs, &len);

	memset(u, 0, sizeof(*u));
	snprintf(u->name, sizeof(u->name), "%s", name);
	if (rc == -ENOENT)
		return 0;
	if (rc < 0)
		return rc;
	if (len == 0 || len > sizeof(u->old))
		return say(f->err, f->errlen, -EINVAL,
			   "EFI variable %s holds %zu bytes, which it "
			   "should not: left as it is",
			   name, len);
	memcpy(u->old, f->buf, len);
	u->old_len = len;
	u->old_attrs = attrs;
	u->had_old = true;
	return 0;
}

static void fw_print_var(struct fw *f, const char *name, uint32_t attrs,
			 const uint8_t *d, size_t n)
{
	FILE *out = fw_out(f);

	fprintf(out, "write:    %s-%s attributes 0x%08x, %zu bytes\n", name,
		EFI_GLOBAL_GUID, attrs, n);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%02x%s", i % 16 ? " " : "          ", d[i],
			i % 16 == 15 || i + 1 == n ? "\n" : "");
}

/* --- Which Boot#### points at the file */

static const struct fs_root *fw_fs(const struct entry *e)
{
	return e->kernel.fs ? e->kernel.fs : e->kernel.dev ? NULL : e->fs;
}

static bool fw_matches(struct fw *f, uint16_t num, const struct efi_part_ref *p,
		       const char *file)
{
	return efi_boot_points_at(&f->vars, num, p, file, f->buf, f->desc,
				  sizeof(f->desc));
}

/* Every Boot#### and BootOrder (unreadable or malformed: no order). */
static int fw_list(struct fw *f)
{
	uint32_t attrs;
	size_t len;
	int rc = efi_var_boot_nums(&f->vars, f->nums, FW_NUMS_MAX, &f->n_nums);

	if (rc < 0)
		return say(f->err, f->errlen, rc,
			   "cannot list the Boot#### variables in %s: %s",
			   f->dir, strerror(-rc));
	rc = fw_read(f, "BootOrder", &attrs, &len);
	if (rc < 0 && rc != -ENOENT)
		return rc;
	if (rc < 0 || efi_boot_order_decode(f->buf, len, f->order, FW_NUMS_MAX,
					    &f->n_order) < 0)
		f->n_order = 0;
	return 0;
}

/* The option pointing at @file on @p: BootOrder's first, else the
 * lowest number. Returns true and its number in *num. */
static bool fw_find(struct fw *f, const struct efi_part_ref *p,
		    const char *file, uint16_t *num)
{
	for (size_t i = 0; i < f->n_order; i++)
		if (efi_boot_num_in(f->nums, f->n_nums, f->order[i]) &&
		    fw_matches(f, f->order[i], p, file))
			return *num = f->order[i], true;
	for (size_t i = 0; i < f->n_nums; i++)
		if (!efi_boot_num_in(f->order, f->n_order, f->nums[i]) &&
		    fw_matches(f, f->nums[i], p, file))
			return *num = f->nums[i], true;
	return false;
}

/* --- A new Boot#### */

/* HD() for @fs: GPT when its PARTUUID is a GUID, else MBR's
 * "<disk signature>-<partition>" as blkid prints it. */
static int fw_hd(struct efi_hd *hd, const struct fs_root *fs)
{
	unsigned sig, part;
	int end = 0;

	if (efi_hd_gpt(hd, fs->partno, fs->part_start, fs->part_size,
		       fs->partuuid) == 0)
		return 0;
	if (sscanf(fs->partuuid, "%8x-%2x%n", &sig, &part, &end) != 2 ||
	    fs->partuuid[end])
		return -EINVAL;
	memset(hd, 0, sizeof(*hd));
	hd->part = fs->partno;
	hd->start = fs->part_start;
	hd->size = fs->part_size;
	put_le32(hd->sig, sizeof(hd->sig), 0, sig);
	hd->format = EFI_HD_FORMAT_MBR;
	hd->sig_type = EFI_HD_SIG_MBR;
	return 0;
}

/* The new option's bytes into f->buf, its number the lowest free one. */
static int fw_new(struct fw *f, const struct fs_root *fs, uint16_t *num)
{
	uint8_t dp[FW_DP_MAX];
	struct efi_hd hd;
	char desc[EFI_DESC_MAX];
	ssize_t n;

	if (!fs->partno || !fs->part_size || fw_hd(&hd, fs) < 0)
		return say(f->err, f->errlen, -ENXIO,
			   "the partition %s is not known well enough "
			   "(number, start, size, PARTUUID) to make a "
			   "Boot#### for it",
			   fs->name ? fs->name : "?");
	if (efi_boot_free_num(f->nums, f->n_nums, num) < 0)
		return say(f->err, f->errlen, -ENOSPC,
			   "every Boot#### number is taken");
	snprintf(desc, sizeof(desc), "%s (bootmenu)",
		 f->e->title ? f->e->title : f->e->id);
	n = efi_dp_encode_hd_file(&hd, f->e->kernel.path, dp, sizeof(dp));
	if (n >= 0)
		n = efi_loadopt_encode(EFI_LOAD_OPTION_ACTIVE, desc, dp,
				       (size_t)n, NULL, 0, f->buf,
				       EFI_VAR_DATA_MAX);
	if (n < 0)
		return say(f->err, f->errlen, (int)n,
			   "cannot make a Boot#### for %s: %s",
			   f->e->kernel.path, strerror((int)-n));
	f->opt = f->buf;
	f->opt_len = (size_t)n;
	return 0;
}

/* --- Writing */

/* BootNext = @num, and what follows. */
static void fw_print_next(struct fw *f, uint16_t num)
{
	char name[EFI_BOOT_NAME_LEN];
	uint8_t next[2];

	efi_boot_name(num, name);
	efi_boot_next_encode(num, next);
	fw_print_var(f, "BootNext", EFI_VARIABLE_NV_BS_RT, next, sizeof(next));
	fprintf(fw_out(f),
		"then:     restart; the firmware boots %s once, "
		"BootOrder stays as it is\n",
		name);
}

static void fw_print_boot(struct fw *f, const struct fs_root *fs, uint16_t num,
			  bool create)
{
	FILE *out = fw_out(f);
	char name[EFI_BOOT_NAME_LEN];

	efi_boot_name(num, name);
	fprintf(out, "entry:    %s (%s, through the firmware)\n", f->e->title,
		entry_format_name(f->e->format));
	fprintf(out, "loader:   %s on %s, partition %u, PARTUUID %s\n",
		f->e->kernel.path, fs->name ? fs->name : "?", fs->partno,
		fs->partuuid);
	if (create)
		fprintf(out, "option:   none points at it: %s is made\n", name);
	else
		fprintf(out, "option:   %s \"%s\" points at it\n", name,
			f->desc);
	if (create)
		fw_print_var(f, name, EFI_VARIABLE_NV_BS_RT, f->opt,
			     f->opt_len);
	fw_print_next(f, num);
}

/* "; and @why" after the sentence already in f->err. */
static void fw_append(struct fw *f, const char *why)
{
	size_t n = f->err && f->errlen ? strlen(f->err) : 0;

	if (f->err && n + 1 < f->errlen)
		snprintf(f->err + n, f->errlen - n, "; and %s", why);
}

/* Boot#### when new, then BootNext; a failed BootNext deletes the new
 * Boot#### again. */
static int fw_commit_boot(struct fw *f, uint16_t num, bool create,
			  struct firmware_undo *u)
{
	char name[EFI_BOOT_NAME_LEN], why[256];
	uint8_t next[2];
	int rc = 0;

	efi_boot_name(num, name);
	if (create)
		rc = efi_var_write(&f->vars, name, EFI_GLOBAL_GUID,
				   EFI_VARIABLE_NV_BS_RT, f->opt, f->opt_len,
				   f->err, f->errlen);
	if (rc < 0)
		return rc;
	efi_boot_next_encode(num, next);
	rc = efi_var_write(&f->vars, "BootNext", EFI_GLOBAL_GUID,
			   EFI_VARIABLE_NV_BS_RT, next, sizeof(next), f->err,
			   f->errlen);
	if (rc < 0 && create &&
	    efi_var_delete(&f->vars, name, EFI_GLOBAL_GUID, why, sizeof(why)) <
		0)
		fw_append(f, why);
	if (rc < 0)
		return rc;
	u->created = create;
	u->num = num;
	u->active = true;
	return 0;
}

static int fw_load_file(struct fw *f, struct firmware_undo *u)
{
	const struct fs_root *fs = fw_fs(f->e);
	struct efi_part_ref p;
	uint16_t num = 0;
	bool create;
	int rc;

	if (!fs || !fs->partuuid || !f->e->kernel.path)
		return say(f->err, f->errlen, -ENXIO,
			   "the firmware cannot be told where %s is: "
			   "its partition has no PARTUUID",
			   f->e->kernel.path ? f->e->kernel.path : "?");
	p = (struct efi_part_ref){fs->partuuid, fs->partno, fs->part_start};
	rc = fw_list(f);
	if (rc < 0)
		return rc;
	create = !fw_find(f, &p, f->e->kernel.path, &num);
	rc = fw_keep_old(f, "BootNext", u);
	if (!rc && create) /* last: the option's bytes stay in f->buf */
		rc = fw_new(f, fs, &num);
	if (rc < 0)
		return rc;
	if (f->o && f->o->dry_run) {
		fw_print_boot(f, fs, num, create);
		return 0;
	}
	return fw_commit_boot(f, num, create, u);
}

/* One of the firmware's own options: BootNext names it, if it is still
 * there. */
static int fw_load_option(struct fw *f, struct firmware_undo *u)
{
	char name[EFI_BOOT_NAME_LEN];
	uint32_t attrs;
	size_t len;
	int rc;

	efi_boot_name(f->e->fw_num, name);
	rc = fw_read(f, name, &attrs, &len);
	if (rc == -ENOENT)
		return say(f->err, f->errlen, rc,
			   "the firmware's boot option %s (\"%s\") is gone",
			   name, f->e->title);
	if (rc == 0)
		rc = fw_keep_old(f, "BootNext", u);
	if (rc < 0)
		return rc;
	if (!f->o || !f->o->dry_run)
		return fw_commit_boot(f, f->e->fw_num, false, u);
	fprintf(fw_out(f), "entry:    %s (the firmware's %s)\n", f->e->title,
		name);
	fw_print_next(f, f->e->fw_num);
	return 0;
}

/* --- The setup screen */

static int fw_load_setup(struct fw *f, struct firmware_undo *u)
{
	uint64_t ind = 0;
	uint8_t data[8];
	uint32_t attrs;
	int rc = efi_fw_setup_supported(&f->vars, f->err, f->errlen);

	if (rc == 0)
		rc = fw_keep_old(f, "OsIndications", u);
	if (rc == 0 && u->had_old && u->old_len != sizeof(data))
		rc = say(f->err, f->errlen, -EINVAL,
			 "EFI variable OsIndications holds %zu bytes, "
			 "not 8: left as it is",
			 u->old_len);
	if (rc < 0)
		return rc;
	attrs = u->had_old ? u->old_attrs : EFI_VARIABLE_NV_BS_RT;
	if (u->had_old)
		get_le64(u->old, u->old_len, 0, &ind);
	put_le64(data, sizeof(data), 0, ind | EFI_OS_INDICATIONS_BOOT_TO_FW_UI);
	if (f->o && f->o->dry_run) {
		fprintf(fw_out(f), "entry:    %s (firmware setup)\n",
			f->e->title);
		fw_print_var(f, "OsIndications", attrs, data, sizeof(data));
		fprintf(fw_out(f), "then:     restart into the firmware's "
				   "setup screen\n");
		return 0;
	}
	rc = efi_var_write(&f->vars, "OsIndications", EFI_GLOBAL_GUID, attrs,
			   data, sizeof(data), f->err, f->errlen);
	u->active = rc == 0;
	return rc;
}

int firmware_load(const struct entry *e, const struct firmware_opts *o,
		  struct firmware_undo *u, char *err, size_t errlen)
{
	struct fw *f = calloc(1, sizeof(*f));
	struct firmware_undo none;
	int rc;

	say(err, errlen, 0, "%s", "");
	if (!f)
		return say(err, errlen, -ENOMEM, "out of memory");
	*f = (struct fw){.e = e, .o = o, .err = err, .errlen = errlen};
	u = u ? u : &none;
	memset(u, 0, sizeof(*u));
	rc = fw_begin(f);
	if (rc == 0)
		rc = e->fw_setup    ? fw_load_setup(f, u)
		     : e->fw_option ? fw_load_option(f, u)
				    : fw_load_file(f, u);
	if (rc == 0 && u->active) {
		snprintf(u->dir, sizeof(u->dir), "%s", f->dir);
		u->vars = f->vars;
		u->vars.dir = NULL;
	} else {
		u->active = false;
	}
	free(f->buf);
	free(f->nums);
	free(f);
	return rc;
}

int firmware_undo(struct firmware_undo *u, char *err, size_t errlen)
{
	char name[EFI_BOOT_NAME_LEN], why[256] = "";
	int rc = 0, r;

	if (!u || !u->active)
		return 0;
	u->active = false;
	u->vars.dir = u->dir;
	if (u->had_old)
		rc = efi_var_write(&u->vars, u->name, EFI_GLOBAL_GUID,
				   u->old_attrs, u->old, u->old_len, why,
				   sizeof(why));
	else if ((rc = efi_var_delete(&u->vars, u->name, EFI_GLOBAL_GUID, why,
				      sizeof(why))) == -ENOENT)
		rc = 0;
	efi_boot_name(u->num, name);
	if (u->created &&
	    (r = efi_var_delete(&u->vars, name, EFI_GLOBAL_GUID,
				rc ? NULL : why, rc ? 0 : sizeof(why))) < 0 &&
	    !rc)
		rc = r;
	u->vars.dir = NULL;
	return rc ? say(err, errlen, rc, "%s", why) : 0;
}
