/* loadopt.c - EFI_LOAD_OPTION and the Boot variables (loadopt.h). UEFI
 * 2.10 section 3.1.3 for the layout, 3.1.1 and 3.3 for the names. */
#include "efi/loadopt.h"
#include "efi/utf16.h"
#include "util/arena.h"
#include "util/le.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Where the description's NUL unit is: the first 16-bit zero at an even
 * offset from EFI_LOADOPT_HDR. */
static int efi_desc_end(const uint8_t *buf, size_t len, size_t *end)
{
	uint16_t u;

	for (size_t off = EFI_LOADOPT_HDR; get_le16(buf, len, off, &u) == 0;
	     off += 2)
		if (u == 0) {
			*end = off;
			return 0;
		}
	return -EINVAL;
}

static const uint8_t *efi_copy(struct arena *a, const uint8_t *p, size_t n)
{
	uint8_t *c;

	if (!n)
		return NULL;
	c = arena_alloc(a, n);
	memcpy(c, p, n);
	return c;
}

int efi_loadopt_decode(struct arena *a, const uint8_t *buf, size_t len,
		       struct efi_load_option *out)
{
	char desc[EFI_DESC_MAX];
	uint16_t plen;
	size_t end = 0, off;
	ssize_t n;
	int rc;

	*out = (struct efi_load_option){0};
	if (!buf || get_le32(buf, len, 0, &out->attrs) ||
	    get_le16(buf, len, 4, &plen) || efi_desc_end(buf, len, &end))
		return -EINVAL;
	n = efi_utf16_to_utf8(buf + EFI_LOADOPT_HDR, end - EFI_LOADOPT_HDR,
			      desc, sizeof(desc));
	if (n < 0)
		return (int)n;
	off = end + 2;
	if (!le_in(len, off, plen))
		return -EINVAL;
	rc = efi_dp_decode(a, buf + off, plen, &out->path);
	if (rc < 0)
		return rc;
	out->desc = arena_strdup(a, desc);
	out->path_raw = efi_copy(a, buf + off, plen);
	out->path_len = plen;
	out->opt_len = len - off - plen;
	out->opt = efi_copy(a, buf + off + plen, out->opt_len);
	return 0;
}

ssize_t efi_loadopt_encode(uint32_t attrs, const char *desc,
			   const uint8_t *path, size_t path_len,
			   const uint8_t *opt, size_t opt_len, uint8_t *buf,
			   size_t cap)
{
	ssize_t dlen = desc ? efi_utf8_to_utf16(desc, NULL, 0) : -EINVAL;
	size_t total;

	if (dlen < 0 || !path || !path_len || path_len > UINT16_MAX ||
	    (opt_len && !opt))
		return -EINVAL;
	total = EFI_LOADOPT_HDR + (size_t)dlen + path_len + opt_len;
	if (!buf)
		return (ssize_t)total;
	if (total > cap)
		return -ENOSPC;
	put_le32(buf, cap, 0, attrs);
	put_le16(buf, cap, 4, (uint16_t)path_len);
	efi_utf8_to_utf16(desc, buf + EFI_LOADOPT_HDR, (size_t)dlen);
	memcpy(buf + EFI_LOADOPT_HDR + dlen, path, path_len);
	if (opt_len)
		memcpy(buf + EFI_LOADOPT_HDR + dlen + path_len, opt, opt_len);
	return (ssize_t)total;
}

int efi_boot_order_decode(const uint8_t *buf, size_t len, uint16_t *nums,
			  size_t cap, size_t *n)
{
	*n = 0;
	if (len % 2)
		return -EINVAL;
	if (len / 2 > cap)
		return -E2BIG;
	for (size_t i = 0; i < len / 2; i++)
		get_le16(buf, len, 2 * i, &nums[i]);
	*n = len / 2;
	return 0;
}

ssize_t efi_boot_order_encode(const uint16_t *nums, size_t n, uint8_t *buf,
			      size_t cap)
{
	if (n > cap / 2)
		return -ENOSPC;
	for (size_t i = 0; i < n; i++)
		put_le16(buf, cap, 2 * i, nums[i]);
	return (ssize_t)(2 * n);
}

int efi_boot_next_decode(const uint8_t *buf, size_t len, uint16_t *num)
{
	if (len != 2)
		return -EINVAL;
	return get_le16(buf, len, 0, num) ? -EINVAL : 0;
}

void efi_boot_next_encode(uint16_t num, uint8_t out[2])
{
	put_le16(out, 2, 0, num);
}

void efi_boot_name(uint16_t num, char out[EFI_BOOT_NAME_LEN])
{
	snprintf(out, EFI_BOOT_NAME_LEN, "Boot%04X", num);
}

int efi_boot_name_parse(const char *name, uint16_t *num)
{
	unsigned v = 0;

	if (!name || strncmp(name, "Boot", 4) || strlen(name) != 8)
		return -EINVAL;
	for (size_t i = 4; i < 8; i++) {
		char c = name[i];

		if (c >= '0' && c <= '9')
			v = v << 4 | (unsigned)(c - '0');
		else if (c >= 'A' && c <= 'F')
			v = v << 4 | (unsigned)(c - 'A' + 10);
		else
			return -EINVAL;
	}
	*num = (uint16_t)v;
	return 0;
}

int efi_boot_free_num(const uint16_t *used, size_t n, uint16_t *num)
{
	uint8_t taken[65536 / 8] = {0};

	for (size_t i = 0; i < n; i++)
		taken[used[i] / 8] |= (uint8_t)(1u << (used[i] % 8));
	for (unsigned v = 0; v < 65536; v++)
		if (!(taken[v / 8] & (1u << (v % 8)))) {
			*num = (uint16_t)v;
			return 0;
		}
	return -ENOSPC;
}

/* --- Matching */

static int efi_is_sep(char c)
{
	return c == '\\' || c == '/';
}

static const char *efi_skip_sep(const char *s)
{
	while (efi_is_sep(*s))
		s++;
	return s;
}

static char efi_fold(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

bool efi_path_equal(const char *a, const char *b)
{
	if (!a || !b)
		return false;
	a = efi_skip_sep(a);
	b = efi_skip_sep(b);
	if (!*a || !*b)
		return false;
	while (*a && *b) {
		if (efi_is_sep(*a) && efi_is_sep(*b)) {
			a = efi_skip_sep(a);
			b = efi_skip_sep(b);
			continue;
		}
		if (efi_fold(*a) != efi_fold(*b))
			return false;
		a++;
		b++;
	}
	return !*efi_skip_sep(a) && !*efi_skip_sep(b);
}

/* blkid's PARTUUID for an MBR partition: "%08x-%02x", the disk signature
 * and the partition number. */
static int efi_mbr_partuuid(const char *s, uint32_t *sig, uint32_t *num)
{
	unsigned a, b;
	int end = 0;

	if (!s || strlen(s) != 11 || s[8] != '-' ||
	    sscanf(s, "%8x-%2x%n", &a, &b, &end) != 2 || end != 11)
		return -EINVAL;
	*sig = a;
	*num = b;
	return 0;
}

static bool efi_hd_is_mbr(const struct efi_hd *hd, const struct efi_part_ref *p)
{
	uint32_t sig = 0, psig = 0, pnum = p->num;
	bool by_sig = efi_mbr_partuuid(p->partuuid, &psig, &pnum) == 0;

	get_le32(hd->sig, sizeof(hd->sig), 0, &sig);
	if (!pnum || pnum != hd->part || (!by_sig && !p->start))
		return false;
	if (by_sig && sig != psig)
		return false;
	return !p->start || p->start == hd->start;
}

static bool efi_hd_is(const struct efi_hd *hd, const struct efi_part_ref *p)
{
	uint8_t g[EFI_GUID_SIZE];

	if (hd->sig_type == EFI_HD_SIG_GUID)
		return p->partuuid && efi_guid_parse(p->partuuid, g) == 0 &&
		       memcmp(g, hd->sig, sizeof(g)) == 0;
	if (hd->sig_type == EFI_HD_SIG_MBR)
		return efi_hd_is_mbr(hd, p);
	return false;
}

bool efi_loadopt_points_at(const struct efi_load_option *o,
			   const struct efi_part_ref *p, const char *file)
{
	char target[EFI_DP_PATH_MAX];
	const struct efi_hd *hd =
	    efi_dp_target(&o->path, target, sizeof(target));

	return hd && efi_hd_is(hd, p) && efi_path_equal(target, file);
}

bool efi_boot_num_in(const uint16_t *v, size_t n, uint16_t x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}
