/* listing.c - --list and --list --json. */
#include "session/listing.h"
#include "choose/loader_id.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/json.h"

#include <stdlib.h>
#include <string.h>

static const char *fs_name(const struct fs_root *fs)
{
	return fs ? fs->name : NULL;
}

/* Where --list says a file is: on a btrfs filesystem, in the subvolume
 * that holds it (scan/fs.h fs_subvol()) with its path from there, and
 * named by the filesystem, whichever view found it; else as the root it
 * is on sees it. */
struct place {
	const struct fs_root *fs;
	const char *path;
	size_t sub; /* the subvolume is top[0..sub); 0: in none */
	char top[2 * FS_PATH_MAX];
};

static void place_of(struct place *p, const struct fs_root *fs,
		     const char *path)
{
	p->fs = fs;
	p->path = path;
	p->sub = 0;
	if (!fs || !fs->btrfs ||
	    fs_subvol(fs, path, p->top, sizeof(p->top), &p->sub) < 0 || !p->sub)
		return;
	p->fs = fs->btrfs->home;
	p->path = p->top[p->sub] ? p->top + p->sub : "/";
}

static bool same_place(const struct place *a, const struct place *b)
{
	return a->fs == b->fs && a->sub == b->sub &&
	       !memcmp(a->top, b->top, a->sub);
}

/* "name" or "name[subvolume]" */
static void print_where(FILE *f, const struct place *p)
{
	fprintf(f, "%s", fs_name(p->fs));
	if (p->sub)
		fprintf(f, "[%.*s]", (int)p->sub, p->top);
}

/* The device column: the entry's filesystem, and the subvolume that
 * holds the kernel @k when it is on that filesystem in one. */
static void place_column(struct place *col, const struct entry *e,
			 const struct place *k)
{
	if (k->sub && e->fs && e->fs->btrfs && k->fs == e->fs->btrfs->home)
		*col = *k;
	else
		place_of(col, e->fs, NULL);
}

/* "path" where the device column @col is, "name[subvolume]:path" or
 * "name:path" elsewhere, and "?spec:path" when the filesystem named has
 * not been found. */
static void print_file(FILE *f, const struct place *col,
		       const struct entry_file *x)
{
	struct place p;

	place_of(&p, x->fs, x->path);
	if (!x->fs && x->dev)
		fprintf(f, "?%s:", x->dev);
	else if (x->fs && !same_place(&p, col)) {
		print_where(f, &p);
		fputc(':', f);
	}
	fputs(p.path ? p.path : "-", f);
}

/* An ENTRY_UNLOCK entry: no files, its device. */
static void text_unlock(FILE *f, int n, const struct entry *e)
{
	fprintf(f, "%d  %s [luks] %s\n", n, e->title,
		e->unlock_dev ? e->unlock_dev : "-");
}

void listing_text(FILE *f, const struct entry_list *l, const struct entry *def)
{
	struct place k, col;
	int n = 0;

	for (const struct entry *e = l->head; e; e = e->next) {
		if (e->method == ENTRY_UNLOCK) {
			text_unlock(f, n++, e);
			continue;
		}
		place_of(&k, e->kernel.fs, e->kernel.path);
		place_column(&col, e, &k);
		fprintf(f, "%d%s %s%s%s [%s] ", n++, e == def ? "*" : " ",
			e->group ? e->group : "", e->group ? ">" : "", e->title,
			entry_format_name(e->format));
		print_where(f, &col);
		fputc(':', f);
		print_file(f, &col, &e->kernel);
		for (size_t i = 0; i < e->n_initrds; i++) {
			fputs(i ? "," : " initrd=", f);
			print_file(f, &col, &e->initrds[i]);
		}
		fprintf(f, " -- %s", e->cmdline);
		if (e->disabled)
			fprintf(f, " (disabled: %s)", e->disabled);
		fputc('\n', f);
	}
	for (const struct warning *w = l->warnings; w; w = w->next)
		fprintf(f, "warning: %s:%s:%d: %s\n", fs_name(w->fs),
			w->file ? w->file : "-", w->line, w->msg);
}

/* {"path", "device", "subvolume" (btrfs: the one holding the file, or
 * null), "spec"}: path and device as the parser found the file. */
static void json_file(FILE *f, const struct entry *e,
		      const struct entry_file *x)
{
	struct place p;

	place_of(&p, x->fs, x->path);
	p.top[p.sub] = '\0';
	fputs("{\"path\":", f);
	json_str(f, x->path);
	fputs(",\"device\":", f);
	json_str(f, x->fs ? x->fs->name : NULL);
	fputs(",\"subvolume\":", f);
	json_str(f, p.sub ? p.top : NULL);
	fputs(",\"spec\":", f);
	json_str(f, x->dev);
	fputc('}', f);
	(void)e;
}

/* The initrds as an array of paths, or (@files) of file objects. */
static void json_initrds(FILE *f, const struct entry *e, bool files)
{
	fputc('[', f);
	for (size_t i = 0; i < e->n_initrds; i++) {
		if (i)
			fputc(',', f);
		if (files)
			json_file(f, e, &e->initrds[i]);
		else
			json_str(f, e->initrds[i].path);
	}
	fputc(']', f);
}

/* ,"key":"value" for each pair of @kv[0..n). */
static void json_pairs(FILE *f, const char *const (*kv)[2], size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fprintf(f, ",\"%s\":", kv[i][0]);
		json_str(f, kv[i][1]);
	}
}

/* ,"multiboot":N,"modules":[{"path","cmdline","nounzip","file"}] for a
 * multiboot kernel (Xen): its modules in order */
static void json_modules(FILE *f, const struct entry *e)
{
	if (!e->multiboot)
		return;
	fprintf(f, ",\"multiboot\":%d,\"modules\":[", e->multiboot);
	for (size_t i = 0; i < e->n_modules; i++) {
		fputs(i ? ",{\"path\":" : "{\"path\":", f);
		json_str(f, e->modules[i].path);
		fputs(",\"cmdline\":", f);
		json_str(f, e->module_args ? e->module_args[i] : NULL);
		fprintf(f, ",\"nounzip\":%s,\"file\":",
			e->module_nounzip && e->module_nounzip[i] ? "true"
								  : "false");
		json_file(f, e, &e->modules[i]);
		fputc('}', f);
	}
	fputc(']', f);
}

/* ,"signed":..,"signer":.. for a kernel kexec boots */
static void json_signer(FILE *f, const struct entry *e,
			const struct listing_extra *x)
{
	char who[512];
	int rc;

	if (!x || !x->signer || e->method != ENTRY_KEXEC)
		return;
	rc = x->signer(e, who, sizeof(who));
	fprintf(f, ",\"signed\":%s,\"signer\":",
		rc > 0	  ? "true"
		: rc == 0 ? "false"
			  : "null");
	json_str(f, rc > 0 ? who : NULL);
}

static const char *method_name(enum entry_method m)
{
	switch (m) {
	case ENTRY_KEXEC:
		break;
	case ENTRY_FIRMWARE:
		return "firmware";
	case ENTRY_UNLOCK:
		return "unlock";
	}
	return "kexec";
}

static void json_entry(FILE *f, const struct entry_list *l,
		       const struct entry *e, bool def,
		       const struct listing_extra *x)
{
	char loader_id[CHOOSE_LOADER_ID_MAX];
	bool unlock = e->method == ENTRY_UNLOCK;
	const char *const head[][2] = {
	    {"title", e->title},
	    {"group", e->group},
	    {"format", unlock ? "luks" : entry_format_name(e->format)},
	    {"method", method_name(e->method)},
	    {"kernel", e->kernel.path},
	};
	const char *const tail[][2] = {
	    {"cmdline", e->cmdline},
	    {"devicetree", e->devicetree},
	    {"version", e->version},
	    {"device", unlock ? e->unlock_dev : fs_name(e->fs)},
	    {"source", e->source},
	};

	fputs("{\"id\":", f);
	json_str(f, e->id);
	/* what systemd's Boot Loader Interface calls it (LoaderEntries);
	 * a locked volume's line is none of its entries */
	choose_loader_id(l, e, loader_id);
	fputs(",\"loader_id\":", f);
	json_str(f, unlock ? NULL : loader_id);
	json_pairs(f, head, sizeof(head) / sizeof(head[0]));
	fputs(",\"kernel_file\":", f);
	json_file(f, e, &e->kernel);
	fputs(",\"initrds\":", f);
	json_initrds(f, e, false);
	fputs(",\"initrd_files\":", f);
	json_initrds(f, e, true);
	json_modules(f, e);
	json_pairs(f, tail, sizeof(tail) / sizeof(tail[0]));
	fprintf(f, ",\"line\":%d,\"default\":%s,\"disabled\":", e->line,
		def ? "true" : "false");
	json_str(f, e->disabled);
	json_signer(f, e, x);
	if (x && x->measure)
		x->measure(e, f, x->measure_ctx);
	fputc('}', f);
}

/* {"device":..,"file":..,"line":..,"message":..,"count":..}: the message
 * without the " (N times)" the text list shows; count says it. */
static void json_warning(FILE *f, const struct warning *w)
{
	char *msg = strndup(w->msg, w->msg_len);

	fputs("{\"device\":", f);
	json_str(f, fs_name(w->fs));
	fputs(",\"file\":", f);
	json_str(f, w->file);
	fprintf(f, ",\"line\":%d,\"message\":", w->line);
	json_str(f, msg ? msg : w->msg);
	fprintf(f, ",\"count\":%u}", w->count);
	free(msg);
}

void listing_json(FILE *f, const struct entry_list *l, const struct entry *def,
		  const struct listing_extra *x)
{
	fputc('{', f);
	if (x && x->secure_boot) {
		fputs("\"secure_boot\":{\"state\":", f);
		json_str(f, x->secure_boot);
		fputs(",\"lockdown\":", f);
		json_str(f,
			 x->lockdown && x->lockdown[0] ? x->lockdown : "none");
		fputs("},\n", f);
	}
	fputs("\"entries\":[", f);
	for (const struct entry *e = l->head; e; e = e->next) {
		if (e != l->head)
			fputc(',', f);
		fputs("\n  ", f);
		json_entry(f, l, e, e == def, x);
	}
	fputs("\n],\n\"warnings\":[", f);
	for (const struct warning *w = l->warnings; w; w = w->next) {
		if (w != l->warnings)
			fputc(',', f);
		fputs("\n  ", f);
		json_warning(f, w);
	}
	fputs("\n]}\n", f);
}
