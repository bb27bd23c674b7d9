/* choose.h - the one room of boot policy: which entry is the default,
 * what is tried when it fails, how long the countdown is.
 *
 * The curses menu, the plain chooser and the command line all ask here
 * and only draw or print the answer. The rules are pure (entries and
 * settings in, answers out); choose_autoboot() runs the unattended boot
 * through the front-end's own calls. bootmenu(8) states the rules.
 *
 * The default: the entry the OS asked for once (systemd's
 * LoaderEntryOneShot, `systemctl reboot --boot-loader-entry=ID`), else the
 * saved default (bootmenu's own menu), else the entry the OS set as its
 * default (LoaderEntryDefault, `bootctl set-default ID`), else the first
 * entry matching
 * bootmenu.conf's `default` pattern, else the config default of the
 * filesystem bootmenu.conf's `default_device` names, else each
 * filesystem's own config default (grub default/next_entry/saved_entry,
 * syslinux, loader.conf, lilo) with grub's `fallback` entries right after
 * it, filesystems ordered: the one bootmenu was booted from when known,
 * then internal disks in device order, then removable media; else the
 * first bootable entry, in the same order, kernels before the loaders the
 * firmware boots (another OS); and only then the same two steps over the
 * network's roots (network = auto, source.h): a local default always wins,
 * and the network's is the default only when no local entry can boot, as
 * a PXE firmware boots the network when the disks give nothing. The
 * network's entries are still chosen first when the one-shot, the saved
 * default, LoaderEntryDefault or bootmenu.conf's `default` pattern name
 * them (the choice was someone's). Disabled entries never, nor the firmware's
 * setup screen, which only a key chooses, nor a locked LUKS volume's line
 * (ENTRY_UNLOCK: it boots nothing), even one a saved default, a pattern or
 * an OS's request names.
 * Candidates after the first are what an unattended boot tries, in that
 * order, when the one before it fails to load.
 * The two Boot Loader Interface variables match entries by their
 * identifier (choose/loader_id.h), as a shell pattern the way
 * systemd-boot 252 matches them; one naming no entry is passed over (the
 * menu says so, choose_loader_note()). They are read only under UEFI with
 * efivarfs (the face fills them in); under BIOS they stay "".
 * The OS's one-shot comes first as systemd-boot puts it, and it stands
 * above grub's next_entry because the OS wrote it for this very loader.
 * The saved default stands above LoaderEntryDefault: it is the choice of
 * whoever sits at this menu, and systemd-boot's own menu key for it
 * writes LoaderEntryDefault, the variable it then puts first.
 */
#ifndef BM_CHOOSE_H
#define BM_CHOOSE_H

#include "choose/loader_id.h"

#include <stdbool.h>
#include <stddef.h>

struct conf;
struct entry;
struct entry_list;
struct fs_root;

#define CHOOSE_SAVED_MAX 1024 /* SAVEDEF_VALUE_MAX */
#define CHOOSE_MAX 64	      /* most candidates one autoboot tries */
#define CHOOSE_DEFAULT_TIMEOUT_S 5
#define CHOOSE_FAIL_SHOW_S 3 /* a failed default is shown this long */

struct choose {
	const struct conf *conf;  /* bootmenu.conf; never NULL */
	double opt_timeout_s;	  /* --timeout; -2 when not given */
	double cmdline_timeout_s; /* bootmenu.timeout=; -2 when not given */
	/* "PARTUUID=..." (or UUID=, LABEL=) of the filesystem bootmenu
	 * was started from, when known (bootmenu.from= on the kernel
	 * command line); "" when not. */
	char boot_device[256];
	/* the saved default's id (savedef_load()); "" none */
	char saved_id[CHOOSE_SAVED_MAX];
	/* systemd's LoaderEntryOneShot and LoaderEntryDefault (efi/bli.h),
	 * lower case; "" none */
	char loader_oneshot[CHOOSE_LOADER_ID_MAX];
	char loader_default[CHOOSE_LOADER_ID_MAX];
	/* LoaderConfigTimeoutOneShot in seconds (-1: wait for a key); -2
	 * when not set */
	double loader_timeout_s;
};

/* @c for @conf with nothing else known; @cmdline is the kernel's command
 * line text ("" none): bootmenu.timeout= and bootmenu.from= are read. */
void choose_init(struct choose *c, const struct conf *conf, const char *cmdline,
		 double opt_timeout_s);

/* The candidates of an unattended boot, best first, into out[0..max)
 * (pointers into @l). Each entry appears once. Returns the count. */
size_t choose_candidates(const struct choose *c, const struct entry_list *l,
			 const struct entry **out, size_t max);

/* The first candidate, or NULL when nothing is bootable. */
const struct entry *choose_default(const struct choose *c,
				   const struct entry_list *l);

/* Seconds before the default boots: --timeout, else the OS's one-shot
 * (LoaderConfigTimeoutOneShot: `systemctl reboot --boot-loader-menu=N`
 * asks to see the menu, so it wins over every setting of this machine's
 * own), else bootmenu.timeout=, else bootmenu.conf, else the configs', else
 * CHOOSE_DEFAULT_TIMEOUT_S. -1: wait for a key. The configs' timeout is @l's
 * own for one parse (timeout_ds); for a list merged from several filesystems
 * (the session's, l->fs_timeout_ds) it is the first one set, in the order of
 * the filesystems, when their configs disagree. */
double choose_timeout(const struct choose *c, const struct entry_list *l);

/* The timeout the user gave (command line, LoaderConfigTimeoutOneShot,
 * bootmenu.timeout=, bootmenu.conf), known before any disk was read; -2
 * when none did. */
double choose_user_timeout(const struct choose *c);

/* The order filesystems take in the default rule: 0 for the one
 * bootmenu came from, 1 internal, 2 removable, 3 a network root. */
int choose_fs_rank(const struct choose *c, const struct fs_root *fs);

/* How an unattended boot reaches its front-end. */
struct choose_ops {
	/* Load @e and jump. Returns only when that failed: -errno with a
	 * sentence for the user in err[0..len) (or 0 after a dry run). */
	int (*boot)(void *ctx, const struct entry *e, char *err, size_t len);
	/* @e needs the password (lilo.conf's mandatory): true when it was
	 * given. NULL: such entries are skipped, saying why. */
	bool (*ask)(void *ctx, const struct entry *e);
	/* @e failed with @err; @next (NULL: none left) comes next. Return
	 * false to stop trying (a key was pressed). May be NULL. */
	bool (*failed)(void *ctx, const struct entry *e, const char *err,
		       const struct entry *next);
	void *ctx;
};

/* Boot the candidates of @l in turn until one jumps. An entry that needs
 * the password (lilo.conf's mandatory) is asked for through ops->ask
 * unless @unlocked. A fallback candidate is not "another entry" for
 * bootmenu.conf's password: the policy chose it, not a key. Returns 0 after a
 * dry run, -ENOENT when nothing is bootable, -ECANCELED when failed() said
 * stop, else the last failure's -errno. */
int choose_autoboot(const struct choose *c, const struct entry_list *l,
		    bool unlocked, const struct choose_ops *ops);

/* What the menu should say about the OS's requests that name no entry of
 * @l: 'LoaderEntryOneShot "x" names no entry: the default boots' (and
 * the same for LoaderEntryDefault) into out[0..len). Returns whether
 * there is anything to say. */
bool choose_loader_note(const struct choose *c, const struct entry_list *l,
			char *out, size_t len);

/* Whether this boot consumes the one-shot default (grub's next_entry and
 * systemd's LoaderEntryOneShot, which the boot then clears): yes once the entry
 * it boots was loaded for real (@load_rc 0, not @dry_run), whichever entry that
 * is and whoever chose it (the countdown, a key, an edited entry, a fallback);
 * no after a failed load or a dry run, which consume nothing. */
bool choose_consumes_once(int load_rc, bool dry_run);

/* Whether the plain chooser (no terminal: no password prompt) may offer
 * a choice; false when a password is set: only the default boots. */
bool choose_plain_may_choose(const struct choose *c);

#endif
