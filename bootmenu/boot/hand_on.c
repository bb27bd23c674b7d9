/* hand_on.c - the hand-on step of a boot (hand_on.h). */
#include "boot/hand_on.h"
#include "conf/conf.h"
#include "entry/entry.h"
#include "kexec/plan.h"
#include "scan/fs.h"
#include "util/log.h"
#include "util/say.h"
#include "vol/crypttab.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#define HO_PREFIX "luks-" /* the scan's name of an unlocked volume */

struct ho_vol {
	char volume[BOOT_KEY_VOLUME_MAX]; /* "luks-<uuid>" */
	const void *key;
	size_t len;
	struct crypttab_line ct;
	bool named; /* ct is the volume's crypttab line */
};

struct ho_plan {
	struct ho_vol v[BOOT_HAND_ON_VOLS_MAX];
	size_t n;
	bool debian; /* the target's initramfs is initramfs-tools' */
};

/* A crypttab name that can be a file name in the archive and a word of
 * the command line: the characters cryptopts= passes, no '/', and not
 * "." or "..". */
static bool ho_safe_name(const char *s)
{
	size_t n = strlen(s);

	return n && n < 100 && s[0] != '.' &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			 "0123456789_.:-") == n;
}

/* The volumes that hold @fs whose keys the session kept, each once. */
static void ho_add(struct boot_hand_on *h, const struct fs_root *fs,
		   struct ho_plan *p)
{
	struct boot_key k[BOOT_HAND_ON_VOLS_MAX];
	size_t n;

	if (!fs || !fs->name)
		return;
	n = h->keys_of(h->ctx, fs->name, k, BOOT_HAND_ON_VOLS_MAX);
	for (size_t i = 0; i < n && i < BOOT_HAND_ON_VOLS_MAX; i++) {
		bool seen;

		k[i].volume[sizeof(k[i].volume) - 1] = '\0';
		/* a name the archive and the command line can carry (the
		 * UUID is the header's: outside bytes) */
		seen = strncmp(k[i].volume, HO_PREFIX, strlen(HO_PREFIX)) ||
		       !ho_safe_name(k[i].volume);

		for (size_t j = 0; j < p->n; j++)
			seen |= !strcmp(p->v[j].volume, k[i].volume);
		if (seen || p->n == BOOT_HAND_ON_VOLS_MAX)
			continue;
		if (k[i].len > BOOT_HAND_ON_KEY_MAX) {
			log_warn("hand on: the passphrase of %s is longer "
				 "than %d bytes: it is not handed on",
				 k[i].volume, BOOT_HAND_ON_KEY_MAX);
			continue;
		}
		memcpy(p->v[p->n].volume, k[i].volume, sizeof(k[i].volume));
		p->v[p->n].key = k[i].key;
		p->v[p->n].len = k[i].len;
		p->n++;
	}
	explicit_bzero(k, sizeof(k));
}

/* Each volume's line in the entry's etc/crypttab, when it has one. */
static void ho_crypttab(const struct entry *e, struct ho_plan *p)
{
	struct stat st;
	char *text = NULL;
	size_t len = 0;

	if (!e->fs || fs_read_file(e->fs, "etc/crypttab",
				   BOOT_HAND_ON_CRYPTTAB_MAX, &text, &len) < 0)
		len = 0;
	p->debian = e->fs && fs_stat(e->fs, BOOT_HAND_ON_DEBIAN, &st) == 0 &&
		    S_ISREG(st.st_mode);
	for (size_t i = 0; i < p->n; i++) {
		struct ho_vol *v = &p->v[i];
		const char *uuid = v->volume + strlen(HO_PREFIX);

		v->named = text && crypttab_find(text, len, uuid, &v->ct) == 0;
		if (v->named && !ho_safe_name(v->ct.name)) {
			log_warn("hand on: crypttab's name for %s is not a "
				 "file name: only %s.key goes",
				 v->volume, v->volume);
			v->named = false;
		} else if (!v->named) {
			log_info("hand on: %s is in no etc/crypttab line of "
				 "%s: only %s.key goes",
				 v->volume,
				 e->fs && e->fs->name ? e->fs->name : "?",
				 v->volume);
		}
	}
	free(text);
}

/* Room for every file at once: the buffer is never grown (realloc would
 * leave a copy of a key behind, unwiped). mlock(2) keeps it out of swap
 * where it can; failing that is no reason to refuse the boot. */
static int ho_reserve(struct cpio *c, const struct ho_plan *p)
{
	size_t cap = 4096;

	for (size_t i = 0; i < p->n; i++)
		cap += 2 * (512 + p->v[i].len);
	c->buf = calloc(1, cap);
	if (!c->buf)
		return -ENOMEM;
	c->cap = cap;
	(void)mlock(c->buf, cap);
	return 0;
}

/* crypttab(5), the third field: when it is absent, "none" or "-", a key
 * file named after the volume with ".key" is read from
 * /etc/cryptsetup-keys.d/ (and /run/cryptsetup-keys.d/) if there is one;
 * systemd's src/cryptsetup/cryptsetup.c (v247 on, so 252 too) looks for
 * "<volume>.key" there before it asks. rd.luks.uuid= names a volume
 * luks-<uuid>; a crypttab in the initramfs names it as written. */
static int ho_archive(struct boot_hand_on *h, const struct ho_plan *p)
{
	char path[256];
	int rc = ho_reserve(&h->cpio, p);

	if (rc)
		return rc;
	/* the kernel's unpacker chmods a directory that exists already:
	 * etc keeps the mode every initramfs gives it */
	cpio_add_dir(&h->cpio, "etc", 0755);
	cpio_add_dir(&h->cpio, BOOT_HAND_ON_DIR, 0700);
	for (size_t i = 0; i < p->n; i++) {
		const struct ho_vol *v = &p->v[i];

		snprintf(path, sizeof(path), BOOT_HAND_ON_DIR "/%s.key",
			 v->volume);
		cpio_add_file(&h->cpio, path, v->key, v->len, 0400);
		if (!v->named || !strcmp(v->ct.name, v->volume))
			continue;
		snprintf(path, sizeof(path), BOOT_HAND_ON_DIR "/%s.key",
			 v->ct.name);
		cpio_add_file(&h->cpio, path, v->key, v->len, 0400);
	}
	return cpio_finish(&h->cpio);
}

/* Debian's cryptroot (cryptsetup-initramfs, scripts/local-top/cryptroot)
 * takes its crypttab from the command line's cryptopts= when there is
 * one, and reads no cryptsetup-keys.d: each volume crypttab names gets a
 * cryptopts= whose key= is the file of the archive. Its
 * crypttab_key_check() is content with that file: root's, mode 0400. */
static int ho_cryptopts(const struct ho_vol *v, char *out, size_t cap,
			size_t *used)
{
	char opts[CRYPTTAB_OPTS_MAX];
	int k;

	crypttab_pass_opts(v->ct.opts, opts, sizeof(opts));
	k = snprintf(
	    out + *used, cap - *used,
	    "%scryptopts=target=%s,source=UUID=%s,key=/" BOOT_HAND_ON_DIR
	    "/%s.key,luks%s%s",
	    *used ? " " : "", v->ct.name, v->volume + strlen(HO_PREFIX),
	    v->ct.name, opts[0] ? "," : "", opts);
	if (k < 0 || (size_t)k >= cap - *used) {
		out[*used] = '\0';
		return -ENAMETOOLONG;
	}
	*used += (size_t)k;
	return 0;
}

static int ho_cmdline(const struct entry *e, const struct ho_plan *p, char *out,
		      size_t cap, char *err, size_t len)
{
	size_t used = 0;

	if (!cap)
		return 0;
	out[0] = '\0';
	if (!p->debian)
		return 0;
	if (e->cmdline && strstr(e->cmdline, "cryptopts=")) {
		log_info("hand on: the entry's command line has cryptopts= "
			 "already: none is added");
		return 0;
	}
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].named &&
		    ho_cryptopts(&p->v[i], out, cap, &used) < 0)
			return say(err, len, -ENAMETOOLONG,
				   "the command line has no room for the "
				   "cryptopts= that hands on the key of %s",
				   p->v[i].volume);
	return 0;
}

/* A dry run's lines: which volumes' keys, under which names, the words
 * added; never a key's bytes. */
static void ho_print(const struct ho_plan *p, const char *cmd_add, FILE *out)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct ho_vol *v = &p->v[i];

		fprintf(out,
			"hand on:  the key of %s as /" BOOT_HAND_ON_DIR
			"/%s.key",
			v->volume, v->volume);
		if (v->named && strcmp(v->ct.name, v->volume))
			fprintf(out, " and /" BOOT_HAND_ON_DIR "/%s.key",
				v->ct.name);
		fprintf(out, " (%s)\n",
			v->named ? "crypttab names it" : "not in crypttab");
	}
	if (cmd_add[0])
		fprintf(out, "hand on:  cmdline += \"%s\"\n", cmd_add);
}

/* A real boot's log: what went, never the key. */
static void ho_log(const struct ho_plan *p, const char *cmd_add)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct ho_vol *v = &p->v[i];
		bool other = v->named && strcmp(v->ct.name, v->volume);

		log_info("hand on: the key of %s goes to the target's "
			 "initramfs as %s.key%s%s%s",
			 v->volume, v->volume, other ? " and " : "",
			 other ? v->ct.name : "", other ? ".key" : "");
	}
	if (cmd_add[0])
		log_info("hand on: the command line gets %s", cmd_add);
}

int boot_hand_on_step(void *ctx, const struct entry *e, FILE *dry,
		      struct kexec_blob *archive, char *cmd_add, size_t cmd_len,
		      char *err, size_t len)
{
	struct boot_hand_on *h = ctx;
	struct ho_plan *p;
	int rc;

	boot_hand_on_free(h); /* a step before, in a boot that failed */
	if (cmd_len)
		cmd_add[0] = '\0';
	*archive = (struct kexec_blob){0};
	if (!h->keys_of || !conf_pass_key(h->pattern, e->title, e->id))
		return 0;
	if (!(p = calloc(1, sizeof(*p))))
		return say(err, len, -ENOMEM, "out of memory");
	ho_add(h, e->fs, p);
	ho_add(h, e->kernel.fs, p);
	rc = 0;
	if (p->n) {
		ho_crypttab(e, p);
		rc = ho_cmdline(e, p, cmd_add, cmd_len, err, len);
	}
	if (!rc && p->n && (rc = ho_archive(h, p)) < 0)
		rc = say(err, len, rc,
			 "out of memory for the LUKS key's "
			 "archive");
	if (!rc && p->n) {
		if (dry)
			ho_print(p, cmd_add, dry);
		else
			ho_log(p, cmd_add);
		*archive = (struct kexec_blob){h->cpio.buf, h->cpio.len};
		h->handed = p->n;
	}
	explicit_bzero(p, sizeof(*p));
	free(p);
	return rc;
}

void boot_hand_on_free(struct boot_hand_on *h)
{
	if (h->cpio.buf) {
		explicit_bzero(h->cpio.buf, h->cpio.cap);
		(void)munlock(h->cpio.buf, h->cpio.cap);
	}
	cpio_free(&h->cpio);
	h->handed = 0;
}
