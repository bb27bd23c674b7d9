/* model.c - rows, selection and countdown of the menu. */
#include "ui/model.h"
#include "entry/entry.h"
#include "scan/fs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *fs_key_name(const struct fs_root *fs)
{
	return fs && fs->name ? fs->name : "?";
}

static void open_key(char *out, const struct fs_root *fs, const char *path)
{
	snprintf(out, UI_KEY_LEN, "%s\x1f%s", fs_key_name(fs), path);
}

static bool is_open(const struct ui_model *m, const struct fs_root *fs,
		    const char *path)
{
	char k[UI_KEY_LEN];

	open_key(k, fs, path);
	for (size_t i = 0; i < m->n_open; i++)
		if (!strcmp(m->open[i], k))
			return true;
	return false;
}

static void set_open(struct ui_model *m, const struct fs_root *fs,
		     const char *path, bool open)
{
	char k[UI_KEY_LEN];

	open_key(k, fs, path);
	for (size_t i = 0; i < m->n_open; i++) {
		if (strcmp(m->open[i], k))
			continue;
		if (!open)
			memcpy(m->open[i], m->open[--m->n_open], UI_KEY_LEN);
		return;
	}
	if (open && m->n_open < UI_OPEN_MAX)
		memcpy(m->open[m->n_open++], k, UI_KEY_LEN);
}

static const char *keep_str(struct ui_model *m, const char *s, size_t n)
{
	char *c;

	if (m->n_strs == m->cap_strs) {
		size_t cap = m->cap_strs ? m->cap_strs * 2 : 64;
		char **p = realloc(m->strs, cap * sizeof(*p));

		if (!p)
			return NULL;
		m->strs = p;
		m->cap_strs = cap;
	}
	c = strndup(s, n);
	if (c)
		m->strs[m->n_strs++] = c;
	return c;
}

static struct ui_row *add_row(struct ui_model *m, enum ui_row_kind kind,
			      const struct fs_root *fs, int depth)
{
	struct ui_row *r;

	if (m->n_rows == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		struct ui_row *p = realloc(m->rows, cap * sizeof(*p));

		if (!p)
			return NULL;
		m->rows = p;
		m->cap = cap;
	}
	r = &m->rows[m->n_rows++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->fs = fs;
	r->depth = depth;
	return r;
}

/* "grub /boot/grub/grub.cfg, bls /loader/entries" for @fs's header. */
static const char *fs_configs(struct ui_model *m, const struct entry_list *l,
			      const struct fs_root *fs)
{
	char buf[512] = "";
	size_t n = 0;
	const char *seen[4];
	size_t n_seen = 0;

	for (const struct entry *e = l->head; e && n_seen < 4; e = e->next) {
		bool dup = false;

		if (e->fs != fs || !e->source)
			continue;
		for (size_t i = 0; i < n_seen; i++)
			dup |= !strcmp(seen[i], e->source);
		if (dup)
			continue;
		seen[n_seen++] = e->source;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s %s",
				      n ? ", " : "",
				      entry_format_name(e->format), e->source);
		if (n >= sizeof(buf))
			break;
	}
	return keep_str(m, buf, strlen(buf));
}

/* How many leading '>'-separated parts @a and @b share. */
static size_t common_parts(const char *a, const char *b)
{
	size_t parts = 0;

	while (*a && *b) {
		size_t na = strcspn(a, ">"), nb = strcspn(b, ">");

		if (na != nb || strncmp(a, b, na))
			break;
		parts++;
		a += na + (a[na] ? 1 : 0);
		b += nb + (b[nb] ? 1 : 0);
	}
	return parts;
}

/* Emit the group rows between @prev and @path; returns false when the
 * entry itself is hidden inside a closed group. */
static int add_groups(struct ui_model *m, const struct fs_root *fs,
		      const char *prev, const char *path)
{
	size_t k = common_parts(prev, path), depth = 0;
	const char *p = path;

	for (; *p; depth++) {
		const char *end = strchr(p, '>');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		size_t plen = (size_t)(p - path) + n;
		const char *full = keep_str(m, path, plen);

		if (!full)
			return -ENOMEM;
		if (depth >= k) {
			struct ui_row *r =
			    add_row(m, UI_ROW_GROUP, fs, (int)depth);

			if (!r)
				return -ENOMEM;
			r->label = keep_str(m, p, n);
			r->path = full;
			r->open = is_open(m, fs, full);
		}
		if (!is_open(m, fs, full))
			return 0;
		p += n;
		if (*p)
			p++;
	}
	return 1;
}

/* Rows of one filesystem's entries, groups as they open. */
static int add_fs_rows(struct ui_model *m, const struct entry_list *l,
		       const struct fs_root *fs)
{
	const char *prev = "";
	struct ui_row *h = add_row(m, UI_ROW_FS, fs, 0);

	if (!h)
		return -ENOMEM;
	h->configs = fs_configs(m, l, fs);
	for (const struct entry *e = l->head; e; e = e->next) {
		const char *g = e->group ? e->group : "";
		struct ui_row *r;
		int vis;

		if (e->fs != fs || e->method == ENTRY_UNLOCK)
			continue;
		vis = add_groups(m, fs, prev, g);
		prev = g;
		if (vis < 0)
			return vis;
		if (!vis)
			continue;
		r = add_row(m, UI_ROW_ENTRY, fs, 0);
		if (!r)
			return -ENOMEM;
		for (const char *c = g; *g && c; c = strchr(c + 1, '>'))
			r->depth++;
		r->e = e;
	}
	return 0;
}

static void free_rows(struct ui_model *m)
{
	for (size_t i = 0; i < m->n_strs; i++)
		free(m->strs[i]);
	m->n_strs = 0;
	m->n_rows = 0;
}

static void remember_sel(struct ui_model *m)
{
	const struct ui_row *r;

	m->have_sel = m->sel < m->n_rows;
	if (!m->have_sel)
		return;
	r = &m->rows[m->sel];
	snprintf(m->sel_fs, UI_KEY_LEN, "%s", fs_key_name(r->fs));
	snprintf(m->sel_id, UI_KEY_LEN, "%s", r->e && r->e->id ? r->e->id : "");
	snprintf(m->sel_group, UI_KEY_LEN, "%s", r->path ? r->path : "");
}

void ui_model_forget(struct ui_model *m)
{
	if (m->n_rows)
		remember_sel(m);
	m->n_rows = 0;
}

static bool row_is_sel(const struct ui_model *m, const struct ui_row *r)
{
	if (strcmp(fs_key_name(r->fs), m->sel_fs))
		return false;
	if (r->kind == UI_ROW_ENTRY)
		return !m->sel_group[0] && r->e->id &&
		       !strcmp(r->e->id, m->sel_id);
	return r->kind == UI_ROW_GROUP && m->sel_group[0] &&
	       !strcmp(r->path, m->sel_group);
}

static void open_groups_of(struct ui_model *m, const struct entry *e)
{
	const char *g = e->group;
	char path[UI_KEY_LEN];

	if (!g)
		return;
	for (const char *p = strchr(g, '>'); p; p = strchr(p + 1, '>')) {
		snprintf(path, sizeof(path), "%.*s", (int)(p - g), g);
		set_open(m, e->fs, path, true);
	}
	set_open(m, e->fs, g, true);
}

/* The locked volumes' lines (ENTRY_UNLOCK: no filesystem) under one
 * header of their own (fs NULL). */
static int add_locked_rows(struct ui_model *m, const struct entry_list *l)
{
	bool head = false;

	for (const struct entry *e = l->head; e; e = e->next) {
		struct ui_row *r;

		if (e->method != ENTRY_UNLOCK)
			continue;
		if (!head && !add_row(m, UI_ROW_FS, NULL, 0))
			return -ENOMEM;
		head = true;
		r = add_row(m, UI_ROW_ENTRY, NULL, 0);
		if (!r)
			return -ENOMEM;
		r->e = e;
	}
	return 0;
}

static int build_rows(struct ui_model *m, const struct entry_list *l)
{
	const struct fs_root *done[256];
	size_t n_done = 0;

	free_rows(m);
	for (const struct entry *e = l->head; e; e = e->next) {
		bool seen = false;
		int rc;

		if (e->method == ENTRY_UNLOCK)
			continue;
		for (size_t i = 0; i < n_done; i++)
			seen |= done[i] == e->fs;
		if (seen)
			continue;
		if (n_done < 256)
			done[n_done++] = e->fs;
		rc = add_fs_rows(m, l, e->fs);
		if (rc)
			return rc;
	}
	return add_locked_rows(m, l);
}

static void select_first(struct ui_model *m)
{
	m->sel = 0;
	while (m->sel < m->n_rows && m->rows[m->sel].kind == UI_ROW_FS)
		m->sel++;
	if (m->sel == m->n_rows)
		m->sel = 0;
}

bool ui_model_select(struct ui_model *m, const struct entry_list *l,
		     const struct entry *e)
{
	open_groups_of(m, e);
	if (build_rows(m, l))
		return false;
	for (size_t i = 0; i < m->n_rows; i++)
		if (m->rows[i].e == e) {
			m->sel = i;
			return true;
		}
	return false;
}

int ui_model_build(struct ui_model *m, const struct entry_list *l,
		   const struct entry *def)
{
	bool had = m->have_sel || m->n_rows;
	int rc;

	if (m->n_rows)
		remember_sel(m);
	m->def = def;
	if (!had && def)
		open_groups_of(m, def);
	rc = build_rows(m, l);
	if (rc)
		return rc;
	for (size_t i = 0; m->have_sel && i < m->n_rows; i++)
		if (row_is_sel(m, &m->rows[i])) {
			m->sel = i;
			return 0;
		}
	if (def && ui_model_select(m, l, def))
		return 0;
	select_first(m);
	return 0;
}

void ui_model_free(struct ui_model *m)
{
	free_rows(m);
	free(m->strs);
	free(m->rows);
	m->strs = NULL;
	m->rows = NULL;
	m->cap = m->cap_strs = 0;
}

void ui_model_move(struct ui_model *m, int delta)
{
	int step = delta < 0 ? -1 : 1;

	for (int left = delta < 0 ? -delta : delta; left > 0; left--) {
		size_t i = m->sel;

		do {
			if ((step < 0 && i == 0) ||
			    (step > 0 && i + 1 >= m->n_rows))
				return;
			i += (size_t)(ssize_t)step;
		} while (m->rows[i].kind == UI_ROW_FS);
		m->sel = i;
	}
}

void ui_model_home(struct ui_model *m)
{
	select_first(m);
}

void ui_model_end(struct ui_model *m)
{
	if (m->n_rows)
		m->sel = m->n_rows - 1;
	while (m->sel > 0 && m->rows[m->sel].kind == UI_ROW_FS)
		m->sel--;
}

bool ui_model_set_open(struct ui_model *m, const struct entry_list *l, int open)
{
	struct ui_row *r;
	bool now;

	if (m->sel >= m->n_rows)
		return false;
	r = &m->rows[m->sel];
	if (r->kind != UI_ROW_GROUP)
		return false;
	now = open < 0 ? !r->open : open;
	if (now == r->open)
		return false;
	set_open(m, r->fs, r->path, now);
	ui_model_build(m, l, m->def);
	return true;
}

void ui_model_scroll(struct ui_model *m, int height)
{
	size_t h = height > 0 ? (size_t)height : 1;

	if (m->sel < m->top)
		m->top = m->sel;
	/* show the filesystem header over the first entry */
	if (m->top && m->top == m->sel && m->rows[m->top - 1].kind == UI_ROW_FS)
		m->top--;
	if (m->sel >= m->top + h)
		m->top = m->sel - h + 1;
	if (m->top + h > m->n_rows)
		m->top = m->n_rows > h ? m->n_rows - h : 0;
}

const struct entry *ui_model_selected(const struct ui_model *m)
{
	if (m->sel >= m->n_rows || m->rows[m->sel].kind != UI_ROW_ENTRY)
		return NULL;
	return m->rows[m->sel].e;
}

void ui_count_start(struct ui_model *m, int timeout_s, long long now_ms)
{
	m->timeout_s = timeout_s;
	m->counting = timeout_s >= 0;
	m->deadline_ms = now_ms + (long long)timeout_s * 1000;
}

void ui_count_stop(struct ui_model *m)
{
	m->counting = false;
}

int ui_count_left(const struct ui_model *m, long long now_ms)
{
	long long left;

	if (!m->counting)
		return -1;
	left = m->deadline_ms - now_ms;
	return left <= 0 ? 0 : (int)((left + 999) / 1000);
}

bool ui_count_expired(struct ui_model *m, long long now_ms)
{
	if (!m->counting || now_ms < m->deadline_ms)
		return false;
	m->counting = false;
	return true;
}
