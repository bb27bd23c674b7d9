/* model.h - what the menu shows, without a screen.
 *
 * The rows (a header per filesystem, submenus as groups that open and
 * close, entries), the selection, the scroll position and the countdown.
 * Drawing (ui/draw.c) only reads this; keys change it through the calls
 * below, so selection, grouping, default choice and countdown are tested
 * without a terminal (tests/unit/test_ui_model.c).
 *
 * Rows point into the entry list they were built from; before the list is
 * freed (a rescan) call ui_model_forget(), then ui_model_build() again.
 * The model owns its row array; ui_model_free() releases it.
 */
#ifndef BM_UI_MODEL_H
#define BM_UI_MODEL_H

#include <stdbool.h>
#include <stddef.h>

struct entry;
struct entry_list;
struct fs_root;

#define UI_OPEN_MAX 64 /* submenus remembered as open */
#define UI_KEY_LEN 256 /* "fsname\x1fgroup>path" */

enum ui_row_kind { UI_ROW_FS, UI_ROW_GROUP, UI_ROW_ENTRY };

struct ui_row {
	enum ui_row_kind kind;
	int depth; /* 0 for top-level entries and groups */
	const struct fs_root *fs;
	const struct entry *e; /* UI_ROW_ENTRY */
	const char *label;     /* UI_ROW_GROUP: its last path part */
	const char *path;      /* UI_ROW_GROUP: full path, in e's arena */
	bool open;	       /* UI_ROW_GROUP */
	const char *configs;   /* UI_ROW_FS: "grub /boot/grub/grub.cfg" */
};

struct ui_model {
	struct ui_row *rows;
	size_t n_rows, cap;
	size_t sel, top; /* selected row (never UI_ROW_FS), first shown */
	const struct entry *def; /* the default entry, or NULL */
	char open[UI_OPEN_MAX][UI_KEY_LEN];
	size_t n_open;
	char **strs; /* the rows' strings, owned */
	size_t n_strs, cap_strs;
	/* what was selected, by name, to find it again after a rebuild */
	char sel_fs[UI_KEY_LEN], sel_id[UI_KEY_LEN], sel_group[UI_KEY_LEN];
	bool have_sel;
	/* countdown */
	int timeout_s;	       /* -1: none */
	long long deadline_ms; /* when counting */
	bool counting;
};

/* (Re)build the rows of @l with @def as the default; the selection stays
 * on the entry or group it was on when that is still there, else moves to
 * the default (whose groups are opened). Returns 0 or -ENOMEM. */
int ui_model_build(struct ui_model *m, const struct entry_list *l,
		   const struct entry *def);
void ui_model_free(struct ui_model *m);
/* Before the list is freed (a rescan): keep the selection by name only,
 * drop the rows that point into the list. */
void ui_model_forget(struct ui_model *m);

/* Move the selection by @delta selectable rows (clamped); home/end. */
void ui_model_move(struct ui_model *m, int delta);
void ui_model_home(struct ui_model *m);
void ui_model_end(struct ui_model *m);
/* Open or close the group under the selection (@open: 1, 0; -1 toggles).
 * Returns true when a group changed. The caller rebuilds nothing: the
 * rows are rebuilt here from @l. */
bool ui_model_set_open(struct ui_model *m, const struct entry_list *l,
		       int open);
/* Keep the selection within rows top..top+height-1. */
void ui_model_scroll(struct ui_model *m, int height);
/* The entry under the selection, or NULL (a group). */
const struct entry *ui_model_selected(const struct ui_model *m);
/* Select @e's row (opening its groups); false when it is not listed. */
bool ui_model_select(struct ui_model *m, const struct entry_list *l,
		     const struct entry *e);

/* Countdown: start at @now_ms for @timeout_s (-1: never, 0: at once). */
void ui_count_start(struct ui_model *m, int timeout_s, long long now_ms);
void ui_count_stop(struct ui_model *m);
/* Whole seconds left (rounded up), or -1 when not counting. */
int ui_count_left(const struct ui_model *m, long long now_ms);
/* True once when the countdown ran out (it stops then). */
bool ui_count_expired(struct ui_model *m, long long now_ms);

#endif
