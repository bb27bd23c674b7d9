/* grub_interp.h - the grub.cfg interpreter's state, shared by grub*.c.
 *
 * One struct grub_state runs one config (and what it sources) for one
 * filesystem scan. Everything it allocates is in ctx->a; nothing is global.
 * Phase one runs the script: `menuentry` and `submenu` only record items.
 * Phase two (grub_menu.c) runs each item's body the way GRUB does when the
 * user picks it: with the variables as the script left them.
 */
#ifndef BM_CFG_GRUB_INTERP_H
#define BM_CFG_GRUB_INTERP_H

#include "cfg/cfg.h"
#include "cfg/grub_expand.h"
#include "cfg/grub_parse.h"

#include <stdbool.h>

#define GRUB_VAR_BUCKETS 64
#define GRUB_VALUE_MAX (16u << 10) /* longest argument or variable value */
#define GRUB_BYTES_MAX (32u << 20) /* most bytes of words one run expands */
#define GRUB_EXEC_DEPTH 96	   /* nested blocks, calls and sources */
#define GRUB_NAME_MAX 128	   /* longest variable or function name */
#define GRUB_FALLBACK_MAX 16	   /* entries `fallback` may name */
#define GRUB_FALLBACK_WORD_MAX 256
#define GRUB_MODULES_MAX 16 /* modules one multiboot entry records */

struct grub_var {
	struct grub_var *next;
	const char *name;
	const char *value; /* NULL: unset in this scope (hides the parent's) */
	bool exported;
};

/* Variables; an entry's body runs in a scope over the menu's. */
struct grub_scope {
	struct grub_scope *parent;
	struct grub_var *b[GRUB_VAR_BUCKETS];
};

struct grub_func {
	struct grub_func *next;
	const char *name;
	struct grub_node *body;
	const char *file;
	const struct fs_root *fs;
};

/* A menuentry or submenu as the script declared it, or a blscfg entry. */
struct grub_item {
	struct grub_item *next;
	bool submenu;
	const char *title, *id;
	const char **args; /* $1.. of the body: the title and extra words */
	size_t n_args;
	struct grub_node *body;
	const char *file;
	const struct fs_root *fs;
	int line;
	struct entry *built;   /* the entry made (blscfg: at once) */
	struct grub_menu *sub; /* a submenu's items, after phase two */
};

struct grub_menu {
	struct grub_item *head, **tail;
	size_t n;
};

/* What a menu entry's body loaded, while it runs in phase two. */
struct grub_load {
	struct entry *e;
	const char *why; /* reason to disable, first one wins */
	bool linux_seen;
	bool multiboot_seen; /* `module` needs a multiboot kernel first */
	bool replaced;	     /* `configfile`: its menu stands for the entry */
};

enum grub_flow { GF_NONE, GF_BREAK, GF_CONTINUE, GF_RETURN };

struct grub_state {
	struct cfg_ctx *ctx;
	struct arena *a;
	struct grub_scope *scope;
	struct grub_func *funcs;
	struct grub_menu *menu;
	const char *file;	  /* the file running now */
	const struct fs_root *fs; /* ...and its filesystem */
	const char *top_path;	  /* the config grub_parse_fs started */
	int line;
	const char *const *argv; /* $1..: argv[0] is $1 */
	size_t argc;
	int status; /* $? */
	long steps, steps_max;
	size_t bytes;
	int depth, include_depth, submenu_depth;
	bool stop;     /* step or memory limit: run nothing more */
	bool replaced; /* configfile showed its own menu */
	enum grub_flow flow;
	int flow_n;
	struct grub_load *load; /* phase two: the entry being built */
	const char *group;	/* phase two: the submenu path */
	const char *warned_dev; /* last unknown device warned about */
	/* btrfs-mount-subvol's table (global in GRUB: for every device) */
	struct grub_btrfs_mount *btrfs_mounts;
};

/* grub_vars.c */
struct grub_scope *grub_scope_new(struct grub_state *st,
				  struct grub_scope *parent);
/* A scope holding copies of the exported variables of @from (GRUB's
 * grub_env_context_open for submenus and configfile). */
struct grub_scope *grub_scope_exported(struct grub_state *st,
				       struct grub_scope *from);
const char *grub_get(struct grub_state *st, const char *name);
void grub_set(struct grub_state *st, const char *name, const char *value);
void grub_unset(struct grub_state *st, const char *name);
void grub_export(struct grub_state *st, const char *name);
/* The value for `$name` in a word (positional and special ones too). */
const char *grub_lookup(void *st, const char *name, size_t n);

/* grub_exec.c */
void grub_warn(struct grub_state *st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Count one step; false (and st->stop) once the limit is passed. */
bool grub_step(struct grub_state *st);
int grub_exec_list(struct grub_state *st, struct grub_node *n);
/* Expand words[0..n) into arguments. */
void grub_expand(struct grub_state *st, const char *const *words, size_t n,
		 struct grub_fields *out);
/* Run buf[0..len) as the file @path on @fs (source, configfile, eval). */
int grub_exec_buffer(struct grub_state *st, const struct fs_root *fs,
		     const char *path, const char *buf, size_t len);
/* `[ ... ]` and `test ...`: 0 when true, 1 when false. */
int grub_test(struct grub_state *st, const char *const *argv, size_t argc);

/* grub_cmd.c: run one expanded command; returns its exit status. */
int grub_run_command(struct grub_state *st, const char *const *argv,
		     size_t argc, int line);

/* grub_path.c: where a GRUB path lives */
struct grub_where {
	const struct fs_root *fs; /* NULL when the device is not known (yet) */
	const char *dev;  /* the spec for entry_file.dev when not found */
	const char *path; /* absolute within the filesystem */
};

/* Split "(dev)/path" (or "/path" on $root) and find the filesystem. */
void grub_where(struct grub_state *st, const char *arg, struct grub_where *w);
/* The name `search` gives a filesystem (and $root starts as). */
const char *grub_fs_devname(const struct fs_root *fs);
/* The entry_file.dev for @w seen from entry filesystem @home. */
const char *grub_where_dev(struct grub_state *st, const struct grub_where *w,
			   const struct fs_root *home);
/* @w's filesystem when it is a btrfs top level (grub_btrfs.c), else
 * NULL: the entry_file.fs to set beside the spec, so that the entry room
 * keeps the file there (entry.c resolve_file()). */
const struct fs_root *grub_where_top(const struct grub_where *w);
/* Read @w's file (capped at @max). Returns 0 or -errno; -ECANCELED past
 * cfg_budget(), which has warned. */
int grub_read(struct grub_state *st, const struct grub_where *w, size_t max,
	      char **buf, size_t *len);
/* The config grub_parse_fs() reads on @fs, or NULL. */
const char *grub_primary_config(const struct fs_root *fs);

/* grub_btrfs.c: paths on btrfs (see there) */
/* Is $btrfs_relative_path on ('y' or '1' first, as SUSE's patch reads)? */
bool grub_btrfs_relative(struct grub_state *st);
/* @w (on a filesystem with ->btrfs) from GRUB's view to the filesystem
 * the file is on: home when inside it, else the top level. */
void grub_btrfs_where(struct grub_state *st, struct grub_where *w);
/* The path GRUB would name @path on @fs by ($config_file, $prefix):
 * from the top level, or from the default subvolume when relative paths
 * are on. @path itself when @fs is no btrfs. */
const char *grub_btrfs_visible(struct grub_state *st, const struct fs_root *fs,
			       const char *path);
/* Is @path (absolute, GRUB's view) a file on @fs? `search --file`. */
bool grub_has_file(struct grub_state *st, const struct fs_root *fs,
		   const char *path);
/* `btrfs-mount-subvol DEV DIR SUBVOL`. */
int grub_cmd_btrfs_mount_subvol(struct grub_state *st, const char *const *argv,
				size_t argc);

/* grub_menu.c */
void grub_menu_init(struct grub_menu *m);
void grub_menu_add(struct grub_menu *m, struct grub_item *it);
/* Phase two: turn st->menu into entries on st->ctx->out, mark the
 * default from $default, take $timeout. */
void grub_menu_finish(struct grub_state *st);
/* Phase two of @m (a menu a chosen entry's `configfile` showed) with
 * @scope, its entries grouped under the entry's @title. */
void grub_menu_nested(struct grub_state *st, struct grub_menu *m,
		      struct grub_scope *scope, const char *title);

/* grub.c */
/* The runs of `source` and `configfile` */
int grub_source_file(struct grub_state *st, const char *arg, bool configfile);

#endif
