/* grub_env.c - the GRUB environment block reader (grub-core/lib/envblk.c's
 * format: lines of NAME=VALUE after the signature, '#' lines ignored). */
#include "cfg/grub_env.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Copy one line starting at buf[*off] into out (unescaping), advancing
 * *off past its newline; *eq is the first '=' not escaped (or NULL).
 * Returns the length written. */
static size_t grub_env_line(const char *buf, size_t len, size_t *off, char *out,
			    char **eq)
{
	size_t i = *off, n = 0;

	*eq = NULL;
	while (i < len && buf[i] != '\n') {
		if (buf[i] == '\\' && i + 1 < len)
			i++;
		else if (buf[i] == '=' && !*eq)
			*eq = out + n;
		out[n++] = buf[i++];
	}
	*off = i < len ? i + 1 : i;
	out[n] = '\0';
	return n;
}

static int grub_env_valid_name(const char *s, size_t n)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '.' ||
		      s[i] == '-'))
			return 0;
	return 1;
}

int grub_env_parse(const char *buf, size_t len, grub_env_fn fn, void *data)
{
	size_t sig = strlen(GRUB_ENV_SIGNATURE), off = sig;
	int count = 0;
	char *line;

	if (len > GRUB_ENV_MAX)
		return -EFBIG;
	if (len < sig || memcmp(buf, GRUB_ENV_SIGNATURE, sig))
		return -EINVAL;
	line = malloc(len + 1);
	if (!line)
		return -ENOMEM;
	while (off < len) {
		char *eq;
		size_t n = grub_env_line(buf, len, &off, line, &eq);

		if (!n || line[0] == '#' || !eq ||
		    !grub_env_valid_name(line, (size_t)(eq - line)))
			continue;
		*eq = '\0';
		count++;
		if (fn(data, line, eq + 1))
			break;
	}
	free(line);
	return count;
}
