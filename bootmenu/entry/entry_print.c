/* entry_print.c - --list and --list --json. */
#include "entry/entry_print.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/json.h"

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

static void json_entry(FILE *f, const struct entry *e, bool def)
{
	fputs("{\"id\":", f);
	json_str(f, e->id);
	fputs(",\"title\":", f);
	json_str(f, e->title);
	fputs(",\"group\":", f);
	json_str(f, e->group);
	fputs(",\"format\":", f);
	json_str(f, entry_format_name(e->format));
	fputs(",\"kernel\":", f);
	json_str(f, e->kernel.path);
	fputs(",\"kernel_file\":", f);
	json_file(f, e, &e->kernel);
	fputs(",\"initrds\":[", f);
	for (size_t i = 0; i < e->n_initrds; i++) {
		if (i)
			fputc(',', f);
		json_str(f, e->initrds[i].path);
	}
	fputs("],\"initrd_files\":[", f);
	for (size_t i = 0; i < e->n_initrds; i++) {
		if (i)
			fputc(',', f);
		json_file(f, e, &e->initrds[i]);
	}
	fputs("],\"cmdline\":", f);
	json_str(f, e->cmdline);
	fputs(",\"devicetree\":", f);
	json_str(f, e->devicetree);
	fputs(",\"version\":", f);
	json_str(f, e->version);
	fputs(",\"device\":", f);
	json_str(f, fs_name(e->fs));
	fputs(",\"source\":", f);
	json_str(f, e->source);
	fprintf(f, ",\"line\":%d,\"default\":%s,\"disabled\":", e->line,
		def ? "true" : "false");
	json_str(f, e->disabled);
	fputc('}', f);
}

void entry_print_json(FILE *f, const struct entry_list *l,
		      const struct entry *def)
{
	fputc('[', f);
	for (const struct entry *e = l->head; e; e = e->next) {
		if (e != l->head)
			fputc(',', f);
		fputs("\n  ", f);
		json_entry(f, e, e == def);
	}
	fputs("\n]\n", f);
}
