/* transaction.c - one boot: its steps in the order they must run. */
#include "boot/transaction.h"
#include "boot/hand_on.h"
#include "boot/loader_vars.h"
#include "choose/choose.h"
#include "entry/entry.h"
#include "util/say.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TXN_NOTE_MAX 256 /* why next_entry was not cleared */

struct txn {
	const struct entry *e;
	struct boot_opts o; /* the caller's, with the front-end's progress */
	const struct boot_front *f;
	struct boot_loaded l;
	char *plan; /* a dry run's plan, printed once the load is over */
	size_t plan_len;
	char note[TXN_NOTE_MAX];
	char bli_note[TXN_NOTE_MAX]; /* why the loader variables were not */
	struct boot_measure m;	     /* the measuring step's outcome */
	struct boot_hand_on h;	     /* the hand-on step's archive */
};

static const char *txn_title(const struct txn *t)
{
	return t->e->title ? t->e->title : t->e->id ? t->e->id : "?";
}

static void txn_say(const struct txn *t, enum boot_say what, const char *text)
{
	if (t->f->say)
		t->f->say(t->f->ctx, what, text);
}

static void txn_suspend(const struct txn *t)
{
	if (t->f->suspend)
		t->f->suspend(t->f->ctx);
}

/* The load. A dry run's plan goes to memory first: the front-end still
 * draws progress on the terminal while it is made. */
static int txn_load(struct txn *t, char *err, size_t len)
{
	char text[300];
	int rc;

	snprintf(text, sizeof(text), "loading \"%s\"", txn_title(t));
	txn_say(t, BOOT_SAY_LOADING, text);
	if (t->o.dry_run &&
	    !(t->o.plan_out = open_memstream(&t->plan, &t->plan_len)))
		return say(err, len, -ENOMEM, "out of memory for the plan");
	rc = boot_load_entry(t->e, &t->o, &t->l, err, len);
	if (t->o.dry_run)
		fclose(t->o.plan_out);
	if (rc && t->m.extended) {
		size_t n = strlen(err);

		/* a TPM cannot be rolled back */
		snprintf(err + n, len - n,
			 " (its files were measured into the TPM already: "
			 "what boots next is measured on top)");
	}
	return rc;
}

/* A dry run's end: the plan, once the front-end gave the terminal up. */
static int txn_print_plan(const struct txn *t, FILE *out)
{
	txn_suspend(t);
	fprintf(out, "bootmenu: would boot \"%s\"\n", txn_title(t));
	fwrite(t->plan, 1, t->plan_len, out);
	fflush(out);
	return 0;
}

/* grub's next_entry, when this boot consumes it; a failure to clear it
 * does not stop the boot, it is said with "Starting". */
static void txn_clear_once(struct txn *t)
{
	int rc;

	if (!t->o.clear_once)
		return;
	rc = t->o.clear_once(t->o.session, t->note, sizeof(t->note));
	if (rc >= 0)
		t->note[0] = '\0';
	else if (!t->note[0])
		snprintf(t->note, sizeof(t->note), "%s", strerror(-rc));
}

/* The Boot Loader Interface variables for the OS a kexec boots next (a
 * firmware entry hands over to another loader, which says its own);
 * a failure does not stop the boot, it is said with "Starting". */
static void txn_loader_vars(struct txn *t)
{
	if (t->o.loader_vars && t->e->method == ENTRY_KEXEC &&
	    boot_loader_vars_write(t->o.loader_vars, t->e, t->bli_note,
				   sizeof(t->bli_note)) >= 0)
		t->bli_note[0] = '\0';
}

/* LoaderEntryOneShot goes with next_entry: the same boot consumes both. */
static void txn_clear_loader_once(struct txn *t)
{
	char why[TXN_NOTE_MAX];
	size_t n = strlen(t->bli_note);

	if (!t->o.loader_vars || boot_loader_vars_clear_once(
				     t->o.loader_vars, why, sizeof(why)) >= 0)
		return;
	snprintf(t->bli_note + n, sizeof(t->bli_note) - n, "%s%s",
		 n ? "; " : "", why);
}

static void txn_starting(const struct txn *t)
{
	char text[1100];

	snprintf(text, sizeof(text),
		 "Starting %.200s (loaded with %s%s%.160s)%s%.200s%s%.250s",
		 txn_title(t), t->l.syscall, t->m.note[0] ? "; " : "",
		 t->m.note, t->note[0] ? "; next_entry not cleared: " : "",
		 t->note,
		 t->bli_note[0] ? "; loader variables not all written: " : "",
		 t->bli_note);
	txn_say(t, BOOT_SAY_STARTING, text);
}

static int txn_jump(struct txn *t, char *err, size_t len)
{
	int rc;

	txn_suspend(t);
	/* the point of no return, when the jump works */
	rc = boot_jump(&t->l, &t->o);
	if (t->f->resume)
		t->f->resume(t->f->ctx);
	return say(err, len, rc, "the jump failed: %s", strerror(-rc));
}

/* After a real load, the steps up to the jump, in their order. */
static int txn_boot(struct txn *t, bool consume_once, char *err, size_t len)
{
	/* measured already: inside the load, between reading the files and
	 * handing them to the kernel (boot_measure_step(), boot/measure.h) */
	txn_loader_vars(t);
	if (consume_once) {
		txn_clear_once(t);
		txn_clear_loader_once(t);
	}
	/* the LUKS keys were handed on inside the load too, before the
	 * measuring step (boot_hand_on_step(), boot/hand_on.h) */
	txn_starting(t);
	return txn_jump(t, err, len);
}

/* The hand-on step, when bootmenu.conf's luks_pass_key is not "no" and
 * the face says where the session keeps the keys. */
static void txn_wire_hand_on(struct txn *t)
{
	if (!t->o.keys_of || !t->o.pass_key || !t->o.pass_key[0])
		return;
	t->h.pattern = t->o.pass_key;
	t->h.keys_of = t->o.keys_of;
	t->h.ctx = t->o.session;
	t->o.hand_on = boot_hand_on_step;
	t->o.hand_on_ctx = &t->h;
}

int boot_run(const struct entry *e, const struct boot_opts *o,
	     const struct boot_front *f, char *err, size_t len)
{
	static const struct boot_front quiet;
	struct txn t = {.e = e, .f = f ? f : &quiet};
	FILE *out = o && o->plan_out ? o->plan_out : stdout;
	bool consume_once;
	int rc;

	if (e->disabled)
		return say(err, len, -EINVAL, "%s", e->disabled);
	if (o)
		t.o = *o;
	t.o.progress = t.f->progress;
	t.o.fetch = t.f->fetch;
	t.o.progress_data = t.f->ctx;
	t.m.mode = t.o.tpm;
	t.m.tpm_path = t.o.tpm_path;
	t.o.measure = boot_measure_step;
	t.o.measure_ctx = &t.m;
	txn_wire_hand_on(&t);
	rc = txn_load(&t, err, len);
	/* the kernel has its copy of the keys now: ours goes at once */
	boot_hand_on_free(&t.h);
	consume_once = choose_consumes_once(rc, t.o.dry_run);
	if (rc == 0 && t.o.dry_run)
		rc = txn_print_plan(&t, out);
	else if (rc == 0)
		rc = txn_boot(&t, consume_once, err, len);
	free(t.plan);
	boot_measure_free(&t.m);
	boot_hand_on_free(&t.h);
	return rc;
}
