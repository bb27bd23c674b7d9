/* test_savedef.c - the saved default without root: the grubenv block
 * rewritten at its size (escapes, refusal when full), the state file, the
 * value saved for an entry and found again, and whole saves over a
 * directory-backed filesystem (no device: no mount, same write steps);
 * the superblock checks on bytes. */
#include "cfg/grub_env.h"
#include "conf/conf.h"
#include "entry/entry.h"
#include "savedef/savedef.h"
#include "scan/remount.h"
#include "session/session.h"
#include "test.h"
#include "tfs.h"

#include <errno.h>
#include <sys/stat.h>

#define BLOCK 1024

/* A block as grub-editenv writes it: signature, variables, '#' padding. */
static void mkblock(char *b, size_t len, const char *vars)
{
	size_t n = strlen(GRUB_ENV_SIGNATURE) + strlen(vars);

	memset(b, '#', len);
	memcpy(b, GRUB_ENV_SIGNATURE, strlen(GRUB_ENV_SIGNATURE));
	memcpy(b + strlen(GRUB_ENV_SIGNATURE), vars,
	       n - strlen(GRUB_ENV_SIGNATURE));
}

/* The variable part of a block: after the signature, before the padding. */
static const char *vars_of(const char *b, size_t len)
{
	static char out[BLOCK * 4];
	size_t s = strlen(GRUB_ENV_SIGNATURE), e = len;

	while (e > s && b[e - 1] == '#')
		e--;
	snprintf(out, sizeof(out), "%.*s", (int)(e - s), b + s);
	return out;
}

TEST(env_replace_keeps_others)
{
	char b[BLOCK], v[64];

	mkblock(b, sizeof(b), "next_entry=\nsaved_entry=old\nboot_success=1\n");
	CHECK_INT(savedef_env_set(b, sizeof(b), "saved_entry", "gnulinux-6.1"),
		  0);
	CHECK_STR(vars_of(b, sizeof(b)),
		  "next_entry=\nsaved_entry=gnulinux-6.1\nboot_success=1\n");
	CHECK(!memcmp(b, GRUB_ENV_SIGNATURE, strlen(GRUB_ENV_SIGNATURE)));
	CHECK(b[BLOCK - 1] == '#');
	CHECK_INT(savedef_env_get(b, sizeof(b), "saved_entry", v, sizeof(v)),
		  1);
	CHECK_STR(v, "gnulinux-6.1");
	CHECK_INT(savedef_env_get(b, sizeof(b), "boot_success", v, sizeof(v)),
		  1);
	CHECK_STR(v, "1");
	CHECK_INT(savedef_env_get(b, sizeof(b), "nope", v, sizeof(v)), 0);
	CHECK_STR(v, "");
}

TEST(env_add_to_empty_block)
{
	char b[BLOCK], v[64];

	mkblock(b, sizeof(b), ""); /* grub-editenv create */
	CHECK_INT(savedef_env_set(b, sizeof(b), "saved_entry", "a"), 0);
	CHECK_STR(vars_of(b, sizeof(b)), "saved_entry=a\n");
	CHECK_INT(savedef_env_set(b, sizeof(b), "next_entry", ""), 0);
	CHECK_STR(vars_of(b, sizeof(b)), "saved_entry=a\nnext_entry=\n");
	CHECK_INT(savedef_env_get(b, sizeof(b), "next_entry", v, sizeof(v)), 1);
	CHECK_STR(v, "");
	/* duplicates: the first is replaced, the later ones dropped */
	mkblock(b, sizeof(b), "x=1\nsaved_entry=p\nsaved_entry=q\n");
	CHECK_INT(savedef_env_set(b, sizeof(b), "saved_entry", "r"), 0);
	CHECK_STR(vars_of(b, sizeof(b)), "x=1\nsaved_entry=r\n");
}

TEST(env_escapes)
{
	char b[BLOCK], v[64];

	mkblock(b, sizeof(b), "kept=a\\\\b\\\nc\n");
	CHECK_INT(savedef_env_set(b, sizeof(b), "saved_entry", "A>b\\c\nd"), 0);
	CHECK_STR(vars_of(b, sizeof(b)),
		  "kept=a\\\\b\\\nc\nsaved_entry=A>b\\\\c\\\nd\n");
	/* the reader (cfg/grub_env.c) gives the value back unescaped */
	CHECK_INT(savedef_env_get(b, sizeof(b), "saved_entry", v, sizeof(v)),
		  1);
	CHECK_STR(v, "A>b\\c\nd");
	CHECK_INT(savedef_env_get(b, sizeof(b), "kept", v, sizeof(v)), 1);
	CHECK_STR(v, "a\\b\nc");
}

TEST(env_full_refused)
{
	char b[BLOCK], before[BLOCK], big[BLOCK];

	mkblock(b, sizeof(b), "saved_entry=x\n");
	memset(big, 'y', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	memcpy(before, b, sizeof(b));
	CHECK_INT(savedef_env_set(b, sizeof(b), "saved_entry", big), -ENOSPC);
	CHECK(!memcmp(b, before, sizeof(b)));
	/* exactly full fits: signature 25 + "saved_entry=" 12 + value + '\n' */
	big[BLOCK - 25 - 12 - 1] = '\0';
	CHECK_INT(savedef_env_set(b, sizeof(b), "saved_entry", big), 0);
	CHECK(b[BLOCK - 1] == '\n');
	big[BLOCK - 25 - 12 - 1] = 'y';
	big[BLOCK - 25 - 12] = '\0';
	memcpy(before, b, sizeof(b));
	CHECK_INT(savedef_env_set(b, sizeof(b), "saved_entry", big), -ENOSPC);
	CHECK(!memcmp(b, before, sizeof(b)));
	/* an escape that would not fit counts too */
	mkblock(b, sizeof(b), "");
	memset(big, '\\', BLOCK - 25 - 12 - 1);
	big[BLOCK - 25 - 12 - 1] = '\0';
	CHECK_INT(savedef_env_set(b, sizeof(b), "saved_entry", big), -ENOSPC);
}

TEST(env_bad_blocks)
{
	char b[BLOCK];

	memset(b, '#', sizeof(b));
	CHECK_INT(savedef_env_set(b, sizeof(b), "saved_entry", "x"), -EINVAL);
	mkblock(b, sizeof(b), "");
	CHECK_INT(savedef_env_set(b, sizeof(b), "bad name", "x"), -EINVAL);
	CHECK_INT(savedef_env_set(b, sizeof(b), "", "x"), -EINVAL);
	CHECK_INT(savedef_env_set(b, 10, "saved_entry", "x"), -EINVAL);
	/* a larger block keeps its own size */
	{
		static char big[4096];

		mkblock(big, sizeof(big), "a=1\n");
		CHECK_INT(savedef_env_set(big, sizeof(big), "saved_entry", "z"),
			  0);
		CHECK_STR(vars_of(big, sizeof(big)), "a=1\nsaved_entry=z\n");
		CHECK(big[sizeof(big) - 1] == '#');
	}
}

/* What the state file holds for @id: one 512-byte sector. */
static const char *state_of(const char *id)
{
	static char out[SAVEDEF_STATE_SIZE + 1];
	size_t n = strlen(id);

	memset(out, '#', SAVEDEF_STATE_SIZE);
	memcpy(out, id, n);
	out[n] = '\n';
	out[SAVEDEF_STATE_SIZE - 1] = '\n';
	out[SAVEDEF_STATE_SIZE] = '\0';
	return out;
}

TEST(state_file)
{
	char out[SAVEDEF_STATE_SIZE + 1], id[64], big[SAVEDEF_STATE_SIZE];

	CHECK_INT(savedef_state_format("bls:demo-6.1", out, sizeof(out)), 512);
	CHECK_INT(strlen(out), 512);
	CHECK(!strncmp(out, "bls:demo-6.1\n####", 17));
	CHECK(!strcmp(out + 509, "##\n"));
	CHECK_INT(savedef_state_parse(out, 512, id, sizeof(id)), 0);
	CHECK_STR(id, "bls:demo-6.1");
	CHECK_INT(savedef_state_format("a\nb", out, sizeof(out)), -EINVAL);
	CHECK_INT(savedef_state_format("", out, sizeof(out)), -EINVAL);
	CHECK_INT(savedef_state_format("abcdef", out, 64), -ENAMETOOLONG);
	memset(big, 'i', sizeof(big));
	big[510] = '\0'; /* 510 + newline + final newline: just fits */
	CHECK_INT(savedef_state_format(big, out, sizeof(out)), 512);
	CHECK(!strcmp(out + 509, "i\n\n"));
	big[510] = 'i';
	big[511] = '\0';
	CHECK_INT(savedef_state_format(big, out, sizeof(out)), -ENAMETOOLONG);
	CHECK_INT(savedef_state_parse("x y\r\nrest", 9, id, sizeof(id)), 0);
	CHECK_STR(id, "x y");
	CHECK_INT(savedef_state_parse("", 0, id, sizeof(id)), 0);
	CHECK_STR(id, "");
	CHECK_INT(savedef_state_parse("abcdef\n", 7, id, 4), -ENAMETOOLONG);
}

/* Three entries in a directory-backed session: a grub entry at the top,
 * one in a submenu, and a BLS one. */
struct sd_fix {
	struct tfs t;
	struct session s;
	struct entry *top, *sub, *bls;
	struct conf c;
};

static void fix_init(struct sd_fix *f)
{
	tfs_init(&f->t);
	memset(&f->s, 0, sizeof(f->s));
	entry_list_init(&f->s.list, &f->t.a);
	f->s.fss[0] = &f->t.fs;
	f->s.n_fss = 1;
	f->top = entry_new(&f->s.list, FMT_GRUB, &f->t.fs);
	f->top->id = "gnulinux-simple-1234";
	f->top->title = "Debian GNU/Linux";
	f->sub = entry_new(&f->s.list, FMT_GRUB, &f->t.fs);
	f->sub->id = "gnulinux-6.1-advanced-1234";
	f->sub->title = "Debian GNU/Linux, with Linux 6.1";
	f->sub->group = "Advanced options for Debian GNU/Linux";
	f->bls = entry_new(&f->s.list, FMT_BLS, &f->t.fs);
	f->bls->id = "demo-bls-6.1";
	f->bls->title = "Demo BLS";
	entry_add(&f->s.list, f->top);
	entry_add(&f->s.list, f->sub);
	entry_add(&f->s.list, f->bls);
	conf_init(&f->c);
	f->c.save_default = true;
}

static void fix_done(struct sd_fix *f)
{
	(void)nth;
	(void)n_warn;
	tfs_done(&f->t);
}

static size_t file_size(struct tfs *t, const char *path)
{
	char full[512];
	struct stat st;

	snprintf(full, sizeof(full), "%s%s", t->dir, path);
	return stat(full, &st) == 0 ? (size_t)st.st_size : 0;
}

static const char *file_text(struct tfs *t, const char *path)
{
	static char buf[BLOCK * 2];
	char full[512];
	FILE *fp;
	size_t n;

	snprintf(full, sizeof(full), "%s%s", t->dir, path);
	fp = fopen(full, "r");
	if (!fp)
		return "(missing)";
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

TEST(value_and_find)
{
	struct sd_fix f;
	char v[SAVEDEF_VALUE_MAX];

	fix_init(&f);
	CHECK_INT(savedef_value(f.top, v, sizeof(v)), 0);
	CHECK_STR(v, "gnulinux-simple-1234");
	CHECK_INT(savedef_value(f.sub, v, sizeof(v)), 0);
	CHECK_STR(
	    v,
	    "Advanced options for Debian GNU/Linux>gnulinux-6.1-advanced-1234");
	CHECK(savedef_find(&f.s.list, v) == f.sub);
	CHECK(savedef_find(&f.s.list,
			   "Advanced options for Debian GNU/Linux>"
			   "Debian GNU/Linux, with Linux 6.1") == f.sub);
	CHECK(savedef_find(&f.s.list, "gnulinux-6.1-advanced-1234") == f.sub);
	CHECK(savedef_find(&f.s.list, "Debian GNU/Linux") == f.top);
	CHECK(savedef_find(&f.s.list, "demo-bls-6.1") == f.bls);
	CHECK(savedef_find(&f.s.list, "Other>demo-bls-6.1") == NULL);
	CHECK(savedef_find(&f.s.list, "") == NULL);
	CHECK(savedef_find(&f.s.list, "0") == NULL);
	CHECK_INT(savedef_value(f.sub, v, 20), -ENAMETOOLONG);
	fix_done(&f);
}

TEST(save_into_grubenv)
{
	struct sd_fix f;
	char b[BLOCK + 1], err[256], id[SAVEDEF_VALUE_MAX];

	fix_init(&f);
	mkblock(b, BLOCK, "saved_entry=gnulinux-simple-1234\nboot_success=0\n");
	b[BLOCK] = '\0';
	tfs_write(&f.t, "/boot/grub/grubenv", b);
	tfs_write(&f.t, "/boot/grub/grub.cfg", "# not touched\n");
	CHECK_INT(savedef_load(&f.s, &f.c, id, sizeof(id)), 0);
	CHECK_STR(id, "gnulinux-simple-1234");
	CHECK_INT(savedef_save(&f.s, &f.c, f.sub, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK_INT(file_size(&f.t, "/boot/grub/grubenv"), BLOCK);
	CHECK_STR(vars_of(file_text(&f.t, "/boot/grub/grubenv"), BLOCK),
		  "saved_entry=Advanced options for Debian GNU/Linux>"
		  "gnulinux-6.1-advanced-1234\nboot_success=0\n");
	CHECK_STR(file_text(&f.t, "/boot/grub/grubenv.new"), "(missing)");
	CHECK_STR(file_text(&f.t, "/bootmenu/default"), "(missing)");
	/* read back: the id the menu preselects */
	CHECK_INT(savedef_load(&f.s, &f.c, id, sizeof(id)), 0);
	CHECK_STR(id, "gnulinux-6.1-advanced-1234");
	/* a second save of a non-grub entry: its id */
	CHECK_INT(savedef_save(&f.s, &f.c, f.bls, err, sizeof(err)), 0);
	CHECK_INT(savedef_load(&f.s, &f.c, id, sizeof(id)), 0);
	CHECK_STR(id, "demo-bls-6.1");
	CHECK_INT(file_size(&f.t, "/boot/grub/grubenv"), BLOCK);
	fix_done(&f);
}

TEST(save_refusals)
{
	struct sd_fix f;
	char b[BLOCK + 1], big[BLOCK], err[256], id[64];

	fix_init(&f);
	mkblock(b, BLOCK, "saved_entry=x\n");
	b[BLOCK] = '\0';
	tfs_write(&f.t, "/grub/grubenv", b);
	/* off in bootmenu.conf: nothing written, nothing loaded */
	f.c.save_default = false;
	CHECK_INT(savedef_save(&f.s, &f.c, f.bls, err, sizeof(err)), -EPERM);
	CHECK_STR(
	    err,
	    "saving a default is off in bootmenu.conf (save_default = no)");
	CHECK_INT(savedef_load(&f.s, &f.c, id, sizeof(id)), 0);
	CHECK_STR(id, "");
	f.c.save_default = true;
	/* a disabled entry is not saved */
	f.bls->disabled = "kernel missing";
	CHECK_INT(savedef_save(&f.s, &f.c, f.bls, err, sizeof(err)), -EINVAL);
	CHECK_STR(err,
		  "\"Demo BLS\" cannot be booted (kernel missing): not saved");
	f.bls->disabled = NULL;
	/* an id that does not fit the block: refused, block unchanged */
	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	f.bls->id = big;
	CHECK_INT(savedef_save(&f.s, &f.c, f.bls, err, sizeof(err)), -ENOSPC);
	CHECK_STR(err,
		  "/grub/grubenv has no room for saved_entry (it keeps its "
		  "1024 bytes): not written");
	CHECK_STR(file_text(&f.t, "/grub/grubenv"), b);
	CHECK_STR(file_text(&f.t, "/grub/grubenv.new"), "(missing)");
	/* a target that is not there */
	strcpy(f.c.save_on, "LABEL=nothere");
	CHECK_INT(savedef_save(&f.s, &f.c, f.top, err, sizeof(err)), -ENOENT);
	CHECK_STR(
	    err,
	    "save_default_on = LABEL=nothere: no such filesystem was found");
	fix_done(&f);
}

TEST(save_state_file)
{
	struct sd_fix f;
	char err[256], id[SAVEDEF_VALUE_MAX];

	fix_init(&f);
	/* no grubenv anywhere, and no save_default_on: nowhere to save */
	CHECK_INT(savedef_save(&f.s, &f.c, f.bls, err, sizeof(err)), -ENOENT);
	CHECK_STR(err, "no filesystem has a grubenv: set save_default_on in "
		       "bootmenu.conf");
	/* named by its name: the state file, its directory made */
	strcpy(f.c.save_on, "t");
	CHECK_INT(savedef_load(&f.s, &f.c, id, sizeof(id)), 0);
	CHECK_STR(id, "");
	CHECK_INT(savedef_save(&f.s, &f.c, f.sub, err, sizeof(err)), 0);
	CHECK_STR(file_text(&f.t, "/bootmenu/default"),
		  state_of("gnulinux-6.1-advanced-1234"));
	CHECK_STR(file_text(&f.t, "/bootmenu/default.new"), "(missing)");
	CHECK_INT(savedef_load(&f.s, &f.c, id, sizeof(id)), 0);
	CHECK_STR(id, "gnulinux-6.1-advanced-1234");
	/* a temporary file a power cut left is replaced */
	tfs_write(&f.t, "/bootmenu/default.new", "torn");
	CHECK_INT(savedef_save(&f.s, &f.c, f.bls, err, sizeof(err)), 0);
	CHECK_STR(file_text(&f.t, "/bootmenu/default"),
		  state_of("demo-bls-6.1"));
	CHECK_STR(file_text(&f.t, "/bootmenu/default.new"), "(missing)");
	/* a value no entry has comes back as it is */
	tfs_write(&f.t, "/bootmenu/default", "gone-entry\n");
	CHECK_INT(savedef_load(&f.s, &f.c, id, sizeof(id)), 0);
	CHECK_STR(id, "gone-entry");
	/* the state "file" is a directory: refused */
	unlink(strcat(strcpy(err, f.t.dir), "/bootmenu/default"));
	mkdir(strcat(strcpy(err, f.t.dir), "/bootmenu/default"), 0755);
	CHECK_INT(savedef_save(&f.s, &f.c, f.bls, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "default is not a regular file: not replaced");
	fix_done(&f);
}

static ino_t inode_of(struct tfs *t, const char *path)
{
	char full[512];
	struct stat st;

	snprintf(full, sizeof(full), "%s%s", t->dir, path);
	return stat(full, &st) == 0 ? st.st_ino : 0;
}

/* ext4 (journalled): always a new file renamed over. vfat: a file of the
 * same size is rewritten in place (same inode), creating one renames. */
TEST(in_place_on_fat)
{
	struct sd_fix f;
	char b[BLOCK + 1], err[256];
	ino_t ino;

	fix_init(&f);
	mkblock(b, BLOCK, "saved_entry=x\n");
	b[BLOCK] = '\0';
	tfs_write(&f.t, "/grub/grubenv", b);
	f.t.fs.fstype = "ext4";
	ino = inode_of(&f.t, "/grub/grubenv");
	CHECK_INT(savedef_save(&f.s, &f.c, f.bls, err, sizeof(err)), 0);
	CHECK(inode_of(&f.t, "/grub/grubenv") != ino);
	f.t.fs.fstype = "vfat";
	ino = inode_of(&f.t, "/grub/grubenv");
	CHECK_INT(savedef_save(&f.s, &f.c, f.top, err, sizeof(err)), 0);
	CHECK(inode_of(&f.t, "/grub/grubenv") == ino);
	CHECK_STR(vars_of(file_text(&f.t, "/grub/grubenv"), BLOCK),
		  "saved_entry=gnulinux-simple-1234\n");
	/* the state file: created by a rename, then rewritten in place */
	strcpy(f.c.save_on, "t");
	unlink(strcat(strcpy(err, f.t.dir), "/grub/grubenv"));
	tfs_write(&f.t, "/bootmenu/default", "short\n");
	ino = inode_of(&f.t, "/bootmenu/default");
	CHECK_INT(savedef_save(&f.s, &f.c, f.top, err, sizeof(err)), 0);
	CHECK(inode_of(&f.t, "/bootmenu/default") != ino);
	ino = inode_of(&f.t, "/bootmenu/default");
	CHECK_INT(savedef_save(&f.s, &f.c, f.bls, err, sizeof(err)), 0);
	CHECK(inode_of(&f.t, "/bootmenu/default") == ino);
	CHECK_STR(file_text(&f.t, "/bootmenu/default"),
		  state_of("demo-bls-6.1"));
	fix_done(&f);
}

TEST(clear_once)
{
	struct sd_fix f;
	char b[BLOCK + 1], err[256];

	fix_init(&f);
	mkblock(b, BLOCK, "saved_entry=a\nnext_entry=demo-bls-6.1\n");
	b[BLOCK] = '\0';
	tfs_write(&f.t, "/boot/grub/grubenv", b);
	f.c.save_default = false; /* not allowed: left as it is */
	CHECK_INT(savedef_clear_once(&f.s, &f.c, err, sizeof(err)), 0);
	CHECK_STR(file_text(&f.t, "/boot/grub/grubenv"), b);
	f.c.save_default = true;
	CHECK_INT(savedef_clear_once(&f.s, &f.c, err, sizeof(err)), 0);
	CHECK_STR(vars_of(file_text(&f.t, "/boot/grub/grubenv"), BLOCK),
		  "saved_entry=a\nnext_entry=\n");
	CHECK_INT(file_size(&f.t, "/boot/grub/grubenv"), BLOCK);
	fix_done(&f);
}

/* A logical volume or RAID mirror the scan mapped is only read: neither
 * a save nor clearing boot-once writes there, and the file stays. */
TEST(volume_refused)
{
	struct sd_fix f;
	char b[BLOCK + 1], err[256];

	fix_init(&f);
	mkblock(b, BLOCK, "saved_entry=a\nnext_entry=demo-bls-6.1\n");
	b[BLOCK] = '\0';
	tfs_write(&f.t, "/boot/grub/grubenv", b);
	f.t.fs.name = "vgsys/boot";
	f.t.fs.volume = true;
	CHECK_INT(savedef_save(&f.s, &f.c, f.bls, err, sizeof(err)), -EROFS);
	CHECK_STR(err, "vgsys/boot is a logical volume or RAID mirror, which "
		       "bootmenu only reads: the default is not saved there");
	CHECK_INT(savedef_clear_once(&f.s, &f.c, err, sizeof(err)), -EROFS);
	CHECK_STR(file_text(&f.t, "/boot/grub/grubenv"), b);
	CHECK_STR(file_text(&f.t, "/boot/grub/grubenv.new"), "(missing)");
	fix_done(&f);
}

/* save_default_on by every kind of name; the first grubenv without one. */
TEST(targets)
{
	struct fs_root a = {.root_fd = -1,
			    .name = "vda1",
			    .device = "/dev/vda1",
			    .fstype = "vfat",
			    .uuid = "DE40-E5B1",
			    .label = "ESP"};
	struct fs_root b = {.root_fd = -1,
			    .name = "vda2",
			    .device = "/dev/vda2",
			    .fstype = "ext4",
			    .uuid = "1b8e2c4a-0d3f",
			    .label = "debian",
			    .partuuid = "0de40002"};
	struct session s = {.fss = {&a, &b}, .n_fss = 2};
	struct conf c;
	const char *env = "x";
	char err[256];

	conf_init(&c);
	c.save_default = true;
	strcpy(c.save_on, "LABEL=debian");
	CHECK(savedef_target(&s, &c, &env, err, sizeof(err)) == &b);
	CHECK(env == NULL); /* not mounted here: no grubenv seen */
	strcpy(c.save_on, "UUID=DE40-E5B1");
	CHECK(savedef_target(&s, &c, NULL, err, sizeof(err)) == &a);
	strcpy(c.save_on, "PARTUUID=0de40002");
	CHECK(savedef_target(&s, &c, NULL, err, sizeof(err)) == &b);
	strcpy(c.save_on, "/dev/vda1");
	CHECK(savedef_target(&s, &c, NULL, err, sizeof(err)) == &a);
	strcpy(c.save_on, "vda2");
	CHECK(savedef_target(&s, &c, NULL, err, sizeof(err)) == &b);
	strcpy(c.save_on, "vda3");
	CHECK(savedef_target(&s, &c, NULL, err, sizeof(err)) == NULL);
	CHECK_STR(err, "save_default_on = vda3: no such filesystem was found");
	c.save_on[0] = '\0';
	CHECK(savedef_target(&s, &c, NULL, err, sizeof(err)) == NULL);
	/* an xfs is refused before anything is made writable */
	b.fstype = "xfs";
	strcpy(c.save_on, "vda2");
	{
		struct entry e = {.id = "x", .title = "X", .format = FMT_BLS};

		CHECK_INT(savedef_save(&s, &c, &e, err, sizeof(err)),
			  -EOPNOTSUPP);
		CHECK_STR(err, "vda2: xfs filesystems are not written (ext4 "
			       "and vfat are)");
	}
}

TEST(superblocks)
{
	unsigned char sb[512] = {0}, bs[512] = {0};
	char err[256];

	/* ext4: magic 0xEF53 at 0x38, incompat at 0x60, state at 0x3a */
	sb[0x38] = 0x53;
	sb[0x39] = 0xEF;
	sb[0x3a] = 1;
	sb[0x60] = 0x42; /* FILETYPE | EXTENTS */
	CHECK_INT(remount_check_ext(sb, err, sizeof(err)), 0);
	sb[0x60] |= 0x04; /* RECOVER */
	CHECK_INT(remount_check_ext(sb, err, sizeof(err)), -EUCLEAN);
	CHECK(strstr(err, "journal needs recovery") != NULL);
	sb[0x60] &= ~0x04;
	sb[0x3a] = 3; /* VALID | ERROR */
	CHECK_INT(remount_check_ext(sb, err, sizeof(err)), -EUCLEAN);
	sb[0x38] = 0;
	CHECK_INT(remount_check_ext(sb, err, sizeof(err)), -EINVAL);
	/* FAT16: 512-byte sectors, sectors/FAT at 22, state at 37 */
	bs[11] = 0x00;
	bs[12] = 0x02;
	bs[22] = 0x20;
	bs[510] = 0x55;
	bs[511] = 0xAA;
	CHECK_INT(remount_check_fat(bs, err, sizeof(err)), 0);
	bs[37] = 1;
	CHECK_INT(remount_check_fat(bs, err, sizeof(err)), -EUCLEAN);
	CHECK(strstr(err, "dirty bit") != NULL);
	/* FAT32: sectors/FAT16 is 0, the state byte is at 65 */
	bs[22] = 0;
	CHECK_INT(remount_check_fat(bs, err, sizeof(err)), 0);
	bs[65] = 1;
	CHECK_INT(remount_check_fat(bs, err, sizeof(err)), -EUCLEAN);
	bs[510] = 0;
	CHECK_INT(remount_check_fat(bs, err, sizeof(err)), -EINVAL);
	CHECK(remount_supported("ext4") && remount_supported("vfat"));
	CHECK(!remount_supported("xfs") && !remount_supported("btrfs") &&
	      !remount_supported(NULL));
	CHECK_INT(remount_check("/dev/null", "xfs", err, sizeof(err)),
		  -EOPNOTSUPP);
	CHECK_STR(err, "xfs filesystems are not written (ext4 and vfat are)");
}

TEST_MAIN("test_savedef", volume_refused, env_replace_keeps_others,
	  env_add_to_empty_block, env_escapes, env_full_refused, env_bad_blocks,
	  state_file, value_and_find, save_into_grubenv, save_refusals,
	  save_state_file, in_place_on_fat, clear_once, targets, superblocks)
