/* loader_conf.c - systemd-boot's /loader/loader.conf (loader.conf(5)):
 * "key value" lines, '#' comments. A menu needs `default` (a glob over
 * entry ids; "@saved" needs an EFI variable) and `timeout` (seconds, or
 * menu-force / menu-hidden / menu-disabled); the rest set up sd-boot.
 */
#include "cfg/loader_conf.h"
#include "cfg/bls_entry.h"
#include "cfg/cfg_text.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Most seconds accepted; more is clamped (tenths must fit an int). */
#define LOADER_TIMEOUT_MAX (INT_MAX / 10)

static const char *const loader_other_keys[] = {
    "editor",
    "auto-entries",
    "auto-firmware",
    "auto-poweroff",
    "auto-reboot",
    "console-mode",
    "random-seed-mode",
    "beep",
    "secure-boot-enroll",
    "reboot-for-bitlocker",
    "reboot-on-error",
    "preserve-efivars",
    "log-level",
    "sysfail",
    "windows-no-redirect",
};

static void loader_timeout(struct cfg_ctx *ctx, const char *path, int line,
			   const char *v, struct loader_conf *lc)
{
	char *end;
	long s;

	if (!strcmp(v, "menu-force")) {
		lc->timeout_ds = -1; /* wait for a key: no value for that */
		return;
	}
	if (!strcmp(v, "menu-hidden") || !strcmp(v, "menu-disabled")) {
		lc->timeout_ds = 0;
		return;
	}
	s = strtol(v, &end, 10);
	if (end == v || *end || s < 0) {
		entry_warn(ctx->out, ctx->fs, path, line,
			   "timeout '%.64s' is not a number of seconds", v);
		return;
	}
	lc->timeout_ds =
	    (int)(s > LOADER_TIMEOUT_MAX ? LOADER_TIMEOUT_MAX : s) * 10;
}

static void loader_key(struct cfg_ctx *ctx, const char *path,
		       const struct bls_kv *kv, struct loader_conf *lc)
{
	const char *w = kv->key, *v = kv->value;
	size_t wn = kv->key_len;
	int line = kv->line;

	if (cfg_text_eq_nocase(w, wn, "default")) {
		if (v[0] == '@') {
			entry_warn(
			    ctx->out, ctx->fs, path, line,
			    "default %.64s needs EFI variables: the first "
			    "entry is the default",
			    v);
			lc->default_pattern = NULL;
			return;
		}
		lc->default_pattern = v;
		return;
	}
	if (cfg_text_eq_nocase(w, wn, "timeout")) {
		loader_timeout(ctx, path, line, v, lc);
		return;
	}
	for (size_t i = 0;
	     i < sizeof(loader_other_keys) / sizeof(loader_other_keys[0]); i++)
		if (cfg_text_eq_nocase(w, wn, loader_other_keys[i]))
			return;
	entry_warn(ctx->out, ctx->fs, path, line, "unknown key '%.*s' ignored",
		   (int)(wn > 64 ? 64 : wn), w);
}

int loader_conf_parse(struct cfg_ctx *ctx, const char *path, const char *buf,
		      size_t len, struct loader_conf *lc)
{
	struct cfg_text_lines it;
	struct bls_kv kv;

	cfg_text_lines_init(&it, buf, len);
	while (bls_next_kv(ctx->a, &it, &kv))
		loader_key(ctx, path, &kv, lc);
	return 0;
}
