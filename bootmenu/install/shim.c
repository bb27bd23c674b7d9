/* shim.c - the shim layout (install_int.h), for machines that keep only
 * Microsoft's keys in db: a distribution's shim, which Microsoft signed,
 * is the first stage, and bootmenu the second stage it starts.
 *
 * What shim (rhboot/shim, shim.c) does that the layout follows: it
 * starts grubx64.efi from its own directory when that image's signature
 * checks out against db, shim's built-in vendor key or the Machine Owner
 * Keys (MokList); when it does not, it starts MokManager (mmx64.efi,
 * beside it), which enrols a key. Started as \EFI\BOOT\BOOT*.EFI it runs
 * \EFI\BOOT\fbx64.efi instead when that exists (should_use_fallback()):
 * fallback makes boot entries from the \EFI\*\BOOTX64.CSV files it finds
 * and starts the first of them, another loader than bootmenu.
 */
#include "install/install_int.h"
#include "format/pe_sig.h"
#include "util/say.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const char *const shim_helper_names[SHIM_HELPERS] = {
    [SHIM_MM] = "mmx64.efi",
    [SHIM_FB] = "fbx64.efi",
};

static const char *const shim_helper_roles[SHIM_HELPERS] = {
    [SHIM_MM] = "MokManager",
    [SHIM_FB] = "shim's fallback",
};

/* --- Reading and checking */

/* What follows ".efi" in the shim's file name: ".signed" for Debian's
 * shimx64.efi.signed (package shim-signed), whose helpers are
 * mmx64.efi.signed and fbx64.efi.signed (shim-helpers-amd64-signed); ""
 * for shimx64.efi. Helpers are taken with the same suffix only, so a
 * signed shim never gets an unsigned MokManager, which it would refuse. */
static const char *shim_suffix(const char *path)
{
	const char *base = strrchr(path, '/'), *found = NULL;

	base = base ? base + 1 : path;
	for (const char *s = base; *s; s++)
		if (!strncasecmp(s, ".efi", 4))
			found = s + 4;
	return found ? found : "";
}

/* Whether @b is an EFI image ("MZ", e_lfanew, "PE\0\0", a PE32 or PE32+
 * optional header: format/pe.h) and signed: 1 signed, 0 not, or -ENOEXEC. */
static int shim_pe(const struct inst_blob *b)
{
	size_t off, size;
	int rc = pe_sig_locate(b->data, b->len, &off, &size);

	return rc == -ENOEXEC ? rc : rc == 0;
}

/* The shim file itself: read, an EFI image, signed under Secure Boot. */
static int shim_read(struct inst *in)
{
	const char *path = in->o->shim;
	int rc = inst_read(in, path, "the shim", &in->shim);

	if (rc == -ENOENT)
		return say(in->err, in->errlen, rc,
			   "the shim %s does not exist: name shim's "
			   "shimx64.efi with --shim (Debian's package "
			   "shim-signed installs " INSTALL_SHIM_DEBIAN ")",
			   path);
	if (rc < 0)
		return rc;
	rc = shim_pe(&in->shim);
	if (rc < 0)
		return say(in->err, in->errlen, -EINVAL,
			   "the shim %s is not an EFI image (no MZ and PE "
			   "header): name shim's shimx64.efi with --shim "
			   "(Debian's package shim-signed "
			   "installs " INSTALL_SHIM_DEBIAN ")",
			   path);
	if (rc == 0 && in->sb)
		return say(in->err, in->errlen, -EPERM,
			   "the shim %s is not signed, and Secure Boot is on: "
			   "the firmware would refuse to start it; name a "
			   "signed shim (Debian's package shim-signed "
			   "installs " INSTALL_SHIM_DEBIAN ")",
			   path);
	inst_say(in, "shim", path, rc ? " (signed)" : " (not signed)");
	return 0;
}

/* Helper @k beside the shim, when it is there: read, an EFI image. */
static int shim_helper(struct inst *in, int k)
{
	const char *slash = strrchr(in->o->shim, '/');
	struct inst_blob *b = &in->helper[k];
	char more[64];
	int rc;

	snprintf(b->path, sizeof(b->path), "%.*s%s%s",
		 slash ? (int)(slash - in->o->shim + 1) : 0, in->o->shim,
		 shim_helper_names[k], shim_suffix(in->o->shim));
	if (access(b->path, F_OK) != 0) {
		if (k == SHIM_MM)
			inst_say(in, "note", b->path,
				 " is not there, so shim cannot start "
				 "MokManager from this install to enrol a key "
				 "(Debian: package shim-helpers-amd64-signed)");
		return 0;
	}
	rc = inst_read(in, b->path, "the file beside the shim", b);
	if (rc == 0 && shim_pe(b) < 0)
		rc = say(in->err, in->errlen, -EINVAL,
			 "%s, beside the shim, is not an EFI image (no MZ and "
			 "PE header): remove it or name another shim",
			 b->path);
	snprintf(more, sizeof(more), " (%s, beside the shim)",
		 shim_helper_roles[k]);
	if (rc == 0)
		inst_say(in, "shim", b->path, more);
	return rc;
}

int shim_check(struct inst *in)
{
	int rc = shim_read(in);

	for (int k = 0; rc == 0 && k < SHIM_HELPERS; k++)
		rc = shim_helper(in, k);
	return rc;
}

/* An install made with the other layout is recorded: its Boot#### and
 * this one's would be two "bootmenu" entries starting different files. */
int shim_same_layout(struct inst *in)
{
	const char *theirs = in->o->shim ? INSTALL_FILE : INSTALL_SHIM;

	if (!rec_has(&in->old, REC_NEW, theirs, 0) &&
	    !rec_has(&in->old, REC_BACKUP, theirs, 0))
		return 0;
	return say(in->err, in->errlen, -EEXIST,
		   "bootmenu is installed on %s %s shim already (its record "
		   "lists %s): take that back first (--uninstall), then "
		   "install %s --shim",
		   in->esp, in->o->shim ? "without" : "behind", theirs,
		   in->o->shim ? "with" : "without");
}

/* --- The files */

/* Per directory the second stage, the helpers and shim, or at the
 * fallback path one helper fewer and the fallback kept aside. */
_Static_assert(PUT_MAX >= 2 * (2 + SHIM_HELPERS),
	       "PUT_MAX holds the shim layout with --removable");

/* The files of directory @dir: the second stage and the helpers before
 * the first stage, so that a power cut between never leaves a shim
 * without bootmenu beside it. fbx64.efi goes beside shim in
 * \EFI\bootmenu as grub-install puts it beside a distribution's shim
 * (shim starts it only from \EFI\BOOT); at the fallback path the one
 * there is kept aside instead, not written (see the top of this file). */
static void shim_plan_dir(struct inst *in, const char *dir, bool fallback)
{
	char path[REC_PATH_MAX];

	if (fallback) {
		snprintf(path, sizeof(path), "%s/%s", dir,
			 shim_helper_names[SHIM_FB]);
		inst_put(in, dir, path, NULL,
			 "shim started as BOOTX64.EFI would start it instead "
			 "of bootmenu");
	}
	snprintf(path, sizeof(path), "%s/" INSTALL_SHIM_NEXT, dir);
	inst_put(in, dir, path, &in->img, NULL);
	for (int k = 0; k < SHIM_HELPERS; k++) {
		if (!in->helper[k].data || (fallback && k == SHIM_FB))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir,
			 shim_helper_names[k]);
		inst_put(in, dir, path, &in->helper[k], NULL);
	}
	inst_put(in, dir, fallback ? INSTALL_FALLBACK : INSTALL_SHIM, &in->shim,
		 NULL);
}

void shim_plan(struct inst *in)
{
	in->loader = INSTALL_SHIM;
	shim_plan_dir(in, INSTALL_DIR, false);
	if (in->o->removable)
		shim_plan_dir(in, INSTALL_FALLBACK_DIR, true);
}

/* --- What the user must do */

/* Who signed the image, as its certificate table claims. */
static void shim_signer(struct inst *in, char *out, size_t cap)
{
	struct pe_sig_info info;
	const struct pe_sig_signer *s = &info.signer[0];

	if (pe_sig_read(in->img.data, in->img.len, &info, NULL, 0) < 0 ||
	    !info.count)
		snprintf(out, cap, "its signer");
	else
		snprintf(out, cap, "\"%s\"",
			 s->subject[0] ? s->subject : s->issuer);
}

/* --default with a shim: the entry is first, so the note is a warning.
 * A shim that refuses bootmenu starts MokManager instead (shim.c,
 * init_grub()); when that is left, the machine starts its old loader
 * only if the firmware goes on to the next entry. */
static void shim_warn_first(struct inst *in, const char *key)
{
	char text[1400];

	snprintf(text, sizeof(text),
		 "Boot%04X (shim, then bootmenu) is FIRST in BootOrder now "
		 "(--default), and shim refuses bootmenu until the key that "
		 "signed it (%s) is enrolled as a Machine Owner Key. Enrol it "
		 "BEFORE this machine restarts: mokutil --import KEY.der "
		 "(that key's certificate), then confirm it in MokManager, "
		 "which shim shows at the restart. Otherwise shim shows "
		 "MokManager at every start, and the machine starts its old "
		 "loader only if the firmware goes on to the next entry once "
		 "MokManager is left; to take this back now: "
		 "bootmenu-install --uninstall",
		 (unsigned)in->boot_num, key);
	inst_say(in, "WARNING", text, NULL);
}

/* Any shim shows MokManager for a pending mokutil --import when it
 * starts (shim.c, check_mok_request()), but the machine may start
 * another loader first: the entry started once does it. */
void shim_note(struct inst *in)
{
	char key[PE_SIG_NAME_MAX + 8], text[1400];
	char once[80] = "", tail[160] = "";
	unsigned num = (unsigned)in->boot_num;

	shim_signer(in, key, sizeof(key));
	if (in->o->set_default && in->boot_num >= 0) {
		shim_warn_first(in, key);
		return;
	}
	if (in->boot_num >= 0) {
		snprintf(once, sizeof(once),
			 " (efibootmgr --bootnext %04X starts it once)", num);
		snprintf(tail, sizeof(tail),
			 ", so Boot%04X is not made first: once bootmenu has "
			 "started through it, make it first with --default",
			 num);
	}
	snprintf(text, sizeof(text),
		 "shim starts bootmenu only once the key that signed it (%s) "
		 "is enrolled as a Machine Owner Key: mokutil --import KEY.der "
		 "(that key's certificate), then confirm it in MokManager, "
		 "which shim shows the next time it starts%s. Until then shim "
		 "refuses bootmenu and this machine must go on starting the "
		 "loader it starts now%s",
		 key, once, tail);
	inst_say(in, "note", text, NULL);
}

void shim_hint(struct inst *in)
{
	const char *p =
	    in->o->shim_hint ? in->o->shim_hint : INSTALL_SHIM_DEBIAN;
	char text[600];

	if (access(p, R_OK) != 0)
		return;
	snprintf(text, sizeof(text),
		 "Secure Boot is on: the firmware starts the image only when "
		 "its signing key is in the firmware's db; on a machine that "
		 "keeps only Microsoft's keys, install it behind shim instead "
		 "(--shim %s; see bootmenu-install(8))",
		 p);
	inst_say(in, "note", text, NULL);
}
