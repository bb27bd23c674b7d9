/* devpath.c - EFI device path nodes (devpath.h). Layouts from UEFI 2.10
 * section 10.3: the generic header (10.3.1), Hard Drive (10.3.5.1), File
 * Path (10.3.5.4), End (10.3.1, table 10.2); text forms from 10.6. */
#include "efi/devpath.h"
#include "efi/utf16.h"
#include "util/arena.h"
#include "util/le.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The node at buf[off]: its total length in *nlen after the checks that
 * keep a walk finite (at least the header, inside the buffer). */
static int efi_dp_node_len(const uint8_t *buf, size_t len, size_t off,
			   size_t *nlen)
{
	uint16_t l;

	if (get_le16(buf, len, off + 2, &l) || l < EFI_DP_HDR ||
	    !le_in(len, off, l))
		return -EINVAL;
	*nlen = l;
	return 0;
}

/* How many nodes buf[0..len) holds; checks every length on the way. */
static int efi_dp_count(const uint8_t *buf, size_t len, size_t *n)
{
	size_t off = 0, nlen = 0, cnt = 0;
	uint8_t last_type = 0, last_sub = 0;

	while (off < len) {
		int rc = efi_dp_node_len(buf, len, off, &nlen);

		if (rc < 0)
			return rc;
		if (++cnt > EFI_DP_NODES_MAX)
			return -E2BIG;
		last_type = buf[off];
		last_sub = buf[off + 1];
		off += nlen;
	}
	if (!cnt || last_type != EFI_DP_END || last_sub != EFI_DP_END_ENTIRE)
		return -EINVAL;
	*n = cnt;
	return 0;
}

/* HD: UINT32 number at 4, UINT64 start at 8, UINT64 size at 16, the
 * signature at 24, format at 40, signature type at 41. */
static void efi_dp_decode_hd(const uint8_t *node, size_t nlen,
			     struct efi_dp_node *n)
{
	if (nlen != EFI_DP_HD_LEN)
		return;
	get_le32(node, nlen, 4, &n->hd.part);
	get_le64(node, nlen, 8, &n->hd.start);
	get_le64(node, nlen, 16, &n->hd.size);
	memcpy(n->hd.sig, node + 24, sizeof(n->hd.sig));
	n->hd.format = node[40];
	n->hd.sig_type = node[41];
	n->kind = EFI_DP_HD;
}

static void efi_dp_decode_file(struct arena *a, const uint8_t *node,
			       size_t nlen, struct efi_dp_node *n)
{
	char path[EFI_DP_PATH_MAX];

	if (efi_utf16_to_utf8(node + EFI_DP_HDR, nlen - EFI_DP_HDR, path,
			      sizeof(path)) < 0)
		return;
	n->file = arena_strdup(a, path);
	n->kind = EFI_DP_FILE;
}

static void efi_dp_decode_node(struct arena *a, const uint8_t *node,
			       size_t nlen, struct efi_dp_node *n)
{
	uint8_t *copy = arena_alloc(a, nlen - EFI_DP_HDR + 1);

	memcpy(copy, node + EFI_DP_HDR, nlen - EFI_DP_HDR);
	*n = (struct efi_dp_node){.kind = EFI_DP_OPAQUE,
				  .type = node[0],
				  .subtype = node[1],
				  .data = copy,
				  .len = nlen - EFI_DP_HDR};
	if (n->type == EFI_DP_MEDIA && n->subtype == EFI_DP_MEDIA_HD)
		efi_dp_decode_hd(node, nlen, n);
	else if (n->type == EFI_DP_MEDIA && n->subtype == EFI_DP_MEDIA_FILE)
		efi_dp_decode_file(a, node, nlen, n);
	else if (n->type == EFI_DP_END && n->subtype == EFI_DP_END_ENTIRE &&
		 !n->len)
		n->kind = EFI_DP_END_PATH;
	else if (n->type == EFI_DP_END && n->subtype == EFI_DP_END_INSTANCE &&
		 !n->len)
		n->kind = EFI_DP_END_OF_INSTANCE;
}

int efi_dp_decode(struct arena *a, const uint8_t *buf, size_t len,
		  struct efi_devpath *out)
{
	size_t n = 0, off = 0;
	int rc;

	*out = (struct efi_devpath){NULL, 0};
	if (!buf)
		return -EINVAL;
	rc = efi_dp_count(buf, len, &n);
	if (rc < 0)
		return rc;
	out->nodes = arena_alloc(a, n * sizeof(*out->nodes));
	for (size_t i = 0; i < n; i++) {
		size_t nlen = 0;

		if (efi_dp_node_len(buf, len, off, &nlen) < 0)
			return -EINVAL; /* checked by efi_dp_count() */
		efi_dp_decode_node(a, buf + off, nlen, &out->nodes[i]);
		off += nlen;
	}
	out->n = n;
	return 0;
}

/* --- Text */

struct efi_text {
	char *p;
	size_t len, o;
	int cut;
};

static __attribute__((format(printf, 2, 3))) void
efi_text_add(struct efi_text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->cut)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->p + t->o, t->len - t->o, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= t->len - t->o) {
		t->cut = 1;
		t->o = t->len - 1;
		t->p[t->o] = '\0';
		return;
	}
	t->o += (size_t)n;
}

static void efi_text_hd(struct efi_text *t, const struct efi_hd *hd)
{
	char sig[EFI_GUID_TEXT * 2];
	uint32_t mbr = 0;

	if (hd->sig_type == EFI_HD_SIG_GUID) {
		efi_guid_format(hd->sig, sig);
	} else if (hd->sig_type == EFI_HD_SIG_MBR) {
		get_le32(hd->sig, sizeof(hd->sig), 0, &mbr);
		snprintf(sig, sizeof(sig), "0x%08x", mbr);
	} else {
		snprintf(sig, sizeof(sig), "%u", hd->sig_type);
	}
	efi_text_add(t, "HD(%u,", hd->part);
	if (hd->format == EFI_HD_FORMAT_GPT || hd->format == EFI_HD_FORMAT_MBR)
		efi_text_add(t, "%s,",
			     hd->format == EFI_HD_FORMAT_GPT ? "GPT" : "MBR");
	else
		efi_text_add(t, "%u,", hd->format);
	efi_text_add(t, "%s,0x%llx,0x%llx)", sig, (unsigned long long)hd->start,
		     (unsigned long long)hd->size);
}

static void efi_text_opaque(struct efi_text *t, const struct efi_dp_node *n)
{
	efi_text_add(t, "Path(%u,%u%s", n->type, n->subtype, n->len ? "," : "");
	for (size_t i = 0; i < n->len; i++)
		efi_text_add(t, "%02x", n->data[i]);
	efi_text_add(t, ")");
}

int efi_dp_format(const struct efi_devpath *dp, char *out, size_t len)
{
	struct efi_text t = {out, len, 0, 0};
	int sep = 0;

	if (!len)
		return -ENOSPC;
	out[0] = '\0';
	for (size_t i = 0; i < dp->n; i++) {
		const struct efi_dp_node *n = &dp->nodes[i];

		if (n->kind == EFI_DP_END_PATH ||
		    n->kind == EFI_DP_END_OF_INSTANCE) {
			if (i + 1 < dp->n)
				efi_text_add(
				    &t, n->kind == EFI_DP_END_PATH ? "|" : ",");
			sep = 0;
			continue;
		}
		if (sep)
			efi_text_add(&t, "/");
		sep = 1;
		if (n->kind == EFI_DP_HD)
			efi_text_hd(&t, &n->hd);
		else if (n->kind == EFI_DP_FILE)
			efi_text_add(&t, "File(%s)", n->file);
		else
			efi_text_opaque(&t, n);
	}
	return t.cut ? -ENOSPC : 0;
}

/* Append File path @f to file[0..len) at *o, with a '\' between. */
static int efi_join(char *file, size_t len, size_t *o, const char *f)
{
	size_t n = strlen(f);
	int slash = *o && file[*o - 1] != '\\' && file[*o - 1] != '/' &&
		    f[0] != '\\' && f[0] != '/';

	if (*o + slash + n >= len)
		return -ENAMETOOLONG;
	if (slash)
		file[(*o)++] = '\\';
	memcpy(file + *o, f, n + 1);
	*o += n;
	return 0;
}

const struct efi_hd *efi_dp_target(const struct efi_devpath *dp, char *file,
				   size_t len)
{
	const struct efi_hd *hd = NULL;
	size_t o = 0, i;

	if (!len)
		return NULL;
	file[0] = '\0';
	for (i = 0; i < dp->n && !hd; i++) {
		if (dp->nodes[i].kind == EFI_DP_END_PATH)
			return NULL;
		if (dp->nodes[i].kind == EFI_DP_HD)
			hd = &dp->nodes[i].hd;
	}
	for (; hd && i < dp->n && dp->nodes[i].kind == EFI_DP_FILE; i++)
		if (efi_join(file, len, &o, dp->nodes[i].file) < 0) {
			file[0] = '\0';
			return NULL;
		}
	return hd;
}

/* --- Building */

static int efi_dp_put_hdr(uint8_t *buf, size_t cap, size_t off, uint8_t type,
			  uint8_t sub, size_t nlen)
{
	if (nlen > UINT16_MAX)
		return -EINVAL;
	if (buf && !le_in(cap, off, nlen))
		return -ENOSPC;
	if (buf) {
		buf[off] = type;
		buf[off + 1] = sub;
		put_le16(buf, cap, off + 2, (uint16_t)nlen);
	}
	return 0;
}

int efi_dp_put_hd(uint8_t *buf, size_t cap, size_t *off,
		  const struct efi_hd *hd)
{
	int rc = efi_dp_put_hdr(buf, cap, *off, EFI_DP_MEDIA, EFI_DP_MEDIA_HD,
				EFI_DP_HD_LEN);

	if (rc < 0)
		return rc;
	if (buf) {
		uint8_t *p = buf + *off;

		put_le32(p, EFI_DP_HD_LEN, 4, hd->part);
		put_le64(p, EFI_DP_HD_LEN, 8, hd->start);
		put_le64(p, EFI_DP_HD_LEN, 16, hd->size);
		memcpy(p + 24, hd->sig, sizeof(hd->sig));
		p[40] = hd->format;
		p[41] = hd->sig_type;
	}
	*off += EFI_DP_HD_LEN;
	return 0;
}

/* @path with '/' as '\' and a leading '\' into out[0..len). */
static int efi_dp_tilt(const char *path, char *out, size_t len)
{
	size_t o = 0;

	if (!path || !path[0])
		return -EINVAL;
	if (path[0] != '/' && path[0] != '\\')
		out[o++] = '\\';
	for (size_t i = 0; path[i]; i++) {
		if (o + 1 >= len)
			return -ENAMETOOLONG;
		out[o++] = path[i] == '/' ? '\\' : path[i];
	}
	out[o] = '\0';
	return 0;
}

int efi_dp_put_file(uint8_t *buf, size_t cap, size_t *off, const char *path)
{
	char tilted[EFI_DP_PATH_MAX];
	ssize_t n;
	int rc = efi_dp_tilt(path, tilted, sizeof(tilted));

	if (rc < 0)
		return rc;
	n = efi_utf8_to_utf16(tilted, NULL, 0);
	if (n < 0)
		return -EINVAL;
	rc = efi_dp_put_hdr(buf, cap, *off, EFI_DP_MEDIA, EFI_DP_MEDIA_FILE,
			    EFI_DP_HDR + (size_t)n);
	if (rc < 0)
		return rc;
	if (buf)
		efi_utf8_to_utf16(tilted, buf + *off + EFI_DP_HDR, (size_t)n);
	*off += EFI_DP_HDR + (size_t)n;
	return 0;
}

int efi_dp_put_end(uint8_t *buf, size_t cap, size_t *off, uint8_t subtype)
{
	int rc;

	if (subtype != EFI_DP_END_ENTIRE && subtype != EFI_DP_END_INSTANCE)
		return -EINVAL;
	rc = efi_dp_put_hdr(buf, cap, *off, EFI_DP_END, subtype, EFI_DP_HDR);
	if (rc < 0)
		return rc;
	*off += EFI_DP_HDR;
	return 0;
}

ssize_t efi_dp_encode_hd_file(const struct efi_hd *hd, const char *path,
			      uint8_t *buf, size_t cap)
{
	size_t off = 0;
	int rc = efi_dp_put_hd(buf, cap, &off, hd);

	if (rc == 0)
		rc = efi_dp_put_file(buf, cap, &off, path);
	if (rc == 0)
		rc = efi_dp_put_end(buf, cap, &off, EFI_DP_END_ENTIRE);
	return rc < 0 ? rc : (ssize_t)off;
}

int efi_hd_gpt(struct efi_hd *hd, uint32_t part, uint64_t start, uint64_t size,
	       const char *partuuid)
{
	uint8_t sig[EFI_GUID_SIZE];

	if (efi_guid_parse(partuuid, sig) < 0)
		return -EINVAL;
	*hd = (struct efi_hd){.part = part,
			      .start = start,
			      .size = size,
			      .format = EFI_HD_FORMAT_GPT,
			      .sig_type = EFI_HD_SIG_GUID};
	memcpy(hd->sig, sig, sizeof(sig));
	return 0;
}
