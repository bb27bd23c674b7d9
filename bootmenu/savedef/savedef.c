/* savedef.c - the saved default: grubenv's saved_entry or a state file,
 * written with a temporary file, fsync, rename and a directory fsync on a
 * filesystem made writable only for that (scan/remount.h). */
#include "savedef/savedef.h"
#include "cfg/grub_env.h"
#include "conf/conf.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "scan/remount.h"
#include "session/session.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where GRUB keeps its environment block: /boot/grub on a root or /boot
 * filesystem, /grub on a separate /boot. */
static const char *const env_paths[] = {"/boot/grub/grubenv", "/grub/grubenv"};

/* One write, described before anything is made writable. */
struct sd_job {
	const char *device, *fstype, *mountpoint; /* device NULL: a directory */
	bool casefold;
	const char *envpath; /* the grubenv, or NULL: the state file */
	const char *var;     /* grubenv variable */
	const char *value;   /* what it is set to / the state file's id */
	bool only_if_set;    /* clear_once: leave an empty or absent var be */
};

/* ---- grubenv block, in memory */

static bool env_name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(*s == '_' || *s == '.' || *s == '-' ||
		      (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

/* The end of the line at buf[i] (at its '\n' or at @len); a backslash
 * escapes the byte after it (grub-core/lib/envblk.c). */
static size_t env_line_end(const char *buf, size_t len, size_t i)
{
	while (i < len && buf[i] != '\n')
		i += (buf[i] == '\\' && i + 1 < len) ? 2 : 1;
	return i < len ? i : len;
}

static bool env_line_is(const char *l, size_t n, const char *name)
{
	size_t k = strlen(name);

	return n > k && !memcmp(l, name, k) && l[k] == '=';
}

static bool env_padding(const char *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (l[i] != '#')
			return false;
	return true;
}

/* Append "name=value\n" with GRUB's escapes to out[*o..cap). */
static int env_put_var(char *out, size_t cap, size_t *o, const char *name,
		       const char *value)
{
	size_t k = strlen(name);

	if (*o > cap || k + 1 > cap - *o)
		return -ENOSPC;
	memcpy(out + *o, name, k);
	*o += k;
	out[(*o)++] = '=';
	for (const char *p = value; *p; p++) {
		bool esc = *p == '\\' || *p == '\n';

		if ((size_t)esc + 1 > cap - *o)
			return -ENOSPC;
		if (esc)
			out[(*o)++] = '\\';
		out[(*o)++] = *p;
	}
	if (*o >= cap)
		return -ENOSPC;
	out[(*o)++] = '\n';
	return 0;
}

static int env_rebuild(const char *buf, size_t len, char *out, const char *name,
		       const char *value)
{
	size_t sig = strlen(GRUB_ENV_SIGNATURE), o = sig, i = sig;
	bool done = false;
	int rc;

	memcpy(out, buf, sig);
	while (i < len) {
		size_t end = env_line_end(buf, len, i), n = end - i;

		if (n && !env_padding(buf + i, n)) {
			if (!env_line_is(buf + i, n, name)) {
				if (n + 1 > len - o)
					return -ENOSPC;
				memcpy(out + o, buf + i, n);
				o += n;
				out[o++] = '\n';
			} else if (!done) {
				rc = env_put_var(out, len, &o, name, value);
				if (rc < 0)
					return rc;
				done = true;
			}
		}
		i = end + 1;
	}
	if (!done && (rc = env_put_var(out, len, &o, name, value)) < 0)
		return rc;
	memset(out + o, '#', len - o);
	return 0;
}

int savedef_env_set(char *buf, size_t len, const char *name, const char *value)
{
	size_t sig = strlen(GRUB_ENV_SIGNATURE);
	char *out;
	int rc;

	if (len < sig || len > GRUB_ENV_MAX ||
	    memcmp(buf, GRUB_ENV_SIGNATURE, sig) || !env_name_ok(name))
		return -EINVAL;
	out = malloc(len);
	if (!out)
		return -ENOMEM;
	rc = env_rebuild(buf, len, out, name, value);
	if (rc == 0)
		memcpy(buf, out, len);
	free(out);
	return rc;
}

struct env_find {
	const char *name;
	char *out;
	size_t outlen;
	int rc;
};

static int env_find_fn(void *data, const char *name, const char *value)
{
	struct env_find *f = data;

	if (strcmp(name, f->name))
		return 0;
	f->rc = strlen(value) < f->outlen ? 1 : -ENAMETOOLONG;
	if (f->rc == 1)
		strcpy(f->out, value);
	return 1;
}

int savedef_env_get(const char *buf, size_t len, const char *name, char *out,
		    size_t outlen)
{
	struct env_find f = {name, out, outlen, 0};
	int rc;

	if (outlen)
		out[0] = '\0';
	rc = grub_env_parse(buf, len, env_find_fn, &f);
	if (rc < 0)
		return rc == -EFBIG ? -EINVAL : rc;
	return f.rc;
}

/* ---- the state file */

/* One sector, always the same size, so that on FAT it can be rewritten
 * in place (see write_in_place()). */
int savedef_state_format(const char *id, char *out, size_t len)
{
	size_t n = strlen(id);

	if (!n || strchr(id, '\n') || strchr(id, '\r'))
		return -EINVAL;
	if (n + 2 > SAVEDEF_STATE_SIZE || len < SAVEDEF_STATE_SIZE + 1)
		return -ENAMETOOLONG;
	memcpy(out, id, n);
	out[n] = '\n';
	memset(out + n + 1, '#', SAVEDEF_STATE_SIZE - n - 2);
	out[SAVEDEF_STATE_SIZE - 1] = '\n';
	out[SAVEDEF_STATE_SIZE] = '\0';
	return SAVEDEF_STATE_SIZE;
}

int savedef_state_parse(const char *buf, size_t len, char *id, size_t idlen)
{
	size_t n = 0;

	while (n < len && buf[n] != '\n' && buf[n] != '\0')
		n++;
	if (n && buf[n - 1] == '\r')
		n--;
	if (n >= idlen)
		return -ENAMETOOLONG;
	memcpy(id, buf, n);
	id[n] = '\0';
	return 0;
}

/* ---- which entry, which filesystem */

int savedef_value(const struct entry *e, char *out, size_t len)
{
	int n;

	if (!e->id || !*e->id)
		return -EINVAL;
	if (e->format == FMT_GRUB && e->group && *e->group)
		n = snprintf(out, len, "%s>%s", e->group, e->id);
	else
		n = snprintf(out, len, "%s", e->id);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static bool same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

const struct entry *savedef_find(const struct entry_list *l, const char *v)
{
	const char *gt = v ? strrchr(v, '>') : NULL;
	const struct entry *e;

	if (!v || !*v)
		return NULL;
	for (e = l->head; e; e = e->next)
		if (same(e->id, v))
			return e;
	for (e = l->head; gt && e; e = e->next)
		if (e->group && strlen(e->group) == (size_t)(gt - v) &&
		    !strncmp(e->group, v, (size_t)(gt - v)) &&
		    (same(e->id, gt + 1) || same(e->title, gt + 1)))
			return e;
	for (e = l->head; e; e = e->next)
		if (!e->group && same(e->title, v))
			return e;
	return NULL;
}

static bool fs_named(const struct fs_root *fs, const char *name)
{
	const char *base = fs->device ? strrchr(fs->device, '/') : NULL;

	return same(fs->name, name) || (base && same(base + 1, name));
}

static const char *env_path_of(const struct fs_root *fs)
{
	for (size_t i = 0; i < sizeof(env_paths) / sizeof(env_paths[0]); i++)
		if (fs->root_fd >= 0 && fs_is_file(fs, env_paths[i]))
			return env_paths[i];
	return NULL;
}

const struct fs_root *savedef_target(const struct session *s,
				     const struct conf *c, const char **envpath,
				     char *err, size_t errlen)
{
	const struct fs_root *fs = NULL;

	if (*c->save_on) {
		fs = fs_find(c->save_on, s->fss, s->n_fss);
		for (size_t i = 0; !fs && i < s->n_fss; i++)
			if (fs_named(s->fss[i], c->save_on))
				fs = s->fss[i];
		if (!fs)
			snprintf(err, errlen,
				 "save_default_on = %s: no such "
				 "filesystem was found",
				 c->save_on);
	} else {
		for (size_t i = 0; !fs && i < s->n_fss; i++)
			if (env_path_of(s->fss[i]))
				fs = s->fss[i];
		if (!fs)
			snprintf(err, errlen,
				 "no filesystem has a grubenv: set "
				 "save_default_on in bootmenu.conf");
	}
	if (fs && envpath)
		*envpath = env_path_of(fs);
	return fs;
}

/* ---- the careful write */

/* @name replaced by a new file holding buf[0..n): a temporary file,
 * fsync, rename over, fsync of the directory. 8.3 names on purpose: a
 * FAT directory then changes in one entry, not in a long-name chain. */
static int replace_file(int dfd, const char *name, const char *buf, size_t n,
			char *err, size_t errlen)
{
	char tmp[64];
	struct stat st;
	int fd, rc = 0;

	snprintf(tmp, sizeof(tmp), "%s.new", name);
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s is not a regular file: not replaced",
			 name);
		return -EINVAL;
	}
	/* a temporary file a power cut left behind */
	if (fstatat(dfd, tmp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    (!S_ISREG(st.st_mode) || unlinkat(dfd, tmp, 0) < 0)) {
		snprintf(err, errlen, "cannot remove the old %s", tmp);
		return -EEXIST;
	}
	fd = openat(dfd, tmp,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot create %s: %s", tmp,
			 strerror(errno));
		return rc;
	}
	for (size_t off = 0; off < n && !rc;) {
		ssize_t w = write(fd, buf + off, n - off);

		if (w < 0 && errno != EINTR)
			rc = -errno;
		off += w > 0 ? (size_t)w : 0;
	}
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (rc) {
		snprintf(err, errlen, "cannot write %s: %s", tmp,
			 strerror(-rc));
		unlinkat(dfd, tmp, 0);
		return rc;
	}
	if (renameat(dfd, tmp, dfd, name) < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot rename %s to %s: %s", tmp, name,
			 strerror(errno));
		unlinkat(dfd, tmp, 0);
		return rc;
	}
	if (fsync(dfd) < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot sync the directory of %s: %s",
			 name, strerror(errno));
	}
	return rc;
}

/* Without a journal a rename is not atomic on disk: on FAT a power cut
 * between its steps left a lost cluster (tests/e2e/test_savedef.py,
 * "Reclaimed 1 unused cluster"), on an ext4 written without its journal
 * e2fsck errors (see sd_run()). A file that already has the new size is
 * therefore rewritten where it is, allocating nothing: the state file is
 * one 512-byte sector and a grubenv keeps its size, which is how GRUB's
 * own save_env writes it. 1 when done, 0 when the file is not there with
 * that size. */
static int write_in_place(int dfd, const char *name, const char *buf, size_t n,
			  char *err, size_t errlen)
{
	struct stat st;
	ssize_t w;
	int fd, rc = 0;

	/* a hole would be allocated by the write: not in place then */
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISREG(st.st_mode) || (size_t)st.st_size != n ||
	    (size_t)st.st_blocks * 512 < n)
		return 0;
	fd = openat(dfd, name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot open %s: %s", name,
			 strerror(errno));
		return rc;
	}
	do
		w = pwrite(fd, buf, n, 0);
	while (w < 0 && errno == EINTR);
	if (w < 0 || (size_t)w != n)
		rc = w < 0 ? -errno : -EIO;
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (rc) {
		snprintf(err, errlen, "cannot write %s: %s", name,
			 strerror(-rc));
		return rc;
	}
	return 1;
}

/* The directory @dir of the writable tree @t; the state directory is
 * made when missing (and its parent synced). An fd, or -errno. */
static int open_dir(const struct fs_root *t, const char *dir, bool create)
{
	int fd = fs_open_how(t, dir, O_RDONLY | O_DIRECTORY, FS_RESOLVE_AUTO);

	if (fd != -ENOENT || !create)
		return fd;
	if (mkdirat(t->root_fd, dir + 1, 0755) < 0 && errno != EEXIST)
		return -errno;
	if (fsync(t->root_fd) < 0)
		return -errno;
	return fs_open_how(t, dir, O_RDONLY | O_DIRECTORY, FS_RESOLVE_AUTO);
}

/* The new grubenv block into *buf (malloc'd), or 1 when nothing changes. */
static int new_env(const struct sd_job *j, const struct fs_root *t, char **buf,
		   size_t *len, char *err, size_t errlen)
{
	char cur[SAVEDEF_VALUE_MAX];
	int rc = fs_read_file(t, j->envpath, GRUB_ENV_MAX, buf, len);

	if (rc < 0) {
		snprintf(err, errlen, "cannot read %s: %s", j->envpath,
			 strerror(-rc));
		return rc;
	}
	rc = savedef_env_get(*buf, *len, j->var, cur, sizeof(cur));
	if (rc == -EINVAL) {
		snprintf(err, errlen,
			 "%s is not a GRUB environment block: not "
			 "written",
			 j->envpath);
		return rc;
	}
	if ((j->only_if_set && !cur[0]) || (rc == 1 && !strcmp(cur, j->value)))
		return 1;
	rc = savedef_env_set(*buf, *len, j->var, j->value);
	if (rc == -ENOSPC)
		snprintf(err, errlen,
			 "%s has no room for %s (it keeps its %zu "
			 "bytes): not written",
			 j->envpath, j->var, *len);
	else if (rc < 0)
		snprintf(err, errlen, "%s: %s", j->envpath, strerror(-rc));
	return rc;
}

/* The new state file into *buf, or 1 when it already says so. */
static int new_state(const struct sd_job *j, const struct fs_root *t,
		     char **buf, size_t *len, char *err, size_t errlen)
{
	char *old = NULL;
	size_t oldlen = 0;
	int n;

	*buf = malloc(SAVEDEF_STATE_SIZE + 1);
	if (!*buf)
		return -ENOMEM;
	n = savedef_state_format(j->value, *buf, SAVEDEF_STATE_SIZE + 1);
	if (n < 0) {
		snprintf(err, errlen, "entry id \"%s\" cannot be saved",
			 j->value);
		return n;
	}
	*len = (size_t)n;
	if (fs_read_file(t, SAVEDEF_STATE_DIR "/" SAVEDEF_STATE_NAME, 4096,
			 &old, &oldlen) == 0 &&
	    oldlen == *len && !memcmp(old, *buf, oldlen)) {
		free(old);
		return 1;
	}
	free(old);
	return 0;
}

/* @in_place: try write_in_place() before the rename. */
static int sd_write(const struct sd_job *j, const char *top, bool in_place,
		    char *err, size_t errlen)
{
	struct fs_root t = {.name = "rw", .casefold = j->casefold};
	char dir[FS_PATH_MAX];
	const char *name;
	char *buf = NULL;
	size_t len = 0;
	int rc, dfd;

	t.root_fd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t.root_fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot open %s: %s", top,
			 strerror(errno));
		return rc;
	}
	if (j->envpath) {
		rc = new_env(j, &t, &buf, &len, err, errlen);
		snprintf(dir, sizeof(dir), "%.*s",
			 (int)(strrchr(j->envpath, '/') - j->envpath),
			 j->envpath);
		name = strrchr(j->envpath, '/') + 1;
	} else {
		rc = new_state(j, &t, &buf, &len, err, errlen);
		snprintf(dir, sizeof(dir), "%s", SAVEDEF_STATE_DIR);
		name = SAVEDEF_STATE_NAME;
	}
	if (rc == 0) {
		dfd = open_dir(&t, dir, !j->envpath);
		if (dfd < 0) {
			rc = dfd;
			snprintf(err, errlen, "cannot open %s: %s", dir,
				 strerror(-dfd));
		} else {
			if (in_place)
				rc = write_in_place(dfd, name, buf, len, err,
						    errlen);
			if (rc == 0)
				rc = replace_file(dfd, name, buf, len, err,
						  errlen);
			close(dfd);
		}
	}
	free(buf);
	close(t.root_fd);
	return rc < 0 ? rc : 0;
}

/* Make the filesystem writable, write, make it read-only again. The
 * first failure's sentence is the one the user sees. */
static int sd_run(const struct sd_job *j, char *err, size_t errlen)
{
	struct remount rw = {0};
	char err2[256];
	const char *top = j->mountpoint;
	int rc, rc2;

	if (j->device) {
		rc = remount_rw(&rw, j->device, j->fstype, j->mountpoint, err,
				errlen);
		if (rc < 0)
			return rc;
		top = rw.dir;
	}
	/* No journal under the write: FAT, or an ext4 whose scan mount
	 * (noload) was remounted. A rename there changes the directory,
	 * the inode and block bitmaps one after the other, and a power cut
	 * between them left e2fsck errors and once an unreadable grubenv
	 * (measured in QEMU through the menu's `d`); an overwrite in place
	 * touches only the file's own block. */
	rc = sd_write(j, top,
		      (j->fstype && !strcmp(j->fstype, "vfat")) ||
			  (j->device && !rw.fresh),
		      err, errlen);
	rc2 = remount_ro(&rw, err2, sizeof(err2));
	if (rc2 < 0 && !rc)
		snprintf(err, errlen, "%s", err2);
	return rc ? rc : rc2;
}

/* A volume the scan mapped (LVM, md) is read through a read-only loop
 * device over its members: writing there would mean writing to member
 * devices bootmenu does not manage, so it is never done. */
static int refuse_volume(const struct fs_root *fs, char *err, size_t errlen)
{
	snprintf(err, errlen,
		 "%s is a logical volume or RAID mirror, which bootmenu only "
		 "reads: the default is not saved there",
		 fs->name);
	return -EROFS;
}

/* The job for saving @e; its strings live in the scan's arena or @val. */
static int save_job(const struct session *s, const struct conf *c,
		    const struct entry *e, struct sd_job *j, char *val,
		    char *err, size_t errlen)
{
	const struct fs_root *fs;

	if (errlen)
		err[0] = '\0';
	if (!c->save_default) {
		snprintf(err, errlen,
			 "saving a default is off in bootmenu.conf "
			 "(save_default = no)");
		return -EPERM;
	}
	if (e->disabled) {
		snprintf(err, errlen, "\"%s\" cannot be booted (%s): not saved",
			 e->title ? e->title : e->id, e->disabled);
		return -EINVAL;
	}
	if (e->method == ENTRY_UNLOCK) { /* never a default (entry.h) */
		snprintf(err, errlen,
			 "%s is an encrypted volume to unlock, not a system "
			 "to boot: not saved",
			 e->unlock_dev ? e->unlock_dev : "this");
		return -EINVAL;
	}
	fs = savedef_target(s, c, &j->envpath, err, errlen);
	if (!fs)
		return -ENOENT;
	if (fs->volume)
		return refuse_volume(fs, err, errlen);
	if (fs->device && !remount_supported(fs->fstype)) {
		snprintf(err, errlen,
			 "%s: %s filesystems are not written (ext4 and "
			 "vfat are)",
			 fs->name, fs->fstype ? fs->fstype : "unknown");
		return -EOPNOTSUPP;
	}
	if (j->envpath ? savedef_value(e, val, SAVEDEF_VALUE_MAX)
		       : snprintf(val, SAVEDEF_VALUE_MAX, "%s", e->id) >=
			     SAVEDEF_VALUE_MAX) {
		snprintf(err, errlen, "the entry's id is too long to save");
		return -ENAMETOOLONG;
	}
	j->device = fs->device;
	j->fstype = fs->fstype;
	j->mountpoint = fs->mountpoint;
	j->casefold = fs->casefold;
	j->var = "saved_entry";
	j->value = val;
	return 0;
}

int savedef_save(struct session *s, const struct conf *c, const struct entry *e,
		 char *err, size_t errlen)
{
	struct sd_job j = {0};
	char val[SAVEDEF_VALUE_MAX];
	int rc = save_job(s, c, e, &j, val, err, errlen);

	return rc < 0 ? rc : sd_run(&j, err, errlen);
}

int savedef_save_detached(struct session *s, const struct conf *c,
			  const struct entry *e, char *err, size_t errlen)
{
	struct sd_job j = {0};
	char val[SAVEDEF_VALUE_MAX];
	int rc = save_job(s, c, e, &j, val, err, errlen);

	if (rc < 0)
		return rc;
	if (j.device) {
		/* the strings stay in the scan's arena until session_free() */
		session_unmount(s);
		j.mountpoint = NULL;
	}
	return sd_run(&j, err, errlen);
}

int savedef_save_cli(struct session *s, const struct conf *c,
		     const struct entry *e)
{
	char err[256];

	if (savedef_save_detached(s, c, e, err, sizeof(err)) < 0) {
		fprintf(stderr,
			"bootmenu: \"%s\" not saved as the default: %s\n",
			e->title, err);
		return 1;
	}
	printf("bootmenu: saved \"%s\" (%s) as the default\n", e->title, e->id);
	return 0;
}

int savedef_clear_once(struct session *s, const struct conf *c, char *err,
		       size_t errlen)
{
	struct sd_job j = {
	    .var = "next_entry", .value = "", .only_if_set = true};
	const struct fs_root *fs;
	char cur[SAVEDEF_VALUE_MAX] = "", *buf;
	size_t len;

	if (errlen)
		err[0] = '\0';
	if (!c->save_default)
		return 0;
	fs = savedef_target(s, c, &j.envpath, err, errlen);
	if (!fs || !j.envpath)
		return 0;
	/* look first through the read-only mount: nothing to clear, no write */
	if (fs_read_file(fs, j.envpath, GRUB_ENV_MAX, &buf, &len) == 0) {
		savedef_env_get(buf, len, "next_entry", cur, sizeof(cur));
		free(buf);
	}
	if (!cur[0])
		return 0;
	if (fs->volume)
		return refuse_volume(fs, err, errlen);
	if (fs->device && !remount_supported(fs->fstype)) {
		snprintf(err, errlen, "%s: %s filesystems are not written",
			 fs->name, fs->fstype ? fs->fstype : "unknown");
		return -EOPNOTSUPP;
	}
	j.device = fs->device;
	j.fstype = fs->fstype;
	j.mountpoint = fs->mountpoint;
	j.casefold = fs->casefold;
	return sd_run(&j, err, errlen);
}

int savedef_load(const struct session *s, const struct conf *c, char *id,
		 size_t len)
{
	const struct fs_root *fs;
	const struct entry *e;
	const char *envpath = NULL;
	char v[SAVEDEF_VALUE_MAX] = "", err[256], *buf;
	size_t n;
	int rc;

	if (len)
		id[0] = '\0';
	if (!c->save_default)
		return 0;
	fs = savedef_target(s, c, &envpath, err, sizeof(err));
	if (!fs || fs->root_fd < 0)
		return 0;
	rc = fs_read_file(
	    fs, envpath ? envpath : SAVEDEF_STATE_DIR "/" SAVEDEF_STATE_NAME,
	    envpath ? GRUB_ENV_MAX : 4096, &buf, &n);
	if (rc < 0)
		return rc == -ENOENT ? 0 : rc;
	rc = envpath ? savedef_env_get(buf, n, "saved_entry", v, sizeof(v))
		     : savedef_state_parse(buf, n, v, sizeof(v));
	free(buf);
	if (rc < 0)
		return rc;
	e = savedef_find(&s->list, v);
	if (snprintf(id, len, "%s", e ? e->id : v) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}
