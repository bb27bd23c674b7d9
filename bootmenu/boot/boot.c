/* boot.c - an entry becomes a plan, a plan becomes a loaded kernel. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "boot/boot.h"
#include "boot/firmware.h"
#include "entry/entry.h"
#include "kexec/blob.h"
#include "kexec/load.h"
#include "kexec/machine.h"
#include "kexec/sys.h"
#include "scan/fs.h"
#include "util/log.h"
#include "util/say.h"
#include "format/pe.h"

/* Most initrds one boot loads (an edited entry may name more). */
#define BOOT_INITRD_MAX ENTRY_INITRD_MAX
#define BOOT_CMDLINE_MAX 4096

struct boot_files {
	int kernel_fd;
	int initrd_fds[BOOT_INITRD_MAX];
	unsigned long long initrd_sizes[BOOT_INITRD_MAX];
	size_t n_initrds;
	struct kexec_blob kernel, initrd;
};

/* A file of a network root is fetched before it is opened, with its own
 * progress (the bytes so far, the total when the server announced it);
 * Esc (o->fetch returning nonzero) stops the transfer. fs_prefetch() is
 * 0 at once for a local root. */
static int boot_fetch(const struct entry_file *f, const struct fs_progress *cb,
		      char *err, size_t errlen)
{
	int rc = fs_prefetch(f->fs, f->path, cb);

	if (rc == -ECANCELED)
		snprintf(err, errlen, "cancelled while fetching %s", f->path);
	else if (rc)
		snprintf(err, errlen, "cannot fetch %s from %s: %s", f->path,
			 f->fs->name ? f->fs->name : "?",
			 rc == -EFBIG ? "larger than the free RAM"
			 : cb->why[0] ? cb->why
				      : strerror(-rc));
	return rc;
}

static int boot_open(const struct entry_file *f, const char *what,
		     const struct fs_progress *cb, int *fd, char *err,
		     size_t errlen)
{
	int rc;

	if (!f->fs) {
		snprintf(err, errlen,
			 "the %s %s is on a filesystem that was "
			 "not found (%s)",
			 what, f->path ? f->path : "?",
			 f->dev ? f->dev : "its own");
		return -ENOENT;
	}
	if (f->path && (rc = boot_fetch(f, cb, err, errlen)))
		return rc;
	*fd = fs_open(f->fs, f->path, false);
	if (*fd < 0) {
		snprintf(err, errlen, "cannot open the %s %s on %s: %s", what,
			 f->path, f->fs->name ? f->fs->name : "?",
			 strerror(-*fd));
		return *fd;
	}
	return 0;
}

static void boot_close(struct boot_files *b)
{
	if (b->kernel_fd >= 0)
		close(b->kernel_fd);
	for (size_t i = 0; i < b->n_initrds; i++)
		close(b->initrd_fds[i]);
	kexec_blob_free(&b->kernel);
	kexec_blob_free(&b->initrd);
}

/* Each file in turn: fetched when it is on a network root, then opened. */
static int boot_open_all(const struct entry *e, const struct boot_opts *o,
			 struct boot_files *b, char *err, size_t errlen)
{
	char why[192] = "";
	const struct fs_progress cb = {o->fetch, o->progress_data, why,
				       sizeof(why)};
	int rc;

	if (e->n_initrds > BOOT_INITRD_MAX) {
		snprintf(err, errlen, "%zu initrds: at most %d are supported",
			 e->n_initrds, BOOT_INITRD_MAX);
		return -E2BIG;
	}
	rc = boot_open(&e->kernel, "kernel", &cb, &b->kernel_fd, err, errlen);
	for (size_t i = 0; !rc && i < e->n_initrds; i++) {
		rc = boot_open(&e->initrds[i], "initrd", &cb, &b->initrd_fds[i],
			       err, errlen);
		if (!rc)
			b->n_initrds++;
	}
	return rc;
}

static int boot_read_all(const struct entry *e, const struct boot_opts *o,
			 struct boot_files *b, char *err, size_t errlen)
{
	struct kexec_progress pr = {o->progress, o->progress_data, 0, 0};
	unsigned long long k = 0, i = 0, avail = 0;
	int rc;

	rc = kexec_blob_size(&b->kernel_fd, 1, &k);
	for (size_t n = 0; !rc && n < b->n_initrds; n++)
		rc = kexec_blob_size(&b->initrd_fds[n], 1, &b->initrd_sizes[n]);
	if (!rc && b->n_initrds)
		rc = kexec_blob_size(b->initrd_fds, b->n_initrds, &i);
	pr.total = k + i;
	/* the files are read into memory faulted in at once: past the free
	 * RAM the OOM killer would end bootmenu itself (seen at -m 512 with a
	 * 485 MiB initrd), so refuse first */
	if (!rc)
		rc = kexec_machine_room(NULL, k + i, &avail);
	if (!rc)
		rc = kexec_blob_read(&b->kernel_fd, 1, &pr, &b->kernel);
	if (!rc && b->n_initrds)
		rc = kexec_blob_read(b->initrd_fds, b->n_initrds, &pr,
				     &b->initrd);
	if (rc == -ENOMEM)
		snprintf(err, errlen,
			 "the kernel and initrds of \"%s\" (%llu "
			 "MiB) do not fit in the free RAM (%llu MiB)",
			 e->title ? e->title : e->id, (k + i) >> 20,
			 avail >> 20);
	else if (rc)
		snprintf(err, errlen,
			 "cannot read the kernel or initrds of "
			 "\"%s\": %s",
			 e->title ? e->title : e->id,
			 rc == -EFBIG ? "a file is larger than 2 GiB"
				      : strerror(-rc));
	return rc;
}

/* The views a load takes: for a UKI, the PE's sections. */
struct boot_image {
	struct kexec_blob kernel, initrd;
	char *initrd_owned; /* .initrd + the entry's initrds, when both */
	char cmdline[BOOT_CMDLINE_MAX];
	bool own_cmdline; /* a UKI booted with its own .cmdline */
};

static void uki_cmdline(const char *s, size_t n, char *out, size_t len)
{
	while (n && (s[n - 1] == '\0' || s[n - 1] == '\n' || s[n - 1] == ' '))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

static int boot_uki(const struct entry *e, const struct boot_files *b,
		    struct boot_image *im, char *err, size_t errlen)
{
	const char *pe = b->kernel.buf;
	size_t off, size, ioff, isize;
	int rc = pe_find_section(pe, b->kernel.len, ".linux", &off, &size);

	if (rc) {
		snprintf(err, errlen, "the UKI %s has no usable .linux section",
			 e->kernel.path);
		return -ENOEXEC;
	}
	im->kernel = (struct kexec_blob){pe + off, size};
	if (pe_find_section(pe, b->kernel.len, ".cmdline", &off, &size) == 0) {
		char own[BOOT_CMDLINE_MAX];

		uki_cmdline(pe + off, size, own, sizeof(own));
		if (!e->cmdline[0])
			snprintf(im->cmdline, sizeof(im->cmdline), "%s", own);
		/* the entry's line is the UKI's own (uki.c reads it from
		 * there) unless someone edited it */
		im->own_cmdline = !strcmp(im->cmdline, own);
	}
	if (pe_find_section(pe, b->kernel.len, ".initrd", &ioff, &isize))
		return 0;
	if (!b->initrd.len) {
		im->initrd = (struct kexec_blob){pe + ioff, isize};
		return 0;
	}
	/* the UKI's initrd first, then the entry's, 4-byte aligned */
	size = (isize + 3) & ~(size_t)3;
	im->initrd_owned = calloc(1, size + b->initrd.len);
	if (!im->initrd_owned) {
		snprintf(err, errlen, "out of memory for the initrds");
		return -ENOMEM;
	}
	memcpy(im->initrd_owned, pe + ioff, isize);
	memcpy(im->initrd_owned + size, b->initrd.buf, b->initrd.len);
	im->initrd =
	    (struct kexec_blob){im->initrd_owned, size + b->initrd.len};
	return 0;
}

static void boot_print_entry(const struct entry *e, const struct boot_image *im,
			     FILE *out)
{
	fprintf(out, "entry:    %s (%s)\n", e->title ? e->title : e->id,
		entry_format_name(e->format));
	fprintf(out, "kernel:   %s on %s (%zu bytes%s)\n", e->kernel.path,
		e->kernel.fs->name ? e->kernel.fs->name : "?", im->kernel.len,
		e->format == FMT_UKI ? ", the UKI's .linux" : "");
	for (size_t i = 0; i < e->n_initrds; i++)
		fprintf(out, "initrd %zu: %s on %s\n", i, e->initrds[i].path,
			e->initrds[i].fs->name ? e->initrds[i].fs->name : "?");
}

/* What the measuring step sees: each file as read (kexec_blob_read() put
 * several initrds back to back, each padded to 4 bytes). */
static void boot_read_of(const struct entry *e, const struct boot_files *b,
			 const struct boot_image *im, const struct boot_opts *o,
			 struct boot_read *r)
{
	size_t off = 0;

	*r = (struct boot_read){.e = e,
				.cmdline = im->cmdline,
				.dry_run = o->dry_run,
				.out = o->plan_out};
	r->files[r->n_files++] = (struct boot_read_file){
	    "kernel", e->kernel.path, b->kernel.buf, b->kernel.len};
	for (size_t i = 0; i < b->n_initrds; i++) {
		r->files[r->n_files++] =
		    (struct boot_read_file){"initrd", e->initrds[i].path,
					    (const char *)b->initrd.buf + off,
					    (size_t)b->initrd_sizes[i]};
		off += (size_t)((b->initrd_sizes[i] + 3) & ~3ull);
	}
	if (e->format == FMT_UKI) {
		r->uki = b->kernel.buf;
		r->uki_len = b->kernel.len;
		r->uki_own_cmdline = im->own_cmdline;
	}
}

/* @more[0..len) after the initrds as they will be loaded: a UKI's
 * .initrd (a view into the PE, or its own copy with the entry's initrds)
 * is copied first. Returns 0 or -ENOMEM. */
static int boot_append(struct boot_files *b, struct boot_image *im,
		       const void *more, size_t len)
{
	int rc;

	if (im->initrd.buf && im->initrd.buf != b->initrd.buf) {
		struct kexec_blob n = {0};

		if ((rc =
			 kexec_blob_append(&n, im->initrd.buf, im->initrd.len)))
			return rc;
		kexec_blob_free(&b->initrd);
		b->initrd = n;
	}
	rc = kexec_blob_append(&b->initrd, more, len);
	if (!rc)
		im->initrd = b->initrd;
	return rc;
}

/* The measuring step, then what it asks to add after the initrds. */
static int boot_measure(const struct entry *e, const struct boot_opts *o,
			struct boot_files *b, struct boot_image *im, char *err,
			size_t errlen)
{
	struct kexec_blob extra = {0};
	struct boot_read r;
	int rc;

	if (!o->measure)
		return 0;
	boot_read_of(e, b, im, o, &r);
	rc = o->measure(o->measure_ctx, &r, &extra, err, errlen);
	if (rc || !extra.len)
		return rc;
	if ((rc = boot_append(b, im, extra.buf, extra.len)))
		return say(err, errlen, rc, "out of memory for the event log");
	return 0;
}

/* What the hand-on step gave (boot/hand_on.h), and where its archive
 * went in the initrds: wiped there once the load is over. */
struct boot_keys {
	struct kexec_blob archive;
	size_t off;
	bool added;
};

/* The hand-on step: before the measuring step, so that the line it
 * measures is the line passed. */
static int boot_hand_on(const struct entry *e, const struct boot_opts *o,
			struct boot_image *im, struct boot_keys *k, char *err,
			size_t errlen)
{
	char add[BOOT_CMDLINE_MAX] = "";
	size_t n = strlen(im->cmdline);
	int rc;

	if (!o->hand_on)
		return 0;
	rc =
	    o->hand_on(o->hand_on_ctx, e,
		       o->dry_run ? (o->plan_out ? o->plan_out : stdout) : NULL,
		       &k->archive, add, sizeof(add), err, errlen);
	if (rc || !add[0])
		return rc;
	if (snprintf(im->cmdline + n, sizeof(im->cmdline) - n, "%s%s",
		     n ? " " : "", add) >= (int)(sizeof(im->cmdline) - n))
		return say(err, errlen, -E2BIG,
			   "the command line has no room for \"%s\"", add);
	im->own_cmdline = false; /* a UKI's .cmdline with words added */
	return 0;
}

/* The hand-on step's archive, last of all: after the event log, which
 * says nothing of it (it is never measured). */
static int boot_hand_on_add(struct boot_files *b, struct boot_image *im,
			    struct boot_keys *k, char *err, size_t errlen)
{
	int rc;

	if (!k->archive.len)
		return 0;
	if ((rc = boot_append(b, im, k->archive.buf, k->archive.len)))
		return say(err, errlen, rc,
			   "out of memory for the LUKS key's archive");
	k->off = b->initrd.len - k->archive.len;
	k->added = true;
	return 0;
}

/* The initrds' copy of the keys, once the kernel has its own. */
static void boot_hand_on_wipe(struct boot_files *b, const struct boot_keys *k)
{
	if (k->added)
		explicit_bzero((char *)b->initrd.buf + k->off, k->archive.len);
}

static enum kexec_syscall boot_syscall(const struct boot_opts *o)
{
	if (o->file_syscall)
		return KEXEC_SYSCALL_FILE;
	return o->kexec_syscall ? KEXEC_SYSCALL_LOAD : KEXEC_SYSCALL_AUTO;
}

/* Whether @rc is the running kernel refusing an image for its signature:
 * the key errors of KEXEC_SIG, or EPERM from a kernel that is locked
 * down (kimage_validate_signature() turns every failed check into EPERM
 * there). */
static bool boot_refused_unsigned(int rc)
{
	switch (-rc) {
	case EKEYREJECTED:
	case ENOKEY:
	case EBADMSG:
	case ENODATA:
		return true;
	case EPERM:
		return kexec_locked_down() && geteuid() == 0;
	}
	return false;
}

/* err[] says why the kernel cannot boot; put the file's name first. */
static void boot_name_file(const struct entry *e, char *err, size_t errlen)
{
	char why[512];

	snprintf(why, sizeof(why), "%s", err);
	snprintf(err, errlen, "the kernel %s cannot boot: %s",
		 e->kernel.path ? e->kernel.path : "?", why);
}

/* A refused load's sentence names the kernel file when the running
 * kernel refused it for what it is (its signature, its format under
 * lockdown). */
static void boot_explain(const struct entry *e, int rc, char *err,
			 size_t errlen)
{
	if (boot_refused_unsigned(rc))
		snprintf(err, errlen,
			 "the kernel %s is not signed by a key this machine "
			 "trusts: under Secure Boot (lockdown) only a signed "
			 "kernel boots (kexec_file_load: %s)",
			 e->kernel.path ? e->kernel.path : "?", strerror(-rc));
	else if (rc == -ENOEXEC && kexec_locked_down())
		boot_name_file(e, err, errlen);
}

/* A multiboot entry's files: the kernel, then each module in its own
 * buffer. */
struct boot_mb {
	struct kexec_blob kernel;
	struct kexec_mb_module mods[KEXEC_MB_MODULES_MAX];
	bool nounzip[KEXEC_MB_MODULES_MAX];
	size_t n;
};

static void boot_mb_free(struct boot_mb *mb)
{
	kexec_blob_free(&mb->kernel);
	for (size_t i = 0; i < mb->n; i++)
		kexec_blob_free(&mb->mods[i].blob);
}

/* Read the open @fd whole into @out, counting into @pr. */
static int boot_mb_file(const int *fd, const struct entry_file *f,
			const char *what, struct kexec_progress *pr,
			struct kexec_blob *out, char *err, size_t errlen)
{
	int rc = kexec_blob_read(fd, 1, pr, out);

	if (rc)
		snprintf(err, errlen, "cannot read the %s %s: %s", what,
			 f->path, strerror(-rc));
	return rc;
}

/* Every file opened first (fetched when on a network root), then their
 * sizes summed: all of them must fit in the free RAM together, as
 * boot_read_all() asks of a kernel and its initrds, and the loading bar
 * knows its total before the first byte. Then each is read into its own
 * buffer. */
static int boot_mb_read(const struct entry *e, const struct boot_opts *o,
			struct boot_mb *mb, char *err, size_t errlen)
{
	struct kexec_progress pr = {o->progress, o->progress_data, 0, 0};
	char why[192] = "";
	const struct fs_progress cb = {o->fetch, o->progress_data, why,
				       sizeof(why)};
	int fds[1 + KEXEC_MB_MODULES_MAX];
	unsigned long long avail = 0;
	size_t n = 0;
	int rc;

	if (e->n_modules > KEXEC_MB_MODULES_MAX)
		return say(err, errlen, -E2BIG,
			   "%zu modules: at most %d are supported",
			   e->n_modules, KEXEC_MB_MODULES_MAX);
	rc = boot_open(&e->kernel, "kernel", &cb, &fds[n], err, errlen);
	n += rc == 0;
	for (size_t i = 0; !rc && i < e->n_modules; i++) {
		rc = boot_open(&e->modules[i], "module", &cb, &fds[n], err,
			       errlen);
		n += rc == 0;
	}
	for (size_t i = 0; !rc && i < n; i++) {
		unsigned long long size = 0;

		rc = kexec_blob_size(&fds[i], 1, &size);
		pr.total += size;
	}
	if (!rc && (rc = kexec_machine_room(NULL, pr.total, &avail)))
		snprintf(err, errlen,
			 "the kernel and modules of \"%s\" (%llu MiB) do not "
			 "fit in the free RAM (%llu MiB)",
			 e->title ? e->title : e->id, pr.total >> 20,
			 avail >> 20);
	if (!rc)
		rc = boot_mb_file(&fds[0], &e->kernel, "kernel", &pr,
				  &mb->kernel, err, errlen);
	for (size_t i = 0; !rc && i < e->n_modules; i++) {
		rc = boot_mb_file(&fds[1 + i], &e->modules[i], "module", &pr,
				  &mb->mods[i].blob, err, errlen);
		mb->mods[i].string = e->module_args && e->module_args[i]
					 ? e->module_args[i]
					 : "";
		mb->nounzip[i] = e->module_nounzip && e->module_nounzip[i];
		mb->n += rc == 0;
	}
	for (size_t i = 0; i < n; i++)
		close(fds[i]);
	return rc;
}

/* Xen's real-mode start (video, EDD and e820 through BIOS calls) runs
 * firmware code whose state the kexec'd kernel has long overwritten: it
 * hangs there (seen under SeaBIOS). Xen is told to skip it, with the same
 * words grub.d/20_linux_xen adds where there is no BIOS, unless the
 * entry says either already. Only for a kernel file named xen*, so other
 * multiboot kernels get their line as written. */
static void boot_xen_args(const struct entry *e, char *out, size_t len)
{
	const char *cmd = e->cmdline ? e->cmdline : "";
	const char *base = strrchr(e->kernel.path ? e->kernel.path : "", '/');

	base = base ? base + 1 : e->kernel.path ? e->kernel.path : "";
	if (strncasecmp(base, "xen", 3) || strstr(cmd, "no-real-mode"))
		snprintf(out, len, "%s", cmd);
	else
		snprintf(out, len, "%s%sno-real-mode%s", cmd, *cmd ? " " : "",
			 strstr(cmd, "edd=") ? "" : " edd=off");
}

/* The measuring step for a multiboot entry: the kernel and each module as
 * read, the line and each module's string as passed. What it would add
 * (the event log) has no initrd to go after: it is not handed on. */
static int boot_mb_measure(const struct entry *e, const struct boot_opts *o,
			   const struct boot_mb *mb, const char *cmdline,
			   char *err, size_t errlen)
{
	struct kexec_blob extra = {0};
	const char *strings[KEXEC_MB_MODULES_MAX];
	struct boot_read r = {.e = e,
			      .cmdline = cmdline,
			      .multiboot = true,
			      .mb_strings = strings,
			      .dry_run = o->dry_run,
			      .out = o->plan_out};
	int rc;

	if (!o->measure)
		return 0;
	r.files[r.n_files++] = (struct boot_read_file){
	    "kernel", e->kernel.path, mb->kernel.buf, mb->kernel.len};
	for (size_t i = 0; i < mb->n; i++) {
		strings[i] = mb->mods[i].string;
		r.files[r.n_files++] = (struct boot_read_file){
		    "module", e->modules[i].path, mb->mods[i].blob.buf,
		    mb->mods[i].blob.len};
	}
	rc = o->measure(o->measure_ctx, &r, &extra, err, errlen);
	kexec_blob_free(&extra);
	return rc;
}

/* A multiboot kernel's modules are its own (Xen's dom0 kernel and its
 * initrd): no archive of ours can go after them, so no key goes on. */
static void boot_mb_no_hand_on(const struct entry *e, const struct boot_opts *o)
{
	log_info("boot: \"%s\" is a multiboot kernel: no LUKS key is handed "
		 "on (its modules take no archive of bootmenu's)",
		 e->title ? e->title : e->id);
	if (o->dry_run)
		fprintf(o->plan_out ? o->plan_out : stdout,
			"hand on:  nothing (a multiboot kernel)\n");
}

/* Xen and other multiboot kernels: kexec_load alone (kexec/load.h),
 * measured like the rest. */
static int boot_load_multiboot(const struct entry *e, const struct boot_opts *o,
			       struct boot_loaded *l, char *err, size_t errlen)
{
	struct boot_mb mb = {0};
	struct kexec_request rq;
	enum kexec_syscall used;
	char cmdline[BOOT_CMDLINE_MAX];
	int rc = boot_mb_read(e, o, &mb, err, errlen);

	if (rc)
		goto out;
	boot_xen_args(e, cmdline, sizeof(cmdline));
	if (o->hand_on)
		boot_mb_no_hand_on(e, o);
	if ((rc = boot_mb_measure(e, o, &mb, cmdline, err, errlen)))
		goto out;
	rq = (struct kexec_request){
	    .kernel = mb.kernel,
	    .cmdline = cmdline,
	    .syscall = KEXEC_SYSCALL_LOAD,
	    .dry_run = o->dry_run,
	    .plan_out = o->plan_out ? o->plan_out : stdout,
	    .multiboot = e->multiboot,
	    .mods = mb.mods,
	    .nounzip = mb.nounzip,
	    .n_mods = mb.n,
	};
	if (o->dry_run)
		fprintf(rq.plan_out, "entry:    %s (%s), multiboot%s\n",
			e->title ? e->title : e->id,
			entry_format_name(e->format),
			e->multiboot == 2 ? "2" : "");
	rc = kexec_load_request(&rq, &used, err, errlen);
	if (!rc && !o->dry_run) {
		log_info("boot: loaded \"%s\" (multiboot) with %s",
			 e->title ? e->title : e->id, kexec_syscall_name(used));
		l->ready = true;
		l->syscall = kexec_syscall_name(used);
	}
out:
	boot_mb_free(&mb);
	return rc;
}

static int boot_load_kexec(const struct entry *e, const struct boot_opts *o,
			   struct boot_loaded *l, char *err, size_t errlen)
{
	struct boot_files b = {.kernel_fd = -1};
	struct boot_image im = {0};
	struct kexec_request rq = {0};
	struct boot_keys keys = {0};
	enum kexec_syscall used;
	int rc;

	if (e->multiboot)
		return boot_load_multiboot(e, o, l, err, errlen);
	rc = boot_open_all(e, o, &b, err, errlen);
	if (!rc)
		rc = boot_read_all(e, o, &b, err, errlen);
	if (rc)
		goto out;
	im.kernel = b.kernel;
	im.initrd = b.initrd;
	snprintf(im.cmdline, sizeof(im.cmdline), "%s",
		 e->cmdline ? e->cmdline : "");
	if (e->format == FMT_UKI && (rc = boot_uki(e, &b, &im, err, errlen)))
		goto out;
	if ((rc = boot_hand_on(e, o, &im, &keys, err, errlen)) ||
	    (rc = boot_measure(e, o, &b, &im, err, errlen)) ||
	    (rc = boot_hand_on_add(&b, &im, &keys, err, errlen)))
		goto out;
	rq = (struct kexec_request){
	    .kernel = im.kernel,
	    .initrd = im.initrd,
	    .initrd_secret = keys.added ? keys.archive.len : 0,
	    .cmdline = im.cmdline,
	    .syscall = boot_syscall(o),
	    .dry_run = o->dry_run,
	    .plan_out = o->plan_out ? o->plan_out : stdout,
	};
	if (o->dry_run)
		boot_print_entry(e, &im, rq.plan_out);
	rc = kexec_load_request(&rq, &used, err, errlen);
	boot_explain(e, rc, err, errlen);
	if (!rc && !o->dry_run) {
		log_info("boot: loaded \"%s\" with %s",
			 e->title ? e->title : e->id, kexec_syscall_name(used));
		l->ready = true;
		l->syscall = kexec_syscall_name(used);
	}
out:
	boot_hand_on_wipe(&b, &keys);
	free(im.initrd_owned);
	boot_close(&b);
	return rc;
}

static int boot_load_firmware(const struct entry *e, const struct boot_opts *o,
			      struct boot_loaded *l, char *err, size_t errlen)
{
	struct firmware_opts fo = {.efi_dir = o->efi_dir,
				   .vars = o->efi_vars,
				   .dry_run = o->dry_run,
				   .out = o->plan_out};
	int rc = firmware_load(e, &fo, &l->fw, err, errlen);

	if (rc < 0 || fo.dry_run)
		return rc;
	log_info("boot: \"%s\" is the firmware's next boot",
		 e->title ? e->title : e->id);
	l->ready = true;
	l->syscall = e->fw_setup ? "OsIndications" : "BootNext";
	return 0;
}

int boot_load_entry(const struct entry *e, const struct boot_opts *o,
		    struct boot_loaded *l, char *err, size_t errlen)
{
	static const struct boot_opts defaults;

	o = o ? o : &defaults;
	*l = (struct boot_loaded){.method = e->method};
	switch (e->method) {
	case ENTRY_KEXEC:
		return boot_load_kexec(e, o, l, err, errlen);
	case ENTRY_FIRMWARE:
		return boot_load_firmware(e, o, l, err, errlen);
	case ENTRY_UNLOCK:
		snprintf(err, errlen,
			 "%s is an encrypted volume to unlock, not a system "
			 "to boot",
			 e->unlock_dev ? e->unlock_dev : "this");
		return -EINVAL;
	}
	snprintf(err, errlen, "this entry's boot method is not known");
	return -EINVAL;
}

void boot_unload(struct boot_loaded *l)
{
	char why[256];

	if (firmware_undo(&l->fw, why, sizeof(why)) < 0)
		log_err("boot: putting back EFI variables: %s", why);
	l->ready = false;
}

/* reboot(2) into what @l loaded; returns only on failure. */
static int boot_leave(const struct boot_loaded *l, void (*unmount)(void *),
		      void *session, char *err, size_t errlen)
{
	int rc;

	if (l->method != ENTRY_FIRMWARE)
		return kexec_jump(unmount, session, err, errlen);
	/* the firmware reads BootNext or OsIndications as it restarts */
	rc = kexec_power(false, unmount, session);
	snprintf(err, errlen, "the restart failed: %s", strerror(-rc));
	return rc;
}

int boot_jump(struct boot_loaded *l, const struct boot_opts *o)
{
	static const struct boot_opts defaults;
	char err[256] = "";
	int rc;

	o = o ? o : &defaults;
	if (!l->ready) {
		log_err("boot: nothing is loaded to jump to");
		return -EINVAL;
	}
	l->ready = false;
	/* the point of no return, when the jump works */
	rc = boot_leave(l, o->unmount, o->session, err, sizeof(err));
	log_err("boot: %s", err[0] ? err : strerror(-rc));
	boot_unload(l); /* a failed restart puts the variables back */
	return rc;
}

int boot_power(bool off, void (*unmount_all)(void *), void *ctx)
{
	return kexec_power(off, unmount_all, ctx);
}
