/* transaction.h - one boot, from the entry chosen to the jump.
 *
 * boot_run() is how every front-end boots an entry (the curses menu, the
 * plain chooser, `bootmenu --boot`): a load returns a struct boot_loaded,
 * the jump consumes it, and the steps between them run in one written
 * order (docs/architecture.md lists it). The front-end only draws:
 * progress, the sentences boot_run() says, and giving its terminals up
 * around the jump (struct boot_front). Clearing the one-shot default and
 * unmounting are the session's, wired into boot_opts by the face; the
 * jump itself is boot_jump()'s.
 */
#ifndef BM_BOOT_TRANSACTION_H
#define BM_BOOT_TRANSACTION_H

#include "boot/boot.h"

#include <stddef.h>

/* What a sentence boot_run() says is about. */
enum boot_say {
	BOOT_SAY_LOADING,  /* 'loading "<title>"': the load begins */
	BOOT_SAY_STARTING, /* "Starting <title> (loaded with <syscall>)",
			      maybe with "; next_entry not cleared: <why>"
			      and "; loader variables not all written: <why>":
			      the jump comes next */
};

/* The front-end's part of a boot. Each call gets @ctx; each may be NULL. */
struct boot_front {
	/* A sentence for the user; @text is boot_run()'s, valid during the
	 * call only. */
	void (*say)(void *ctx, enum boot_say what, const char *text);
	/* Bytes of the kernel and initrds read, and files of a network root
	 * fetched (returning nonzero cancels): they replace boot_opts'
	 * progress and fetch. */
	void (*progress)(void *ctx, unsigned long long done,
			 unsigned long long total);
	int (*fetch)(void *ctx, const char *path, unsigned long long done,
		     unsigned long long total);
	/* Give the terminals up (before a dry run's plan is printed, or
	 * before the jump), and take them back after a jump that failed. */
	void (*suspend)(void *ctx);
	void (*resume)(void *ctx);
	void *ctx;
};

/* Boot @e with @o (NULL: defaults, nothing cleared or unmounted) and the
 * front-end's @f (may be NULL). In order: a disabled entry is refused;
 * the load (boot_load_entry()); the Boot Loader Interface variables
 * (o->loader_vars, boot/loader_vars.h); the one-shot defaults (grub's
 * next_entry, o->clear_once, and LoaderEntryOneShot) are cleared when the
 * policy says this boot consumes them (choose_consumes_once());
 * BOOT_SAY_STARTING; f->suspend; unmount and jump (boot_jump()); f->resume when
 * the jump came back. With o->dry_run nothing is loaded, cleared or jumped to:
 * after f->suspend the plan is printed to o->plan_out (NULL: stdout) under a
 * line 'bootmenu: would boot
 * "<title>"'. Returns 0 after a dry run; otherwise only on failure,
 * -errno with a sentence for the user in err[0..len) (the entry's
 * disabled reason, the load's, or "the jump failed: ..."). */
int boot_run(const struct entry *e, const struct boot_opts *o,
	     const struct boot_front *f, char *err, size_t len);

#endif
