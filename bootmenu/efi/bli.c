/* bli.c - systemd's Boot Loader Interface (bli.h). Section names below
 * are those of systemd's docs/BOOT_LOADER_INTERFACE.md ("The Boot Loader
 * Interface", "Boot Loader Entry Identifiers"). */
#include "efi/bli.h"
#include "efi/devpath.h"
#include "efi/guid.h"
#include "efi/loadopt.h"
#include "efi/utf16.h"
#include "util/arena.h"
#include "util/le.h"
#include "util/say.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool bli_id_valid(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	/* systemd 252 efi_loader_entry_name_valid(): a valid file name made
	 * of ALPHANUMERICAL "+-_." */
	if (!n || n > 255 || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("+-_.", *s))
			return false;
	return true;
}

ssize_t bli_encode_list(const char *const *ids, size_t n, uint8_t *out,
			size_t cap)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		ssize_t k = efi_utf8_to_utf16(ids[i], out ? out + o : NULL,
					      out ? cap - o : 0);

		if (k < 0)
			return k;
		o += (size_t)k;
	}
	return (ssize_t)o;
}

ssize_t bli_encode_usec(uint64_t us, uint8_t *out, size_t cap)
{
	char text[24];

	snprintf(text, sizeof(text), "%" PRIu64, us);
	return efi_utf8_to_utf16(text, out, cap);
}

int bli_decode_str(const uint8_t *buf, size_t len, char *out, size_t cap)
{
	ssize_t n;

	if (!len)
		return -EINVAL;
	n = efi_utf16_to_utf8(buf, len, out, cap);
	return n < 0 ? (int)n : 0;
}

int bli_parse_timeout(const char *s, bool one_shot, int *secs)
{
	unsigned long v = 0;

	/* "LoaderConfigTimeout": seconds, "menu-force", "menu-hidden" */
	if (!strcmp(s, "menu-force")) {
		*secs = BLI_TIMEOUT_FORCE;
		return 0;
	}
	if (!strcmp(s, "menu-hidden")) {
		*secs = 0;
		return 0;
	}
	if (!*s)
		return -EINVAL;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		v = v > 65535 ? v : v * 10 + (unsigned long)(*p - '0');
	}
	*secs = v > 65535 ? 65535 : (int)v;
	if (one_shot && *secs == 0)
		*secs = BLI_TIMEOUT_FORCE;
	return 0;
}

/* --- Writing */

struct bli_out {
	const struct efi_vars *v;
	char *err;
	size_t len;
	int rc; /* the first failure */
};

/* Whether @name holds data[0..n) with BLI_ATTRS already. */
static bool bli_same(const struct efi_vars *v, const char *name,
		     const uint8_t *data, size_t n)
{
	uint8_t *cur = malloc(n + 1);
	uint32_t attrs = 0;
	size_t len = 0;
	bool same;

	same = cur &&
	       efi_var_read(v, name, BLI_GUID, &attrs, cur, n + 1, &len, NULL,
			    0) == 0 &&
	       attrs == BLI_ATTRS && len == n && !memcmp(cur, data, n);
	free(cur);
	return same;
}

static void bli_put(struct bli_out *w, const char *name, const uint8_t *data,
		    ssize_t n)
{
	char why[256];
	int rc = n < 0 ? (int)n : 0;
	size_t k = strlen(w->err);

	if (rc == 0 && bli_same(w->v, name, data, (size_t)n))
		return;
	if (rc == 0)
		rc = efi_var_write(w->v, name, BLI_GUID, BLI_ATTRS, data,
				   (size_t)n, why, sizeof(why));
	else
		snprintf(why, sizeof(why), "%s: %s", name, strerror(-rc));
	if (rc == 0)
		return;
	if (!w->rc)
		w->rc = rc;
	snprintf(w->err + k, w->len - k, "%s%s", k ? "; " : "", why);
}

static void bli_put_str(struct bli_out *w, const char *name, const char *s)
{
	uint8_t buf[2048];

	if (s && s[0])
		bli_put(w, name, buf, efi_utf8_to_utf16(s, buf, sizeof(buf)));
}

static void bli_put_usec(struct bli_out *w, const char *name, uint64_t us)
{
	uint8_t buf[64];

	bli_put(w, name, buf, bli_encode_usec(us, buf, sizeof(buf)));
}

static void bli_put_list(struct bli_out *w, const struct bli_loader *b)
{
	ssize_t n = bli_encode_list(b->ids, b->n_ids, NULL, 0);
	uint8_t *buf = n > 0 ? malloc((size_t)n) : NULL;

	if (n > 0 && !buf)
		n = -ENOMEM;
	if (n > 0)
		n = bli_encode_list(b->ids, b->n_ids, buf, (size_t)n);
	if (n != 0) /* no entries: nothing to say */
		bli_put(w, "LoaderEntries", buf, n);
	free(buf);
}

int bli_write(const struct efi_vars *v, const struct bli_loader *b, char *err,
	      size_t len)
{
	struct bli_out w = {.v = v, .err = err, .len = len};
	uint8_t feat[8];
	char t[16];

	if (len)
		err[0] = '\0';
	bli_put_str(&w, "LoaderInfo", b->info);
	bli_put_str(&w, "LoaderFirmwareInfo", b->fw_info);
	bli_put_str(&w, "LoaderFirmwareType", b->fw_type);
	bli_put_str(&w, "LoaderDevicePartUUID", b->part_uuid);
	bli_put_str(&w, "LoaderImageIdentifier", b->image);
	put_le64(feat, sizeof(feat), 0, b->features);
	bli_put(&w, "LoaderFeatures", feat, sizeof(feat));
	if (b->timeout_s == BLI_TIMEOUT_FORCE)
		snprintf(t, sizeof(t), "menu-force");
	else
		snprintf(t, sizeof(t), "%d",
			 b->timeout_s < 0 ? 0 : b->timeout_s);
	bli_put_str(&w, "LoaderConfigTimeout", t);
	bli_put_list(&w, b);
	bli_put_str(&w, "LoaderEntrySelected", b->selected);
	bli_put_usec(&w, "LoaderTimeInitUSec", b->init_us);
	if (b->menu_us)
		bli_put_usec(&w, "LoaderTimeMenuUSec", b->menu_us);
	/* last: "when the loader finished its work and is about to execute
	 * the kernel" */
	bli_put_usec(&w, "LoaderTimeExecUSec", b->exec_us);
	return w.rc;
}

/* --- Reading what the OS wrote */

static void bli_get_str(const struct efi_vars *v, const char *name, char *out,
			size_t cap)
{
	uint8_t buf[1024];
	uint32_t attrs;
	size_t n;

	out[0] = '\0';
	if (efi_var_read(v, name, BLI_GUID, &attrs, buf, sizeof(buf), &n, NULL,
			 0) < 0 ||
	    bli_decode_str(buf, n, out, cap) < 0)
		out[0] = '\0';
}

static void bli_lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

int bli_read_os(const struct efi_vars *v, struct bli_os *o, bool consume,
		char *err, size_t len)
{
	char t[32];
	int rc = 0;

	bli_get_str(v, "LoaderEntryOneShot", o->oneshot, sizeof(o->oneshot));
	bli_get_str(v, "LoaderEntryDefault", o->def, sizeof(o->def));
	/* systemd-boot 252 compares ids folded to lower case */
	bli_lower(o->oneshot);
	bli_lower(o->def);
	o->timeout_oneshot = BLI_TIMEOUT_UNSET;
	bli_get_str(v, "LoaderConfigTimeoutOneShot", t, sizeof(t));
	if (t[0] && bli_parse_timeout(t, true, &o->timeout_oneshot) < 0)
		o->timeout_oneshot = BLI_TIMEOUT_UNSET;
	if (len)
		err[0] = '\0';
	if (t[0] && consume)
		rc = efi_var_delete(v, "LoaderConfigTimeoutOneShot", BLI_GUID,
				    err, len);
	return rc == -ENOENT ? 0 : rc;
}

int bli_clear_oneshot(const struct efi_vars *v, char *err, size_t len)
{
	int rc = efi_var_delete(v, "LoaderEntryOneShot", BLI_GUID, err, len);

	if (rc == -ENOENT && len)
		err[0] = '\0';
	return rc == -ENOENT ? 0 : rc;
}

/* --- Where this boot came from */

/* Boot#### named by BootCurrent, decoded into @a. */
static int bli_current_option(const struct efi_vars *v, struct arena *a,
			      struct efi_load_option *opt)
{
	uint8_t *buf = malloc(EFI_VAR_DATA_MAX);
	char name[EFI_BOOT_NAME_LEN];
	uint32_t attrs;
	uint16_t num;
	size_t n;
	int rc;

	if (!buf)
		return -ENOMEM;
	rc = efi_var_read(v, "BootCurrent", EFI_GLOBAL_GUID, &attrs, buf,
			  EFI_VAR_DATA_MAX, &n, NULL, 0);
	if (rc == 0)
		rc = efi_boot_next_decode(buf, n, &num);
	if (rc == 0) {
		efi_boot_name(num, name);
		rc = efi_var_read(v, name, EFI_GLOBAL_GUID, &attrs, buf,
				  EFI_VAR_DATA_MAX, &n, NULL, 0);
	}
	if (rc == 0)
		rc = efi_loadopt_decode(a, buf, n, opt);
	free(buf);
	return rc;
}

int bli_boot_current(const struct efi_vars *v, char *uuid, char *image,
		     size_t len)
{
	struct arena a = ARENA_INIT;
	struct efi_load_option opt;
	const struct efi_hd *hd = NULL;
	int rc;

	rc = bli_current_option(v, &a, &opt);
	if (rc == 0)
		hd = efi_dp_target(&opt.path, image, len);
	if (rc == 0 && (!hd || hd->sig_type != EFI_HD_SIG_GUID))
		rc = -ENOENT;
	if (rc == 0)
		efi_guid_format(hd->sig, uuid);
	arena_free(&a);
	return rc;
}

int bli_firmware_from_log(const char *log, char *type, size_t tlen, char *info,
			  size_t ilen)
{
	/* Linux drivers/firmware/efi/efi.c: "EFI v%u.%u by %s" (older:
	 * "EFI v%u.%.02u by %s") */
	for (const char *p = strstr(log, "EFI v"); p;
	     p = strstr(p + 1, "EFI v")) {
		const char *ver = p + 5, *by = strstr(ver, " by "), *nl;
		size_t vn = strspn(ver, "0123456789.");

		if (!vn || !by || by != ver + vn)
			continue;
		nl = by + 4 + strcspn(by + 4, "\r\n");
		snprintf(type, tlen, "UEFI %.*s", (int)vn, ver);
		snprintf(info, ilen, "%.*s", (int)(nl - by - 4), by + 4);
		return 0;
	}
	return -ENOENT;
}
