/* uki.c - Unified Kernel Images (uki.h).
 *
 * The UKI specification (uapi-group.org) and systemd-boot: title from
 * .osrel PRETTY_NAME (else NAME), sort key from IMAGE_ID (else ID); the
 * stub passes .cmdline to the kernel. The version used for sorting here
 * is .uname when present (the kernel's own release, which orders two
 * kernels of one rolling distribution), else IMAGE_VERSION, VERSION,
 * VERSION_ID. Only the PE headers and the text sections are read, never
 * the kernel and initrd (a UKI is often 50-100 MB).
 */
#include "cfg/uki.h"
#include "cfg/bls_entry.h"
#include "cfg/cfg_text.h"
#include "scan/fs.h"
#include "util/arena.h"
#include "util/file.h"
#include "format/pe.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

struct uki_osrel {
	const char *pretty_name, *name, *image_id, *id;
	const char *image_version, *version, *version_id;
};

/* os-release(5): VAR=value, the value optionally in single or double
 * quotes, with shell-style backslash escapes in double quotes. */
static char *osrel_value(struct arena *a, const char *v, size_t n)
{
	char *out = arena_alloc(a, n + 1), *w = out;
	char q = 0;

	if (n && (v[0] == '"' || v[0] == '\'')) {
		q = v[0];
		v++, n--;
	}
	for (size_t i = 0; i < n; i++) {
		if (q && v[i] == q)
			break;
		if (q == '"' && v[i] == '\\' && i + 1 < n)
			i++;
		*w++ = v[i];
	}
	*w = '\0';
	return out;
}

static void osrel_parse(struct arena *a, const char *buf, size_t len,
			struct uki_osrel *o)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
	    {"PRETTY_NAME", offsetof(struct uki_osrel, pretty_name)},
	    {"NAME", offsetof(struct uki_osrel, name)},
	    {"IMAGE_ID", offsetof(struct uki_osrel, image_id)},
	    {"ID", offsetof(struct uki_osrel, id)},
	    {"IMAGE_VERSION", offsetof(struct uki_osrel, image_version)},
	    {"VERSION", offsetof(struct uki_osrel, version)},
	    {"VERSION_ID", offsetof(struct uki_osrel, version_id)},
	};
	struct cfg_text_lines it;
	const char *p;
	size_t n;

	cfg_text_lines_init(&it, buf, len);
	while (cfg_text_next_line(&it, &p, &n)) {
		const char *eq;

		p = cfg_text_ltrim(p, &n);
		eq = memchr(p, '=', n);
		if (!eq || p[0] == '#')
			continue;
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (strlen(keys[i].key) == (size_t)(eq - p) &&
			    !strncmp(p, keys[i].key, (size_t)(eq - p)))
				*(const char **)((char *)o + keys[i].off) =
				    osrel_value(a, eq + 1,
						n - (size_t)(eq + 1 - p));
	}
}

/* A text section as a string: NULs, trailing blanks and newlines go. */
static int uki_text(struct cfg_ctx *ctx, const struct uki_src *src,
		    const void *hdr, size_t hlen, const char *sect, char **out)
{
	size_t off, size;
	char *buf;
	int rc;

	*out = NULL;
	rc = pe_locate_section(hdr, hlen, sect, &off, &size);
	if (rc < 0)
		return rc == -ENOENT ? 0 : rc;
	if (off > src->size || size > src->size - off)
		return -ERANGE;
	if (size > UKI_TEXT_MAX)
		size = UKI_TEXT_MAX;
	buf = arena_alloc(ctx->a, size + 1);
	rc = src->read(src->p, off, buf, size);
	if (rc < 0)
		return rc;
	buf[size] = '\0';
	size = strlen(buf);
	while (size && strchr(" \t\r\n", buf[size - 1]))
		buf[--size] = '\0';
	*out = buf;
	return 0;
}

static void uki_fill(struct cfg_ctx *ctx, struct entry *e, const char *path,
		     const struct uki_osrel *o, const char *uname)
{
	const char *base = cfg_text_basename(path);

	bls_name_counter(ctx->a, base, ".efi", &e->id, &e->tries_left,
			 &e->tries_done);
	e->title = o->pretty_name ? o->pretty_name : o->name ? o->name : e->id;
	e->sort_key = o->image_id ? o->image_id : o->id;
	e->version = uname		? uname
		     : o->image_version ? o->image_version
		     : o->version	? o->version
					: o->version_id;
	e->kernel.path = arena_strdup(ctx->a, path);
	e->source = e->kernel.path;
	e->line = 0;
}

int uki_parse(struct cfg_ctx *ctx, const char *path, const struct uki_src *src,
	      struct entry **out)
{
	size_t hlen =
	    src->size < PE_HEADERS_READ ? (size_t)src->size : PE_HEADERS_READ;
	size_t off, size;
	struct uki_osrel o = {0};
	char *hdr = malloc(hlen ? hlen : 1), *cmdline, *osrel, *uname;
	struct entry *e;
	int rc;

	if (!hdr)
		return -ENOMEM;
	rc = src->read(src->p, 0, hdr, hlen);
	if (rc == 0)
		rc = pe_locate_section(hdr, hlen, ".linux", &off, &size);
	if (rc == -ENOENT)
		rc = -ENOEXEC; /* a PE file, but no kernel in it */
	if (rc == 0 && (off > src->size || size > src->size - off || !size))
		rc = -ENOEXEC;
	if (rc == 0)
		rc = uki_text(ctx, src, hdr, hlen, ".cmdline", &cmdline);
	if (rc == 0)
		rc = uki_text(ctx, src, hdr, hlen, ".osrel", &osrel);
	if (rc == 0)
		rc = uki_text(ctx, src, hdr, hlen, ".uname", &uname);
	free(hdr);
	if (rc < 0)
		return rc;
	if (osrel)
		osrel_parse(ctx->a, osrel, strlen(osrel), &o);
	e = entry_new(ctx->out, FMT_UKI, ctx->fs);
	uki_fill(ctx, e, path, &o, uname && *uname ? uname : NULL);
	e->cmdline = cmdline ? cmdline : "";
	*out = e;
	return 0;
}

struct uki_mem {
	const unsigned char *buf;
	size_t len;
};

static int uki_mem_read(void *p, uint64_t off, void *buf, size_t n)
{
	const struct uki_mem *m = p;

	if (off > m->len || n > m->len - off)
		return -EIO;
	memcpy(buf, m->buf + off, n);
	return 0;
}

int uki_parse_mem(struct cfg_ctx *ctx, const char *path, const void *buf,
		  size_t len, struct entry **out)
{
	struct uki_mem m = {buf, len};
	struct uki_src src = {uki_mem_read, &m, len};

	return uki_parse(ctx, path, &src, out);
}

static int uki_fd_read(void *p, uint64_t off, void *buf, size_t n)
{
	ssize_t got = util_pread_full(*(int *)p, buf, n, off);

	return got < 0 ? (int)got : (size_t)got < n ? -EIO : 0;
}

static int uki_parse_file(struct cfg_ctx *ctx, const char *path,
			  struct entry **out)
{
	struct stat st;
	int fd = fs_open(ctx->fs, path, false), rc;
	struct uki_src src = {uki_fd_read, &fd, 0};

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	src.size = (uint64_t)st.st_size;
	rc = uki_parse(ctx, path, &src, out);
	close(fd);
	return rc;
}

static bool uki_is_efi(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && name[0] != '.' && !strcasecmp(name + n - 4, ".efi");
}

int uki_collect(struct cfg_ctx *ctx, const char *dir, struct bls_vec *vec)
{
	char **names;
	size_t n;
	int added = 0;

	if (fs_list(ctx->fs, dir, ctx->a, &names, &n) < 0)
		return 0;
	for (size_t i = 0; i < n && added < BLS_ENTRIES_MAX; i++) {
		char *path;
		struct entry *e;
		int rc;

		if (!uki_is_efi(names[i]))
			continue;
		path = cfg_text_path(ctx->a, dir, names[i]);
		rc = uki_parse_file(ctx, path, &e);
		if (rc < 0) {
			entry_warn(ctx->out, ctx->fs, path, 0,
				   "not a unified kernel image: %s",
				   rc == -ENOEXEC ? "no .linux section"
						  : strerror(-rc));
			continue;
		}
		bls_vec_push(ctx->a, vec, e);
		added++;
	}
	return added;
}

/* UKIs are read by bls_parse_fs(), so that they sort together with the
 * Type 1 entries and loader.conf's default can name them, as in
 * systemd-boot. */
int uki_parse_fs(struct cfg_ctx *ctx)
{
	(void)ctx;
	return 0;
}
