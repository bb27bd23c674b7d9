/* entry_print.c - --list and --list --json. */
#include "entry/entry_print.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/json.h"

#include <stdlib.h>
#include <string.h>

static const char *fs_name(const struct fs_root *fs)
{
	return fs ? fs->name : NULL;
}

/* "path" on the entry's own filesystem, "name:path" on another one, and
 * "?spec:path" when the other one has not been found. */
static void print_file(FILE *f, const struct entry *e,
		       const struct entry_file *x)
{
	if (x->fs && x->fs != e->fs)
		fprintf(f, "%s:", x->fs->name);
	else if (!x->fs && x->dev)
		fprintf(f, "?%s:", x->dev);
	fputs(x->path ? x->path : "-", f);
}

void entry_print_text(FILE *f, const struct entry_list *l,
		      const struct entry *def)
{
	int n = 0;

	for (const struct entry *e = l->head; e; e = e->next) {
		fprintf(f, "%d%s %s%s%s [%s] %s:", n++, e == def ? "*" : " ",
			e->group ? e->group : "", e->group ? ">" : "", e->title,
			entry_format_name(e->format), fs_name(e->fs));
		print_file(f, e, &e->kernel);
		for (size_t i = 0; i < e->n_initrds; i++) {
			fputs(i ? "," : " initrd=", f);
			print_file(f, e, &e->initrds[i]);
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

static void json_file(FILE *f, const struct entry *e,
		      const struct entry_file *x)
{
	fputs("{\"path\":", f);
	json_str(f, x->path);
	fputs(",\"device\":", f);
	json_str(f, x->fs ? x->fs->name : NULL);
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

/* ,"signed":..,"signer":.. for a kernel kexec boots */
static void json_signer(FILE *f, const struct entry *e,
			const struct entry_print_extra *x)
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

static void json_entry(FILE *f, const struct entry *e, bool def,
		       const struct entry_print_extra *x)
{
	const char *const head[][2] = {
	    {"title", e->title},
	    {"group", e->group},
	    {"format", entry_format_name(e->format)},
	    {"method", e->method == ENTRY_FIRMWARE ? "firmware" : "kexec"},
	    {"kernel", e->kernel.path},
	};
	const char *const tail[][2] = {
	    {"cmdline", e->cmdline}, {"devicetree", e->devicetree},
	    {"version", e->version}, {"device", fs_name(e->fs)},
	    {"source", e->source},
	};

	fputs("{\"id\":", f);
	json_str(f, e->id);
	json_pairs(f, head, sizeof(head) / sizeof(head[0]));
	fputs(",\"kernel_file\":", f);
	json_file(f, e, &e->kernel);
	fputs(",\"initrds\":", f);
	json_initrds(f, e, false);
	fputs(",\"initrd_files\":", f);
	json_initrds(f, e, true);
	json_pairs(f, tail, sizeof(tail) / sizeof(tail[0]));
	fprintf(f, ",\"line\":%d,\"default\":%s,\"disabled\":", e->line,
		def ? "true" : "false");
	json_str(f, e->disabled);
	json_signer(f, e, x);
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

void entry_print_json(FILE *f, const struct entry_list *l,
		      const struct entry *def,
		      const struct entry_print_extra *x)
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
		json_entry(f, e, e == def, x);
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
