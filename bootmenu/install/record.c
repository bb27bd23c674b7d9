/* record.c - the list of changes an install made (install_int.h), as
 * text on the ESP: a first line "bootmenu-install 1", then one change a
 * line, in the order made:
 *   dir PATH | new PATH | backup PATH | boot XXXX | order XXXX POS
 * (paths relative to the ESP's root, XXXX the hex option number, POS its
 * place in BootOrder before, -1 for none); for BIOS, the disk first, then
 *   code OLD OURS | flag N OLD | attr N OLD
 * (OLD and OURS the 440 bytes of boot code in hex, N a partition number,
 * OLD its MBR boot indicator or GPT attributes before, in hex). */
#include "install/install_int.h"
#include "util/say.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REC_MAGIC "bootmenu-install 1"

static const char *const rec_words[] = {
    [REC_DIR] = "dir",	 [REC_NEW] = "new",	[REC_BACKUP] = "backup",
    [REC_BOOT] = "boot", [REC_ORDER] = "order", [REC_CODE] = "code",
    [REC_FLAG] = "flag", [REC_ATTR] = "attr",
};

static bool rec_is_var(enum rec_kind k)
{
	return k == REC_BOOT || k == REC_ORDER;
}

/* A change of the disk (bios.c), not of a file or a variable. */
static bool rec_is_disk(enum rec_kind k)
{
	return k == REC_CODE || k == REC_FLAG || k == REC_ATTR;
}

int rec_code(const struct record *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->it[i].kind == REC_CODE)
			return (int)i;
	return -1;
}

bool rec_has(const struct record *r, enum rec_kind kind, const char *path,
	     uint16_t num)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->it[i].kind == kind &&
		    (rec_is_var(kind) || rec_is_disk(kind)
			 ? r->it[i].num == num
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

static void rec_hex(const uint8_t *b, char *out)
{
	for (size_t i = 0; i < BIOS_CODE_LEN; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

static int rec_line(const struct record *r, const struct rec_item *it,
		    char *buf, size_t cap)
{
	const char *w = rec_words[it->kind];
	char old[2 * BIOS_CODE_LEN + 1], ours[sizeof(old)];

	if (it->kind == REC_CODE) {
		rec_hex(r->code_old, old);
		rec_hex(r->code_ours, ours);
		return snprintf(buf, cap, "%s %s %s\n", w, old, ours);
	}
	if (it->kind == REC_FLAG || it->kind == REC_ATTR)
		return snprintf(buf, cap, "%s %u %llx\n", w, it->num,
				(unsigned long long)it->old);
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
	const char *disk = b->disk[0] ? b->disk : a->disk;
	int off = snprintf(buf, cap, "%s\n", REC_MAGIC);

	if (disk[0])
		off += snprintf(buf + off, cap - off, "disk %s\n", disk);
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < rs[k]->n && off < (int)cap; i++)
			off += rec_line(rs[k], &rs[k]->it[i], buf + off,
					cap - off);
	return off < (int)cap ? off : -ENOSPC;
}

/* 880 hex digits at @s into out[0..440): 0 or -EINVAL. */
static int rec_unhex(const char *s, uint8_t *out)
{
	unsigned v;

	for (size_t i = 0; i < BIOS_CODE_LEN; i++) {
		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -EINVAL;
		out[i] = (uint8_t)v;
	}
	return 0;
}

/* "disk PATH", "code OLD OURS", "flag N OLD", "attr N OLD" into @r;
 * 1 when @line is none of them. */
static int rec_parse_bios(const char *line, struct record *r)
{
	const size_t hex = 2 * BIOS_CODE_LEN;
	unsigned num;
	unsigned long long old;
	char word[8];

	if (!strncmp(line, "disk /", 6)) {
		snprintf(r->disk, sizeof(r->disk), "%s", line + 5);
		return 0;
	}
	if (!strncmp(line, "code ", 5))
		return strlen(line) != 6 + 2 * hex || line[5 + hex] != ' ' ||
			       rec_unhex(line + 5, r->code_old) ||
			       rec_unhex(line + 6 + hex, r->code_ours)
			   ? -EINVAL
			   : rec_add(r, REC_CODE, NULL, 0, -1);
	if (sscanf(line, "%7s %u %llx", word, &num, &old) != 3 ||
	    (strcmp(word, "flag") && strcmp(word, "attr")))
		return 1;
	if (!num || num > 0xffff ||
	    rec_add(r, word[0] == 'f' ? REC_FLAG : REC_ATTR, NULL,
		    (uint16_t)num, -1))
		return -EINVAL;
	r->it[r->n - 1].old = old;
	return 0;
}

/* One line after the first into @r. */
static int rec_parse_line(char *line, struct record *r)
{
	char word[8], arg[REC_PATH_MAX];
	unsigned num = 0;
	int pos = -1, n = rec_parse_bios(line, r);

	if (n <= 0)
		return n;
	n = sscanf(line, "%7s %255s %d", word, arg, &pos);
	for (size_t k = 0; n >= 2 && k < sizeof(rec_words) / sizeof(*rec_words);
	     k++) {
		if (rec_is_disk(k) || strcmp(word, rec_words[k]))
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
			   "the install record is not one this installer "
			   "wrote (line %d): "
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

static int rec_undo_one(struct inst *in, const struct record *r,
			const struct rec_item *it,
			const struct rec_undo_steps *steps)
{
	if (rec_is_var(it->kind))
		return steps->var(in, it);
	if (rec_is_disk(it->kind))
		return steps->disk(in, r, it);
	return rec_undo_file(in, it);
}

int rec_undo(struct inst *in, const struct record *r, const char *then_unlink,
	     const struct rec_undo_steps *steps)
{
	int rc;

	for (size_t i = r->n; i-- > 0;)
		if (r->it[i].kind != REC_DIR &&
		    (rc = rec_undo_one(in, r, &r->it[i], steps)) < 0)
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
