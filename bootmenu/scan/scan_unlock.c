/* scan_unlock.c - scan_unlock(): a locked LUKS device opened with a
 * passphrase, its data mapped read-only through dm-crypt, and the volume
 * made a record of the scan that is probed and mounted like any other.
 *
 * The slow part (the keyslot's KDF) runs in the caller's thread without
 * s->lock; the record is looked up before it and again after it (the
 * device may have gone meanwhile). The volume key lives in this file's
 * stack frames only and is wiped on every path, as is the table line that
 * carries it to the kernel. Nothing is written to the device.
 */
#include "scan/scan_int.h"
#include "util/log.h"
#include "util/say.h"
#include "vol/dm.h"
#include "vol/luks.h"
#include "vol/map.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define UNLOCK_LINE_MAX 1024 /* a table line with a 512-bit key in hex */

/* What is copied out of the locked device's record, under the lock. */
struct unlock_dev {
	char name[PROBE_NAME_MAX];
	char devnode[PROBE_PATH_MAX];
	unsigned major, minor;
	uint64_t size;
};

/* The volume made: its name, dm-crypt device and size. */
struct unlock_vol {
	char name[48]; /* "luks-<uuid>" */
	char dev[PROBE_PATH_MAX];
	uint64_t size;
};

/* The record of @name as it stands now, copied into @d. */
static int unlock_find(struct scan *s, const char *name, struct unlock_dev *d,
		       char *err, size_t errlen)
{
	struct scan_rec *r;
	int rc = 0;

	pthread_mutex_lock(&s->lock);
	r = scan_rec_find(s, name);
	if (!r || r->removed)
		rc = say(err, errlen, -ENOENT, "there is no device %s", name);
	else if (r->pub.unlocked_as[0])
		rc =
		    say(err, errlen, -EALREADY, "%s is unlocked already, as %s",
			name, r->pub.unlocked_as);
	else if (r->pub.state != SCAN_DEV_LOCKED)
		rc = say(err, errlen, -ENOENT, "%s is not a locked LUKS device",
			 name);
	if (rc == 0) {
		snprintf(d->name, sizeof(d->name), "%s", r->pub.name);
		/* a volume's (LUKS on LVM): its loop or dm device */
		snprintf(d->devnode, sizeof(d->devnode), "%s",
			 r->vol ? r->vol->map_dev : r->sys.devnode);
		d->major = r->sys.major;
		d->minor = r->sys.minor;
		d->size = r->pub.size; /* a volume's too */
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/* The volume key of @h from @u's passphrase into key[0..*len). */
static int unlock_key(const struct luks_hdr *h, int fd,
		      const struct scan_unlock *u, uint8_t *key, size_t cap,
		      size_t *len, char *err, size_t errlen)
{
	struct luks_unlock lu = {
	    .pass = u->pass,
	    .pass_len = u->pass_len,
	    .slot = u->slot,
	    .mem_max_kib = scan_luks_mem_max_kib(),
	    .progress = u->progress,
	    .progress_ctx = u->progress_ctx,
	};

	return luks_unlock(h, luks_fd_read, &fd, &lu, key, cap, len, NULL, err,
			   errlen);
}

/* The key made the dm-crypt table line, mapped as @v. */
static int unlock_map(const struct luks_hdr *h, const struct unlock_dev *d,
		      const uint8_t *key, size_t key_len, struct unlock_vol *v,
		      char *err, size_t errlen)
{
	char line[UNLOCK_LINE_MAX], devno[32];
	unsigned long long sectors = 0;
	int rc;

	/* the device by number (dm-crypt.rst: <device> is a path or
	 * major:minor); sysfs's when the node is no block device (a test's
	 * image file) */
	snprintf(devno, sizeof(devno), "%u:%u", d->major, d->minor);
	rc = luks_dm_table(h, key, key_len, devno, line, sizeof(line), err,
			   errlen);
	if (rc == 0 && sscanf(line, "0 %llu ", &sectors) != 1)
		rc = say(err, errlen, -EINVAL,
			 "the table for %s is not "
			 "understood",
			 d->name);
	if (rc == 0)
		rc = vol_map_crypt(v->name, line, v->dev, sizeof(v->dev), err,
				   errlen);
	explicit_bzero(line, sizeof(line));
	v->size = (uint64_t)sectors * 512;
	return rc;
}

/* @d's number from its node when that is a block device (the record's
 * from sysfs otherwise: a test's image file), its size from the device
 * when the record has none. */
static void unlock_facts(int fd, struct unlock_dev *d)
{
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode)) {
		d->major = major(st.st_rdev);
		d->minor = minor(st.st_rdev);
	}
	if (!d->size) {
		off_t end = lseek(fd, 0, SEEK_END);

		d->size = end > 0 ? (uint64_t)end : 0;
	}
}

/* Header, cipher, key, mapping: the work without the scan's lock. */
static int unlock_open(struct unlock_dev *d, const struct scan_unlock *u,
		       struct luks_hdr *h, struct unlock_vol *v, char *err,
		       size_t errlen)
{
	uint8_t key[LUKS_KEY_MAX];
	size_t key_len = 0;
	int fd = open(d->devnode, O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return say(err, errlen, -errno, "cannot open %s: %s",
			   d->devnode, strerror(errno));
	unlock_facts(fd, d);
	rc = luks_read(luks_fd_read, &fd, d->size, h, err, errlen);
	if (rc == 0)
		rc = vol_dm_crypt_check(h->cipher, h->mode, err, errlen);
	if (rc == 0)
		rc = unlock_key(h, fd, u, key, sizeof(key), &key_len, err,
				errlen);
	close(fd);
	/* no usable UUID (luks.h): the device's name stands in */
	snprintf(v->name, sizeof(v->name), "luks-%s",
		 h->uuid[0] ? h->uuid : d->name);
	if (rc == 0)
		rc = unlock_map(h, d, key, key_len, v, err, errlen);
	explicit_bzero(key, sizeof(key));
	return rc;
}

/* The mapping @v becomes the volume's record, unless @d went away or
 * changed during the KDF. */
static int unlock_record(struct scan *s, const struct unlock_dev *d,
			 const struct unlock_vol *v, char *err, size_t errlen)
{
	struct scan_rec *r;
	int rc;

	pthread_mutex_lock(&s->lock);
	r = scan_rec_find(s, d->name);
	if (!r || r->removed || r->pub.state != SCAN_DEV_LOCKED || s->frozen ||
	    s->stop)
		rc = say(err, errlen, -ENODEV,
			 "%s went away while it was being unlocked", d->name);
	else
		rc = scan_rec_luks_add(s, r, v->name, v->dev, v->size, err,
				       errlen);
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int scan_unlock(struct scan *s, const char *name, const struct scan_unlock *u,
		char *err, size_t errlen)
{
	struct unlock_dev d;
	struct unlock_vol v = {.name = ""};
	struct luks_hdr *h;
	int rc = unlock_find(s, name, &d, err, errlen);

	if (rc < 0)
		return rc;
	h = calloc(1, sizeof(*h));
	if (!h)
		return say(err, errlen, -ENOMEM, "out of memory to unlock %s",
			   name);
	rc = unlock_open(&d, u, h, &v, err, errlen);
	luks_free(h);
	free(h);
	if (rc < 0)
		return rc;
	rc = unlock_record(s, &d, &v, err, errlen);
	if (rc < 0) {
		vol_unmap_crypt(v.dev);
		return rc;
	}
	log_info("scan: %s unlocked as %s (%s)", name, v.name, v.dev);
	return 0;
}
