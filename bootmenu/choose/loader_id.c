/* loader_id.c - Boot Loader Interface identifiers (loader_id.h). */
#include "choose/loader_id.h"
#include "entry/entry.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

/* Append @s to out[*o..]: allowed characters in lower case, each run of
 * others one '-', never first. */
static void id_put(const char *s, char *out, size_t *o)
{
	for (; s && *s && *o + 1 < CHOOSE_LOADER_ID_MAX; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x80 &&
		    (isalnum(c) || c == '+' || c == '_' || (c == '.' && *o)))
			out[(*o)++] = (char)tolower(c);
		else if (*o && out[*o - 1] != '-')
			out[(*o)++] = '-';
	}
	out[*o] = '\0';
}

void choose_loader_id_make(const char *prefix, const char *s,
			   char out[CHOOSE_LOADER_ID_MAX])
{
	size_t o = 0;

	out[0] = '\0';
	id_put(prefix, out, &o);
	id_put(s, out, &o);
	while (o && out[o - 1] == '-')
		out[--o] = '\0';
	/* a leading '.' is never put, so "." and ".." cannot come out */
	if (!o)
		snprintf(out, CHOOSE_LOADER_ID_MAX, "entry");
}

void choose_loader_id_base(const struct entry *e,
			   char out[CHOOSE_LOADER_ID_MAX])
{
	const char *id = e->id ? e->id : e->title;

	if (e->fw_setup)
		choose_loader_id_make(NULL, "auto-reboot-to-firmware-setup",
				      out);
	else if (e->fw_option || e->format == FMT_BARE || e->format == FMT_EFI)
		choose_loader_id_make("auto-", id, out);
	else
		choose_loader_id_make(NULL, id, out);
}

void choose_loader_id(const struct entry_list *l, const struct entry *e,
		      char out[CHOOSE_LOADER_ID_MAX])
{
	char other[CHOOSE_LOADER_ID_MAX];
	unsigned same = 0;
	size_t n;

	choose_loader_id_base(e, out);
	for (const struct entry *p = l->head; p && p != e; p = p->next) {
		choose_loader_id_base(p, other);
		same += !strcmp(other, out);
	}
	if (!same)
		return;
	n = strlen(out);
	if (n > CHOOSE_LOADER_ID_MAX - 12)
		n = CHOOSE_LOADER_ID_MAX - 12;
	snprintf(out + n, CHOOSE_LOADER_ID_MAX - n, "-%u", same + 1);
}

const struct entry *choose_loader_find(const struct entry_list *l,
				       const char *pattern)
{
	char id[CHOOSE_LOADER_ID_MAX], pat[CHOOSE_LOADER_ID_MAX];
	size_t i = 0;

	for (; pattern[i] && i + 1 < sizeof(pat); i++)
		pat[i] = (char)tolower((unsigned char)pattern[i]);
	pat[i] = '\0';
	if (!pat[0])
		return NULL;
	for (const struct entry *e = l->head; e; e = e->next) {
		/* a locked volume's line is no boot entry of the BLI's */
		if (e->method == ENTRY_UNLOCK)
			continue;
		choose_loader_id(l, e, id);
		if (!fnmatch(pat, id, 0))
			return e;
	}
	return NULL;
}
