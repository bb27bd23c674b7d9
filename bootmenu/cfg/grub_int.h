/* grub_int.h - the grub interpreter's state, shared by grub.c (configs,
 * menus, defaults), grub_exec.c (words, variables, control flow) and
 * grub_cmd.c (the commands). Not for other rooms: they call
 * grub_parse_fs() (cfg.h) or grub_interpret() below.
 *
 * Everything here lives in the scan's arena; one struct grub_run exists
 * per config file grub_parse_fs() starts from, on the caller's stack.
 */
#ifndef BM_CFG_GRUB_INT_H
#define BM_CFG_GRUB_INT_H

#include "cfg/cfg.h"
#include "cfg/grub_parse.h"

#include <stdbool.h>
#include <stddef.h>

/* Longest word or variable value an expansion builds; longer is cut. */
#define GRUB_VALUE_MAX (64u << 10)
/* Memory one run may take for values and parsed files (set a=$a$a...). */
#define GRUB_BYTES_MAX (32u << 20)
/* Deepest function call nesting (recursion ends here). */
#define GRUB_CALL_DEPTH 32
/* Most warnings one run records; the rest are counted in one line. */
#define GRUB_WARN_MAX 100
/* Steps one entry or submenu body may take (from CFG_STEPS_MAX, which
 * all bodies of a config share once more), so one looping entry does not
 * cost the others theirs. */
#define GRUB_ENTRY_STEPS 20000
/* Most initrd files one entry loads. */
#define GRUB_INITRD_MAX 64

struct grub_var {
	struct grub_var *next;
	const char *name, *value;
	bool exported;
};

struct grub_func {
	struct grub_func *next;
	const char *name;
	const struct grub_node *body;
	const struct fs_root *fs; /* where it was defined, for warnings */
	const char *file;
};

struct grub_argv {
	const char **v;
	size_t n, cap;
};

enum grub_item_kind { GI_ENTRY, GI_SUBMENU, GI_READY };

/* A menu line as `menuentry`/`submenu`/`blscfg` defined it. Bodies run
 * only when the menu is built (GRUB runs them when one is chosen, with
 * the variables the whole config left). */
struct grub_item {
	struct grub_item *next;
	enum grub_item_kind kind;
	const char *title, *id;
	int line;
	const struct fs_root *fs;
	const char *file;
	const struct grub_node *body;
	struct grub_argv args; /* $1 = title, $2... = the other arguments */
	struct entry *ready;   /* GI_READY: a BLS entry from blscfg */
};

struct grub_menu {
	struct grub_item *head, **tail;
	size_t n;
};

/* What an entry body loaded. */
struct grub_load {
	const struct fs_root *fs; /* the entry's own filesystem */
	bool have_kernel;
	struct entry_file kernel;
	const char *cmdline;
	struct entry_file initrds[GRUB_INITRD_MAX];
	size_t n_initrds;
	const char *devicetree;
	const char *disabled;
	struct grub_menu *sub; /* `configfile` in the body: its menu */
	struct grub_var *sub_vars;
};

enum grub_flow { GF_NONE, GF_BREAK, GF_CONTINUE, GF_RETURN, GF_STOP };

struct grub_run {
	struct cfg_ctx *ctx;
	struct arena *a;
	long steps, step_limit;
	long body_budget; /* steps left for entry and submenu bodies */
	size_t bytes, byte_limit;
	bool over; /* a limit was hit: nothing more runs */
	int n_warn;
	struct grub_var *vars;
	struct grub_func *funcs;
	struct grub_menu *menu;	  /* where menuentry adds; NULL in an entry */
	struct grub_argv *args;	  /* $1...$9, $#, $@ */
	const struct fs_root *fs; /* the file being run */
	const char *file;
	int line;
	int include_depth, call_depth;
	int status; /* $? */
	enum grub_flow flow;
	int loops;		  /* enclosing loops, for break/continue */
	struct grub_load *load;	  /* non-NULL while an entry body runs */
	const char **warned_devs; /* devices already warned about */
	size_t n_warned_devs;
};

/* grub_exec.c */
void grub_warn(struct grub_run *st, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool grub_step(struct grub_run *st);
bool grub_charge(struct grub_run *st, size_t bytes);
const char *grub_get(struct grub_run *st, const char *name);
void grub_set(struct grub_run *st, const char *name, const char *value);
void grub_unset(struct grub_run *st, const char *name);
void grub_export(struct grub_run *st, const char *name);
struct grub_var *grub_vars_copy(struct grub_run *st, const struct grub_var *v,
				bool exported_only);
void grub_argv_push(struct grub_run *st, struct grub_argv *av, const char *s);
/* Expand @raw (quotes, $vars) into fields appended to @out; with @join the
 * whole word becomes one field (assignments). */
void grub_expand(struct grub_run *st, const char *raw, bool join,
		 struct grub_argv *out);
/* Substitute $var/${var} only (BLS options lines). */
const char *grub_subst(struct grub_run *st, const char *s);
int grub_exec_list(struct grub_run *st, const struct grub_node *n);
/* Parse and run text as part of the current file. */
int grub_exec_text(struct grub_run *st, const char *buf, size_t len);

/* grub_cmd.c */
/* Run builtin argv[0]; returns its status, or -ENOENT when unknown. */
int grub_cmd_run(struct grub_run *st, struct grub_argv *av);
/* Split "(dev)/path" or "/path" (on $root) into a filesystem (NULL when
 * not known now) and the spec an entry_file.dev takes for it. */
void grub_file_ref(struct grub_run *st, const char *word,
		   const struct fs_root **fs, const char **spec,
		   const char **path);
/* The filesystem a grub device name means, as above. */
void grub_dev_find(struct grub_run *st, const char *dev,
		   const struct fs_root **fs, const char **spec);
/* How the interpreter names a filesystem in $root: "UUID=...", ... */
const char *grub_fs_spec(struct grub_run *st, const struct fs_root *fs);

/* grub.c */
void grub_menu_init(struct grub_menu *m);
void grub_menu_add(struct grub_menu *m, struct grub_item *it);
/* Run the config at @path on @fs in the current state. Returns 0, or
 * -errno when it cannot be read (nothing ran). */
int grub_run_file(struct grub_run *st, const struct fs_root *fs,
		  const char *path);
/* configfile: run @path in a new context; see grub.c. */
int grub_configfile(struct grub_run *st, const struct fs_root *fs,
		    const char *path);
int grub_blscfg(struct grub_run *st);

#endif
