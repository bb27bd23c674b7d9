/* nvram.c - the installer's Boot#### and BootOrder (install_int.h),
 * through the efi room. UEFI 2.10 section 3.1.3: the firmware tries the
 * options BootOrder lists, in that order; edk2's BdsEntry skips an
 * option without LOAD_OPTION_ACTIVE, so only an active option pointing
 * at our file is reused. */
#include "efi/bootopts.h"
#include "efi/devpath.h"
#include "efi/guid.h"
#include "efi/loadopt.h"
#include "install/install_int.h"
#include "util/arena.h"
#include "util/say.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NV_NUMS_MAX 65536 /* every Boot#### there can be */
#define NV_DP_MAX 1024	  /* HD/File/End for in->loader */

int nvram_begin(struct inst *in)
{
	const char *efi = in->o->efi_dir ? in->o->efi_dir : "/sys/firmware/efi";
	struct stat st;

	if (stat(efi, &st) < 0 || !S_ISDIR(st.st_mode))
		return say(in->err, in->errlen, -EOPNOTSUPP,
			   "this machine did not boot through UEFI, so it "
			   "has no boot entries to add: add --no-nvram "
			   "--removable to prepare this ESP for another "
			   "machine");
	if (in->o->vars)
		in->vars = *in->o->vars;
	snprintf(in->vars_dir, sizeof(in->vars_dir), "%s",
		 in->vars.dir ? in->vars.dir : efi);
	if (!in->vars.dir)
		strncat(in->vars_dir, "/efivars",
			sizeof(in->vars_dir) - strlen(in->vars_dir) - 1);
	in->vars.dir = in->vars_dir;
	if (stat(in->vars_dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return say(in->err, in->errlen, -EOPNOTSUPP,
			   "the firmware's variables cannot be reached: mount "
			   "efivarfs (mount -t efivarfs none %s), or add "
			   "--no-nvram",
			   in->vars_dir);
	return 0;
}

/* BootOrder into order[0..*n); none or malformed: empty. */
static int nv_order_read(struct inst *in, uint16_t *order, size_t *n)
{
	uint8_t buf[2 * ORDER_MAX];
	uint32_t attrs;
	size_t len;
	int rc = efi_var_read(&in->vars, "BootOrder", EFI_GLOBAL_GUID, &attrs,
			      buf, sizeof(buf), &len, in->err, in->errlen);

	*n = 0;
	if (rc == -ENOENT)
		return say(in->err, in->errlen, 0, "%s", "");
	if (rc < 0)
		return rc;
	if (efi_boot_order_decode(buf, len, order, ORDER_MAX, n) < 0)
		*n = 0;
	return 0;
}

static void nv_order_text(const uint16_t *order, size_t n, char *out,
			  size_t cap)
{
	size_t off = 0;

	out[0] = '\0';
	for (size_t i = 0; i < n && off + 6 < cap; i++)
		off += (size_t)snprintf(out + off, cap - off, "%s%04X",
					i ? "," : "", order[i]);
	if (!n)
		snprintf(out, cap, "(none)");
}

/* Write BootOrder as order[0..n) (none left: delete it), printed first. */
static int nv_order_write(struct inst *in, const uint16_t *old, size_t n_old,
			  const uint16_t *order, size_t n)
{
	uint8_t buf[2 * ORDER_MAX];
	char was[160], now[160], more[340];
	ssize_t len = efi_boot_order_encode(order, n, buf, sizeof(buf));
	int rc;

	nv_order_text(old, n_old, was, sizeof(was));
	nv_order_text(order, n, now, sizeof(now));
	snprintf(more, sizeof(more), " %s (was %s)", now, was);
	inst_say(in, "variable", "BootOrder", more);
	if (in->o->print)
		return 0;
	if (n == 0) {
		rc = efi_var_delete(&in->vars, "BootOrder", EFI_GLOBAL_GUID,
				    in->err, in->errlen);
		return rc == -ENOENT ? 0 : rc;
	}
	return efi_var_write(&in->vars, "BootOrder", EFI_GLOBAL_GUID,
			     EFI_VARIABLE_NV_BS_RT, buf, (size_t)len, in->err,
			     in->errlen);
}

/* Whether Boot@num is active and points at in->loader on in->part. */
static bool nv_points_here(struct inst *in, uint16_t num, uint8_t *buf)
{
	struct efi_part_ref p = {in->part.partuuid, in->part.num,
				 in->part.start};

	return efi_boot_points_at(&in->vars, num, &p, in->loader, buf, NULL, 0);
}

/* The option's bytes into buf[0..EFI_VAR_DATA_MAX): the length, or
 * -errno with a sentence. */
static ssize_t nv_option(struct inst *in, uint8_t *buf)
{
	uint8_t dp[NV_DP_MAX];
	struct efi_hd hd;
	ssize_t n = efi_hd_gpt(&hd, in->part.num, in->part.start, in->part.size,
			       in->part.partuuid);

	if (n == 0)
		n = efi_dp_encode_hd_file(&hd, in->loader, dp, sizeof(dp));
	if (n >= 0)
		n = efi_loadopt_encode(EFI_LOAD_OPTION_ACTIVE, INSTALL_LABEL,
				       dp, (size_t)n, NULL, 0, buf,
				       EFI_VAR_DATA_MAX);
	if (n < 0)
		return say(in->err, in->errlen, (int)n,
			   "cannot make a boot entry for partition %u "
			   "(PARTUUID %s): %s",
			   in->part.num, in->part.partuuid, strerror((int)-n));
	return n;
}

/* Make Boot@num pointing at our file (printed first). */
static int nv_make(struct inst *in, uint16_t num, uint8_t *buf)
{
	struct arena a = ARENA_INIT;
	struct efi_load_option lo;
	char name[EFI_BOOT_NAME_LEN], text[512], more[600];
	ssize_t n = nv_option(in, buf);

	if (n < 0)
		return (int)n;
	efi_boot_name(num, name);
	text[0] = '\0';
	if (efi_loadopt_decode(&a, buf, (size_t)n, &lo) == 0)
		efi_dp_format(&lo.path, text, sizeof(text));
	arena_free(&a);
	snprintf(more, sizeof(more), " \"" INSTALL_LABEL "\" %s (new)", text);
	inst_say(in, "variable", name, more);
	if (in->o->print)
		return 0;
	return efi_var_write(&in->vars, name, EFI_GLOBAL_GUID,
			     EFI_VARIABLE_NV_BS_RT, buf, (size_t)n, in->err,
			     in->errlen);
}

/* An option of ours, or a new one: its number into *num. */
static int nv_entry(struct inst *in, uint16_t *nums, uint8_t *buf,
		    uint16_t *num)
{
	char name[EFI_BOOT_NAME_LEN], more[REC_PATH_MAX + 32];
	size_t n;
	int rc = efi_var_boot_nums(&in->vars, nums, NV_NUMS_MAX, &n);

	if (rc < 0)
		return say(in->err, in->errlen, rc,
			   "cannot list the boot entries in %s: %s",
			   in->vars_dir, strerror(-rc));
	for (size_t i = 0; i < n; i++)
		if (nv_points_here(in, nums[i], buf)) {
			*num = nums[i];
			efi_boot_name(*num, name);
			snprintf(more, sizeof(more),
				 " (it points at %s already)", in->loader);
			inst_say(in, "keep", name, more);
			return 0;
		}
	if (efi_boot_free_num(nums, n, num) < 0)
		return say(in->err, in->errlen, -ENOSPC,
			   "every Boot#### number is taken: remove an old "
			   "entry (efibootmgr -b XXXX -B) and run this again");
	rc = nv_make(in, *num, buf);
	if (rc == 0)
		rc = rec_add(&in->done, REC_BOOT, NULL, *num, -1);
	return rc;
}

static int nv_index(const uint16_t *order, size_t n, uint16_t num)
{
	for (size_t i = 0; i < n; i++)
		if (order[i] == num)
			return (int)i;
	return -1;
}

/* @num first (--default) or, when missing, last in BootOrder. */
static int nv_place(struct inst *in, uint16_t num, uint16_t *old,
		    uint16_t *order)
{
	size_t n_old, n = 0;
	int pos, rc = nv_order_read(in, old, &n_old);

	if (rc < 0)
		return rc;
	pos = nv_index(old, n_old, num);
	if (pos == 0 || (pos > 0 && !in->o->set_default))
		return 0;
	if (n_old == ORDER_MAX)
		return say(in->err, in->errlen, -E2BIG,
			   "BootOrder is full: remove an old entry first");
	if (in->o->set_default)
		order[n++] = num;
	for (size_t i = 0; i < n_old; i++)
		if (old[i] != num)
			order[n++] = old[i];
	if (!in->o->set_default)
		order[n++] = num;
	rc = nv_order_write(in, old, n_old, order, n);
	if (rc == 0 && !rec_has(&in->old, REC_ORDER, NULL, num))
		rc = rec_add(&in->done, REC_ORDER, NULL, num, pos);
	return rc;
}

int nvram_install(struct inst *in)
{
	uint16_t *nums = malloc(NV_NUMS_MAX * sizeof(*nums));
	uint8_t *buf = malloc(EFI_VAR_DATA_MAX);
	uint16_t num = 0;
	int rc = nums && buf
		     ? 0
		     : say(in->err, in->errlen, -ENOMEM, "out of memory");

	if (rc == 0)
		rc = nv_entry(in, nums, buf, &num);
	if (rc == 0)
		in->boot_num = num;
	/* the two order arrays fit in the numbers' room */
	if (rc == 0)
		rc = nv_place(in, num, nums, nums + ORDER_MAX);
	free(nums);
	free(buf);
	return rc;
}

/* BootOrder without @it->num, then @it->num back at its old place. */
static size_t nv_restore(const struct rec_item *it, const uint16_t *old,
			 size_t n_old, uint16_t *order)
{
	size_t n = 0;

	for (size_t i = 0; i < n_old; i++)
		if (old[i] != it->num)
			order[n++] = old[i];
	if (it->pos < 0 || n == ORDER_MAX)
		return n;
	if ((size_t)it->pos < n) {
		memmove(order + it->pos + 1, order + it->pos,
			(n - (size_t)it->pos) * sizeof(*order));
		order[it->pos] = it->num;
	} else {
		order[n] = it->num;
	}
	return n + 1;
}

int nvram_undo(struct inst *in, const struct rec_item *it)
{
	uint16_t old[ORDER_MAX], order[ORDER_MAX];
	char name[EFI_BOOT_NAME_LEN];
	size_t n_old, n;
	int rc;

	efi_boot_name(it->num, name);
	if (it->kind == REC_BOOT) {
		inst_say(in, "delete", name, NULL);
		rc = in->o->print
			 ? 0
			 : efi_var_delete(&in->vars, name, EFI_GLOBAL_GUID,
					  in->err, in->errlen);
		return rc == -ENOENT ? 0 : rc;
	}
	rc = nv_order_read(in, old, &n_old);
	if (rc < 0)
		return rc;
	n = nv_restore(it, old, n_old, order);
	if (n == n_old && !memcmp(old, order, n * sizeof(*old)))
		return 0;
	return nv_order_write(in, old, n_old, order, n);
}
