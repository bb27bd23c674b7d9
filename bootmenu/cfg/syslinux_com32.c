/* syslinux_com32.c - the COM32 modules that only pick a command to run,
 * read as syslinux 6.04's com32/modules/ do, and the ones that are the
 * menu itself.
 *
 * A module gets its command line split at blanks (create_args_and_load());
 * the branch it picks is joined back with single blanks and run as if
 * typed at the boot: prompt (syslinux_run_command()), or, when empty,
 * the default (syslinux_run_default()).
 */
#include "cfg/syslinux_com32.h"
#include "cfg/cfg_text.h"
#include "util/arena.h"

#include <string.h>
#include <strings.h>

/* The words of @args, owned by @a; at most SYSLINUX_ARGS_MAX. */
struct sl_words {
	const char *v[SYSLINUX_ARGS_MAX];
	size_t n;
};

static void sl_split(struct arena *a, const char *args, struct sl_words *w)
{
	const char *p = args;

	w->n = 0;
	while (*p && w->n < SYSLINUX_ARGS_MAX) {
		size_t n;

		p += strspn(p, " \t");
		n = strcspn(p, " \t");
		if (n)
			w->v[w->n++] = arena_strndup(a, p, n);
		p += n;
	}
}

/* Words [from, to) joined by one blank. */
static char *sl_join(struct arena *a, const struct sl_words *w, size_t from,
		     size_t to)
{
	char *out = arena_strdup(a, "");

	for (size_t i = from; i < to && i < w->n; i++)
		out = cfg_text_join(a, out, w->v[i]);
	return out;
}

static bool sl_base_is(const char *file, const char *name)
{
	size_t n = strcspn(file, " \t"), len = strlen(name);
	const char *base = file + n;

	while (base > file && base[-1] != '/' && base[-1] != ':')
		base--;
	return (size_t)(file + n - base) == len &&
	       !strncasecmp(base, name, len);
}

bool sl_com32_menu(const char *file)
{
	return sl_base_is(file, "vesamenu.c32") || sl_base_is(file, "menu.c32");
}

bool sl_com32_dispatcher(const char *file)
{
	return sl_base_is(file, "whichsys.c32") ||
	       sl_base_is(file, "ifcpu64.c32") || sl_base_is(file, "ifcpu.c32");
}

static bool sl_is_tag(const char *w)
{
	return !strcmp(w, "-iso-") || !strcmp(w, "-pxe-") ||
	       !strcmp(w, "-sys-");
}

/* whichsys.c: "[-iso- command] [-pxe- command] [-sys- command]"; each
 * command runs to the next tag, the last one for a variant counts. */
static const char *sl_whichsys(struct sl_parse *s, const struct sl_words *w,
			       const char **why)
{
	static const char *const tags[] = {"-sys-", "-iso-", "-pxe-"};
	static const char *const names[] = {"SYSLINUX", "ISOLINUX", "PXELINUX"};
	size_t at = 0, end;
	bool found = false;

	for (size_t i = 0; i < w->n; i++) {
		if (!strcmp(w->v[i], tags[s->variant])) {
			at = i + 1;
			found = true;
		}
	}
	if (!found) {
		*why = arena_printf(s->ctx->a,
				    "whichsys.c32 names no command for %s",
				    names[s->variant]);
		return NULL;
	}
	for (end = at; end < w->n && !sl_is_tag(w->v[end]); end++)
		;
	return sl_join(s->ctx->a, w, at, end);
}

/* ifcpu64.c: "64bit [-- 32pae] -- 32": a 64-bit CPU takes the words
 * before the first "--". */
static const char *sl_ifcpu64(struct sl_parse *s, const struct sl_words *w)
{
	size_t end = 0;

	while (end < w->n && strcmp(w->v[end], "--"))
		end++;
	return sl_join(s->ctx->a, w, 0, end);
}

/* How ifcpu.c's CPU features read on the machine bootmenu runs on: a
 * 64-bit x86 CPU has "64" (lm) and "pae". The others (hvm, multicore,
 * smp, hypervisor) depend on the machine: taken as absent, so the second
 * branch, the one any machine can boot, is followed. */
static bool sl_ifcpu_has(const char *w, bool *dry)
{
	if (!strcmp(w, "dry-run"))
		*dry = true;
	return strcmp(w, "hvm") && strcmp(w, "multicore") && strcmp(w, "smp") &&
	       strcmp(w, "hypervisor");
}

/* ifcpu.c: "<options> <features> -- boot_entry_1 -- boot_entry_2": the
 * words are read as features until the second "--"; entry 1 when all
 * match. With one "--" both entries are the same. */
static const char *sl_ifcpu(struct sl_parse *s, const struct sl_words *w,
			    const char **why)
{
	size_t at[2] = {0, 0}, n = 0, end1 = w->n;
	bool match = true, dry = false;

	for (size_t i = 0; i < w->n && n < 2; i++) {
		if (!strcmp(w->v[i], "--")) {
			if (n == 1)
				end1 = i;
			at[n++] = i + 1;
		} else {
			match = sl_ifcpu_has(w->v[i], &dry) && match;
		}
	}
	if (!n || dry) {
		*why = dry ? "ifcpu.c32 dry-run: boots nothing"
			   : "ifcpu.c32 without \"--\": boots nothing";
		return NULL;
	}
	if (n == 1)
		return sl_join(s->ctx->a, w, at[0], w->n);
	return match ? sl_join(s->ctx->a, w, at[0], end1)
		     : sl_join(s->ctx->a, w, at[1], w->n);
}

const char *sl_com32_branch(struct sl_parse *s, const char *file,
			    const char *args, const char **why)
{
	struct sl_words w;

	sl_split(s->ctx->a, args, &w);
	if (sl_base_is(file, "whichsys.c32"))
		return sl_whichsys(s, &w, why);
	if (sl_base_is(file, "ifcpu64.c32"))
		return sl_ifcpu64(s, &w);
	return sl_ifcpu(s, &w, why);
}
