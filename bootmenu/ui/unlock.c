/* unlock.c - Enter on a locked LUKS volume's line (issue #33).
 *
 * The TPM is asked first (a systemd-tpm2 token opens the volume with no
 * prompt, as systemd-cryptsetup does), then the passphrase, three tries
 * as cryptsetup's default (--tries 3). The key derivation of a keyslot
 * may take seconds: scan_unlock() calls back with its progress, which
 * repaints the box and lets Esc cancel. Every typed secret is wiped.
 */
#include "ui/screen.h"
#include "entry/entry.h"
#include "session/session.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define UNLOCK_TRIES 3
#define UNLOCK_NAME_MAX 128

/* What one dialog knows; copies, as rows are rebuilt under it. */
struct unlock {
	struct ui *u;
	char dev[UNLOCK_NAME_MAX], vol[UNLOCK_NAME_MAX];
	char title[UNLOCK_NAME_MAX * 3];
	int pct; /* last drawn, -1: none */
};

static void unlock_box(struct ui *u, const struct unlock *x, const char *text,
		       const char *footer)
{
	ui_draw_menu(u, NULL);
	ui_draw_box(u, UI_R_DIALOG, x->title, text, footer);
}

struct unlock_paint {
	const struct unlock *x;
	const char *text, *footer;
};

static void paint_unlock(struct ui *u, const void *arg)
{
	const struct unlock_paint *p = arg;

	unlock_box(u, p->x, p->text, p->footer);
}

static void unlock_show(struct unlock *x, const char *text)
{
	struct unlock_paint p = {x, text, "Esc cancel"};

	ui_paint(x->u, paint_unlock, &p);
}

/* scan_unlock()'s progress: the box again when the percentage moves;
 * nonzero (cancel) on Esc. */
static int unlock_progress(void *ctx, unsigned done, unsigned total)
{
	struct unlock *x = ctx;
	int pct = total ? (int)((unsigned long long)done * 100 / total) : 0;
	char text[64];

	if (ui_terms_key(&x->u->ts, 0, -1) == UI_KEY_ESC)
		return 1;
	if (pct == x->pct)
		return 0;
	x->pct = pct;
	snprintf(text, sizeof(text), "Trying the passphrase... %d%%", pct);
	unlock_show(x, text);
	return 0;
}

static void unlock_say(struct ui *u, enum ui_role role, const char *text)
{
	snprintf(u->msg, sizeof(u->msg), "%s", text);
	u->msg_role = role;
}

/* The TPM's turn: 0 unlocked, else -ENOENT: ask for the passphrase
 * (@note may say why the TPM did not open it). Esc at the PIN goes to
 * the passphrase, as a PIN prompt's Esc goes to the recovery key
 * elsewhere: one who knows only the passphrase is not stuck (nor made to
 * spend the TPM's dictionary-attack tries on guesses). */
static int unlock_tpm(struct unlock *x, char *note, size_t len)
{
	struct ui_prompt p = {
	    .title = x->title, .label = "TPM PIN:", .stars = false};
	char err[256] = "", pin[UI_PASS_MAX];
	int rc;

	unlock_show(x, "Asking the TPM...");
	rc = session_unlock_tpm(x->u->s, x->dev, NULL, err, sizeof(err));
	if (rc == -ENOKEY) {
		if (!ui_prompt_read(x->u, &p, pin)) {
			snprintf(note, len, "TPM: no PIN given.");
			return -ENOENT;
		}
		unlock_show(x, "Asking the TPM...");
		rc = session_unlock_tpm(x->u->s, x->dev, pin, err, sizeof(err));
		explicit_bzero(pin, sizeof(pin));
	}
	if (rc < 0 && rc != -ENOENT && rc != -ENOKEY)
		snprintf(note, len, "TPM: %s", err);
	return rc == 0 ? 0 : -ENOENT;
}

/* One passphrase through scan_unlock(), the progress shown. */
static int unlock_try(struct unlock *x, const char *pass, size_t n, char *err,
		      size_t len)
{
	x->pct = -1;
	unlock_progress(x, 0, 1);
	return session_unlock(x->u->s, x->dev, pass, n, unlock_progress, x, err,
			      len);
}

/* The passphrase dialog: up to UNLOCK_TRIES; u->msg says how it ended. */
static int unlock_ask(struct unlock *x, const char *tpm_note)
{
	struct ui_prompt p = {
	    .title = x->title, .label = "Passphrase:", .stars = false};
	char pass[UI_PASS_MAX], err[512], text[UNLOCK_NAME_MAX * 3];
	int rc = -EACCES;

	snprintf(p.note, sizeof(p.note), "%s", tpm_note);
	p.deadline_ms = x->u->unlock_deadline_ms;
	for (int i = 0; i < UNLOCK_TRIES && rc == -EACCES; i++) {
		bool typed = ui_prompt_read(x->u, &p, pass);

		if (p.touched) /* the user is here: the countdown stops */
			ui_count_stop(&x->u->m);
		if (!typed) {
			rc = p.expired ? -ETIMEDOUT : -ECANCELED;
			break;
		}
		rc = unlock_try(x, pass, p.len, err, sizeof(err));
		explicit_bzero(pass, sizeof(pass));
		snprintf(p.note, sizeof(p.note),
			 "Wrong passphrase, try %d of %d.", i + 2,
			 UNLOCK_TRIES);
	}
	if (rc == 0) {
		snprintf(text, sizeof(text), "%s unlocked as %s", x->dev,
			 x->vol);
		unlock_say(x->u, UI_R_STATUS, text);
	} else if (rc == -ECANCELED) {
		unlock_say(x->u, UI_R_TEXT, "Cancelled");
	} else if (rc == -ETIMEDOUT) {
		snprintf(text, sizeof(text), "No key: %s stays locked", x->dev);
		unlock_say(x->u, UI_R_TEXT, text);
	} else if (rc == -EACCES) {
		snprintf(text, sizeof(text),
			 "Wrong passphrase %d times: %s stays locked",
			 UNLOCK_TRIES, x->dev);
		unlock_say(x->u, UI_R_ERROR, text);
	} else {
		snprintf(text, sizeof(text), "Cannot unlock %s", x->dev);
		ui_dialog(x->u, UI_R_ERROR, text, err);
	}
	return rc;
}

int ui_unlock(struct ui *u, const struct entry *e)
{
	struct unlock x = {.u = u, .pct = -1};
	char what[UNLOCK_NAME_MAX] = "LUKS", note[300] = "", text[512];

	if (!e || e->method != ENTRY_UNLOCK || !e->unlock_dev)
		return -EINVAL;
	if (!u->unlock_deadline_ms)
		ui_count_stop(&u->m); /* the user is here */
	snprintf(x.dev, sizeof(x.dev), "%s", e->unlock_dev);
	snprintf(x.vol, sizeof(x.vol), "%s", e->id ? e->id : e->unlock_dev);
	session_unlock_what(u->s, x.dev, what, sizeof(what));
	snprintf(x.title, sizeof(x.title), "Unlock %s (%s)", x.dev, what);
	if (unlock_tpm(&x, note, sizeof(note)) == 0) {
		snprintf(text, sizeof(text), "%s unlocked with the TPM as %s",
			 x.dev, x.vol);
		unlock_say(u, UI_R_STATUS, text);
		return 0;
	}
	return unlock_ask(&x, note);
}
