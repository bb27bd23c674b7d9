/* record.c - the list of changes an install made (install_int.h), as
 * text on the ESP: a first line "bootmenu-install 1", then one change a
 * line, in the order made:
 *   dir PATH | new PATH | backup PATH | boot XXXX | order XXXX POS
 * (paths relative to the ESP's root, XXXX the hex option number, POS its
 * place in BootOrder before, -1 for none). */
#include "install/install_int.h"
#include "util/say.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REC_MAGIC "bootmenu-install 1"

static const char *const rec_words[] = {
    [REC_DIR] = "dir",	 [REC_NEW] = "new",	[REC_BACKUP] = "backup",
    [REC_BOOT] = "boot", [REC_ORDER] = "order",
};

static bool rec_is_var(enum rec_kind k)
{
	return k == REC_BOOT || k == REC_ORDER;
}

bool rec_has(const struct record *r, enum rec_kind kind, const char *path,
	     uint16_t num)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->it[i].kind == kind &&
		    (rec_is_var(kind) ? r->it[i].num == num
				      : !strcmp(r->it[i].path, path)))
			return true;
	return false;
}

int rec_add(struct record *r, enum rec_kind kind, const char *path,
	    uint16_t num, int pos)
{
	struct rec_item *it;

	if (r->n == REC_MAX)
		return -E2BIG;
	it = &r->it[r->n++];
	*it = (struct rec_item){.kind = kind, .num = num, .pos = pos};
	snprintf(it->path, sizeof(it->path), "%s", path ? path : "");
	return 0;
}

static int rec_line(const struct rec_item *it, char *buf, size_t cap)
{
	const char *w = rec_words[it->kind];

	if (it->kind == REC_ORDER)
		return snprintf(buf, cap, "%s %04X %d\n", w, it->num, it->pos);
	if (it->kind == REC_BOOT)
		return snprintf(buf, cap, "%s %04X\n", w, it->num);
	return snprintf(buf, cap, "%s %s\n", w, it->path);
}

int rec_format(const struct record *a, const struct record *b, char *buf,
	       size_t cap)
{
	const struct record *rs[] = {a, b};
	int off = snprintf(buf, cap, "%s\n", REC_MAGIC);

	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < rs[k]->n && off < (int)cap; i++)
			off += rec_line(&rs[k]->it[i], buf + off, cap - off);
	return off < (int)cap ? off : -ENOSPC;
}

/* One line after the first into @r. */
static int rec_parse_line(char *line, struct record *r)
{
	char word[8], arg[REC_PATH_MAX];
	unsigned num = 0;
	int pos = -1, n;

	n = sscanf(line, "%7s %255s %d", word, arg, &pos);
	for (size_t k = 0; n >= 2 && k < sizeof(rec_words) / sizeof(*rec_words);
	     k++) {
		if (strcmp(word, rec_words[k]))
			continue;
		if (rec_is_var(k) &&
		    (sscanf(arg, "%4x", &num) != 1 || strlen(arg) != 4 ||
		     (k == REC_ORDER && n != 3)))
			return -EINVAL;
		if (!rec_is_var(k) && (arg[0] == '/' || strstr(arg, "..")))
			return -EINVAL;
		return rec_add(r, k, rec_is_var(k) ? NULL : arg, (uint16_t)num,
			       pos);
	}
	return -EINVAL;
}

int rec_parse(const char *buf, size_t len, struct record *r, char *err,
	      size_t errlen)
{
	char *copy = strndup(buf, len), *save = NULL, *line;
	int rc = 0, no = 1;

	memset(r, 0, sizeof(*r));
	if (!copy)
		return say(err, errlen, -ENOMEM, "out of memory");
	line = strtok_r(copy, "\n", &save);
	if (!line || strcmp(line, REC_MAGIC))
		rc = -EINVAL;
	while (rc == 0 && (line = strtok_r(NULL, "\n", &save))) {
		no++;
		rc = rec_parse_line(line, r);
	}
	free(copy);
	if (rc < 0)
		return say(err, errlen, -EINVAL,
			   "the install record " INSTALL_RECORD
			   " is not one this installer wrote (line %d): "
			   "nothing was changed",
			   no);
	return 0;
}

/* --- Taking changes back */

static int rec_undo_file(struct inst *in, const struct rec_item *it)
{
	char old[REC_PATH_MAX + sizeof(INSTALL_OLD_SUFFIX)];
	char more[sizeof(old) + 8];
	int rc;

	snprintf(old, sizeof(old), "%s%s", it->path, INSTALL_OLD_SUFFIX);
	snprintf(more, sizeof(more), " from %s", old);
	if (it->kind == REC_NEW) {
		inst_say(in, "remove", it->path, NULL);
		rc = in->o->print ? 0 : file_unlink(in, it->path);
	} else {
		inst_say(in, "restore", it->path, more);
		rc = in->o->print ? 0 : file_rename(in, old, it->path);
	}
	/* gone already: an earlier uninstall stopped after it */
	if (rc == -ENOENT)
		rc = 0;
	if (rc < 0)
		return say(in->err, in->errlen, rc, "cannot %s %s/%s: %s",
			   it->kind == REC_NEW ? "remove" : "restore", in->esp,
			   it->path, strerror(-rc));
	return 0;
}

/* A directory made by the install goes when it is empty again. */
static void rec_undo_dir(struct inst *in, const struct rec_item *it)
{
	int rc = in->o->print ? 0 : file_rmdir(in, it->path);

	if (rc == 0)
		inst_say(in, "rmdir", it->path, NULL);
	else if (rc != -ENOENT)
		inst_say(in, "keep", it->path, " (other files are in it)");
}

static int rec_undo_one(struct inst *in, const struct rec_item *it)
{
	if (rec_is_var(it->kind))
		return nvram_undo(in, it);
	return rec_undo_file(in, it);
}

int rec_undo(struct inst *in, const struct record *r, const char *then_unlink)
{
	int rc;

	for (size_t i = r->n; i-- > 0;)
		if (r->it[i].kind != REC_DIR &&
		    (rc = rec_undo_one(in, &r->it[i])) < 0)
			return rc;
	if (then_unlink) {
		inst_say(in, "remove", then_unlink, NULL);
		rc = in->o->print ? 0 : file_unlink(in, then_unlink);
		if (rc < 0 && rc != -ENOENT)
			return say(in->err, in->errlen, rc,
				   "cannot remove %s/%s: %s", in->esp,
				   then_unlink, strerror(-rc));
	}
	for (size_t i = r->n; i-- > 0;)
		if (r->it[i].kind == REC_DIR)
			rec_undo_dir(in, &r->it[i]);
	return 0;
}
