/* grub_state.h - the grub.cfg interpreter's state and its limits, and the
 * few services every grub_*.c file uses (grub_state.c): warnings, the
 * step count, the menu list.
 *
 * One struct grub_state runs one config (and what it sources) for one
 * filesystem scan; grub.c makes it. Everything it allocates is in ctx->a;
 * nothing is global. Phase one runs the script: `menuentry` and `submenu`
 * only record items. Phase two (grub_menu.c) runs each item's body the
 * way GRUB does when the user picks it: with the variables as the script
 * left them.
 *
 * The grub files, each calling only those listed after it:
 *   grub.c         the start: makes the state, hands it grub_cmds
 *   grub_cmd.c     the commands
 *   grub_source.c  source, configfile
 *   grub_menu.c    phase two
 *   grub_exec.c    the syntax tree; commands only through st->cmds
 *   grub_test.c, grub_path.c, grub_btrfs.c   files and devices
 *   grub_vars.c    variables
 *   grub_state.c   this header's functions
 * Below them all: grub_parse.c, grub_expand.c, grub_env.c (text in;
 * trees, words, variables out: they know nothing of the state) and ctx.h.
 */
#ifndef BM_CFG_GRUB_STATE_H
#define BM_CFG_GRUB_STATE_H

#include "cfg/ctx.h"

#include <stdbool.h>

#define GRUB_VAR_BUCKETS 64
#define GRUB_VALUE_MAX (16u << 10) /* longest argument or variable value */
#define GRUB_BYTES_MAX (32u << 20) /* most bytes of words one run expands */
#define GRUB_EXEC_DEPTH 96	   /* nested blocks, calls and sources */
#define GRUB_NAME_MAX 128	   /* longest variable or function name */
#define GRUB_FALLBACK_MAX 16	   /* entries `fallback` may name */
#define GRUB_FALLBACK_WORD_MAX 256
#define GRUB_MODULES_MAX 16 /* modules one multiboot entry records */

struct grub_node;	 /* grub_parse.h */
struct grub_cmd;	 /* grub_exec.h */
struct grub_btrfs_mount; /* grub_btrfs.c */

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

/* Where a GRUB path lives (grub_path.c's grub_where()). */
struct grub_where {
	const struct fs_root *fs; /* NULL when the device is not known (yet) */
	const char *dev;  /* the spec for entry_file.dev when not found */
	const char *path; /* absolute within the filesystem */
};

enum grub_flow { GF_NONE, GF_BREAK, GF_CONTINUE, GF_RETURN };

struct grub_state {
	struct cfg_ctx *ctx;
	struct arena *a;
	/* the commands grub_exec.c runs by name: grub_cmd.c's table, given
	 * by grub.c (the interpreter does not know the commands) */
	const struct grub_cmd *cmds;
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

/* A warning at the running file and line, to ctx->out. */
void grub_warn(struct grub_state *st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Count one step; false (and st->stop) once the limit is passed. */
bool grub_step(struct grub_state *st);

/* The menu phase one builds: items in the order declared. */
void grub_menu_init(struct grub_menu *m);
void grub_menu_add(struct grub_menu *m, struct grub_item *it);

#endif
