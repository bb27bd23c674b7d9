/* conf.h - /etc/bootmenu.conf: the menu's own settings.
 *
 * "key = value" lines, '#' comments (configs/bootmenu.conf documents each
 * key). Pure parsing plus one loader; the struct owns its strings.
 */
#ifndef BM_CONF_H
#define BM_CONF_H

#include <stdbool.h>
#include <stddef.h>

#define CONF_PATH "/etc/bootmenu.conf"
#define CONF_MAX (64u << 10)
#define CONF_LINE_MAX 1024 /* longer lines are reported and skipped */
/* What `password` holds when its value was not a usable hash: no password
 * matches it, so every protected action is refused (fail closed). */
#define CONF_PASSWORD_LOCKED "!"

struct conf {
	double timeout;	       /* seconds; -1 waits; -2 when not set */
	char default_pat[256]; /* fnmatch(3) pattern over titles and ids; ""
				  unset */
	/* default_device = SPEC: the filesystem whose config default is
	 * the default ("UUID=...", "LABEL=...", "PARTUUID=...", a device
	 * name), after `default` and the saved default (choose.h). "" unset;
	 * removable media named here take part like internal disks. */
	char default_device[256];
	/* password = HASH: a crypt(3) SHA-512 hash ("$6$..."); "" none.
	 * When set, editing, the shell and booting anything but the default
	 * ask for it (auth.h). A value that is not a "$6$" hash is reported
	 * and stored as CONF_PASSWORD_LOCKED: the password is then asked and
	 * never accepted (a typo locks the menu rather than opening it). */
	char password[256];
	/* save_default = yes|no (no): whether `d` may save a default, and
	 * --boot/boot-once state may be written at all. */
	bool save_default;
	/* save_default_on = SPEC: the filesystem the saved default goes to
	 * ("LABEL=boot", "UUID=...", "PARTUUID=...", a device name "vda2");
	 * "" : the first filesystem that has a grubenv (savedef.h). */
	char save_on[256];
	/* hide = PATTERN...: devices not to scan or show, fnmatch(3) patterns
	 * matched against the device name, LABEL= and UUID= specs; separated
	 * by spaces; several hide lines add up. "" none. The session matches
	 * them (session.h: s->hide). */
	char hide[1024];
	/* network = auto|on|off|IFACE (auto): boot entries from the network
	 * (DHCP on every wired link, or on IFACE alone); bootmenu.net= on
	 * the kernel command line wins. "" unset. conf_network() reads it. */
	char network[32];
	/* colour = yes|no (yes): colours where the terminal has them. */
	bool colour;
	/* tpm = auto|required|off (auto): measure what is booted into the
	 * TPM when there is one (auto); refuse a boot that could not be
	 * measured (required, for machines that seal secrets to the PCRs);
	 * or never touch the TPM (off). */
	enum conf_tpm { CONF_TPM_AUTO, CONF_TPM_REQUIRED, CONF_TPM_OFF } tpm;
	/* unlock_at_start = PATTERN...: locked LUKS devices whose passphrase
	 * dialog opens when the disks settle, even with other entries to
	 * boot: fnmatch(3) patterns matched against the device name, LABEL=
	 * (the LUKS2 label) and UUID= (the LUKS UUID), as hide's; several
	 * lines add up. Nobody typing by the end of the countdown boots the
	 * default as usual. "" none (only a menu of locked volumes asks). */
	char unlock_at_start[512];
	/* luks_pass_key = no|yes|PATTERN... (no): hand the passphrase of a
	 * LUKS volume bootmenu unlocked on to the booted entry's initramfs,
	 * so it is typed once (boot/hand_on.h): for every entry (yes), or
	 * for the entries whose title or id matches one of the fnmatch(3)
	 * patterns (separated by spaces). "" for no, "*" for yes. */
	char pass_key[1024];
};

/* Defaults: nothing set. */
void conf_init(struct conf *c);
/* Parse @text into @c. Unknown keys and bad values are skipped with a
 * message "line N: ..." in err[0..errlen) (the first one); returns 0, or
 * -EINVAL when something was skipped (the rest still applies). */
int conf_parse(struct conf *c, const char *text, char *err, size_t errlen);
/* conf_parse() of the file @path. A missing file is 0 with nothing set;
 * returns -errno when it cannot be read, -EINVAL as conf_parse(). */
int conf_load(struct conf *c, const char *path, char *err, size_t errlen);

/* True when fnmatch(3) pattern @pat (not empty) matches @title or @id
 * (either may be NULL). */
bool conf_match(const char *pat, const char *title, const char *id);

/* What a `network` value asks (bootmenu.net= or bootmenu.conf's; any
 * case): CONF_NET_AUTO for "auto" and for "" (unset: the default), where
 * only a lease naming a boot file leads anywhere; CONF_NET_OFF for
 * off/no/0; CONF_NET_ON for on/yes/1 and for a link's name, which goes to
 * only[0..len), cut to fit ("" for every other value). Pure. */
enum conf_net { CONF_NET_AUTO, CONF_NET_ON, CONF_NET_OFF };
enum conf_net conf_network(const char *value, char *only, size_t len);

/* Whether `luks_pass_key` value @val (struct conf's pass_key) hands keys
 * on for the entry of @title and @id: one of its space-separated patterns
 * matches either (conf_match()). False for "" (no). */
bool conf_pass_key(const char *val, const char *title, const char *id);

#endif
