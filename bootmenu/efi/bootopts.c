/* bootopts.c - see bootopts.h. */
#include "efi/bootopts.h"

#include "efi/devpath.h"
#include "efi/guid.h"
#include "efi/loadopt.h"
#include "util/arena.h"
#include "util/le.h"
#include "util/say.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Boot#### numbers looked at, at most (the list, and BootOrder's). */
#define BOOTOPTS_NUMS_MAX 4096

struct bootopts {
	const struct efi_vars *v;
	struct arena *a;
	uint8_t *buf; /* one variable's data */
	uint16_t *nums, *order;
	size_t n_nums, n_order;
	struct efi_boot_option *out;
	size_t n;
};

/* The partition of @hd as blkid names it: the GPT GUID, or MBR's
 * "<disk signature>-<partition number>". NULL for anything else. */
static const char *bootopts_partuuid(struct arena *a, const struct efi_hd *hd)
{
	char text[EFI_GUID_TEXT];
	uint32_t sig;

	if (hd->format == EFI_HD_FORMAT_GPT &&
	    hd->sig_type == EFI_HD_SIG_GUID) {
		efi_guid_format(hd->sig, text);
		return arena_strdup(a, text);
	}
	if (hd->format == EFI_HD_FORMAT_MBR && hd->sig_type == EFI_HD_SIG_MBR &&
	    get_le32(hd->sig, sizeof(hd->sig), 0, &sig) == 0 && hd->part < 256)
		return arena_printf(a, "%08x-%02x", sig, hd->part);
	return NULL;
}

/* @file with '/' for '\', runs of either as one, one leading '/' and
 * no trailing one. */
static const char *bootopts_path(struct arena *a, const char *file)
{
	char *p = arena_alloc(a, strlen(file) + 2);
	size_t k = 1;

	p[0] = '/';
	for (; *file; file++) {
		char c = *file == '\\' ? '/' : *file;

		if (c != '/' || p[k - 1] != '/')
			p[k++] = c;
	}
	if (k > 1 && p[k - 1] == '/')
		k--;
	p[k] = '\0';
	return p;
}

static bool bootopts_listed(const struct bootopts *s, uint16_t num)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->out[i].num == num)
			return true;
	return false;
}

/* Option @num, when it exists and is a boot option the firmware's menu
 * shows, appended to s->out. */
static void bootopts_take(struct bootopts *s, uint16_t num)
{
	char name[EFI_BOOT_NAME_LEN], file[EFI_DP_PATH_MAX];
	struct efi_load_option lo;
	struct efi_boot_option *o;
	const struct efi_hd *hd;
	uint32_t attrs;
	size_t len;

	if (s->n == EFI_BOOT_OPTIONS_MAX || bootopts_listed(s, num))
		return;
	efi_boot_name(num, name);
	if (efi_var_read(s->v, name, EFI_GLOBAL_GUID, &attrs, s->buf,
			 EFI_VAR_DATA_MAX, &len, NULL, 0) < 0 ||
	    efi_loadopt_decode(s->a, s->buf, len, &lo) < 0 ||
	    !(lo.attrs & EFI_LOAD_OPTION_ACTIVE) ||
	    (lo.attrs & EFI_LOAD_OPTION_HIDDEN) ||
	    (lo.attrs & EFI_LOAD_OPTION_CATEGORY) !=
		EFI_LOAD_OPTION_CATEGORY_BOOT)
		return;
	o = &s->out[s->n++];
	*o = (struct efi_boot_option){.num = num, .desc = lo.desc};
	if (!o->desc[0])
		o->desc = arena_strdup(s->a, name);
	hd = efi_dp_target(&lo.path, file, sizeof(file));
	if (hd && file[0] && (o->partuuid = bootopts_partuuid(s->a, hd)))
		o->file = bootopts_path(s->a, file);
}

/* The Boot#### numbers and BootOrder (a missing or malformed one: no
 * order). */
static int bootopts_nums(struct bootopts *s, char *err, size_t errlen)
{
	uint32_t attrs;
	size_t len;
	int rc =
	    efi_var_boot_nums(s->v, s->nums, BOOTOPTS_NUMS_MAX, &s->n_nums);

	if (rc < 0)
		return say(err, errlen, rc,
			   "cannot list the firmware's Boot#### variables: %s",
			   strerror(-rc));
	if (efi_var_read(s->v, "BootOrder", EFI_GLOBAL_GUID, &attrs, s->buf,
			 EFI_VAR_DATA_MAX, &len, NULL, 0) < 0 ||
	    efi_boot_order_decode(s->buf, len, s->order, BOOTOPTS_NUMS_MAX,
				  &s->n_order) < 0)
		s->n_order = 0;
	return 0;
}

int efi_boot_options(const struct efi_vars *v, struct arena *a,
		     struct efi_boot_option **out, size_t *n, char *err,
		     size_t errlen)
{
	struct efi_vars here = {0};
	struct bootopts s = {.v = v ? v : &here, .a = a};
	int rc;

	*out = NULL;
	*n = 0;
	s.buf = malloc(EFI_VAR_DATA_MAX);
	s.nums = malloc(2 * BOOTOPTS_NUMS_MAX * sizeof(*s.nums));
	s.out = arena_alloc(a, EFI_BOOT_OPTIONS_MAX * sizeof(*s.out));
	if (!s.buf || !s.nums || !s.out)
		rc = say(err, errlen, -ENOMEM,
			 "out of memory for the firmware's boot options");
	else {
		s.order = s.nums + BOOTOPTS_NUMS_MAX;
		rc = bootopts_nums(&s, err, errlen);
	}
	for (size_t i = 0; rc == 0 && i < s.n_order; i++)
		if (efi_boot_num_in(s.nums, s.n_nums, s.order[i]))
			bootopts_take(&s, s.order[i]);
	for (size_t i = 0; rc == 0 && i < s.n_nums; i++)
		if (!efi_boot_num_in(s.order, s.n_order, s.nums[i]))
			bootopts_take(&s, s.nums[i]);
	free(s.buf);
	free(s.nums);
	if (rc == 0) {
		*out = s.out;
		*n = s.n;
	}
	return rc;
}

bool efi_boot_points_at(const struct efi_vars *v, uint16_t num,
			const struct efi_part_ref *p, const char *file,
			uint8_t *buf, char *desc, size_t desclen)
{
	struct arena a = ARENA_INIT;
	struct efi_load_option lo;
	char name[EFI_BOOT_NAME_LEN];
	uint32_t attrs;
	size_t len;
	bool yes;

	efi_boot_name(num, name);
	if (efi_var_read(v, name, EFI_GLOBAL_GUID, &attrs, buf,
			 EFI_VAR_DATA_MAX, &len, NULL, 0) < 0)
		return false;
	yes = efi_loadopt_decode(&a, buf, len, &lo) == 0 &&
	      (lo.attrs & EFI_LOAD_OPTION_ACTIVE) &&
	      efi_loadopt_points_at(&lo, p, file);
	if (yes && desc && desclen)
		snprintf(desc, desclen, "%s", lo.desc);
	arena_free(&a);
	return yes;
}
