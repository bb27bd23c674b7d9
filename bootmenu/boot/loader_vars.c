/* loader_vars.c - the Boot Loader Interface step (loader_vars.h). */
#include "boot/loader_vars.h"
#include "choose/choose.h"
#include "efi/bli.h"
#include "entry/entry.h"
#include "util/say.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define LV_LOG_MAX (256 * 1024) /* the part of the kernel log looked at */

uint64_t boot_loader_vars_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_BOOTTIME, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* The kernel's log so far: /dev/kmsg gives one record per read(2) and
 * EAGAIN at its end when opened non-blocking. */
static char *lv_read_kmsg(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	char *buf = fd >= 0 ? malloc(LV_LOG_MAX) : NULL;
	size_t n = 0;
	ssize_t r;

	while (buf && n + 8192 < LV_LOG_MAX &&
	       ((r = read(fd, buf + n, 8191)) > 0 || (r < 0 && errno == EPIPE)))
		n += r > 0 ? (size_t)r : 0;
	if (buf)
		buf[n] = '\0';
	if (fd >= 0)
		close(fd);
	return buf;
}

/* The firmware's name and revision from the kernel's log @log (NULL:
 * /dev/kmsg), "UEFI" and "" when it has no such line. */
static void lv_firmware(const char *log, char type[64], char info[128])
{
	char *mine = log ? NULL : lv_read_kmsg();

	if ((log || mine) &&
	    bli_firmware_from_log(log ? log : mine, type, 64, info, 128) == 0) {
		free(mine);
		return;
	}
	free(mine);
	snprintf(type, 64, "UEFI");
	info[0] = '\0';
}

void boot_loader_vars_init(struct boot_loader_vars *b, const char *dir,
			   const char *log, const char *boot_device,
			   const struct entry_list *list,
			   const struct choose *choose)
{
	memset(b, 0, sizeof(*b));
	snprintf(b->dir, sizeof(b->dir), "%s", dir);
	b->vars.dir = b->dir;
	b->list = list;
	b->choose = choose;
	/* the kernel's log is read when a boot writes the variables, not
	 * before the menu is drawn */
	if (log)
		lv_firmware(log, b->fw_type, b->fw_info);
	if (bli_boot_current(&b->vars, b->part_uuid, b->image,
			     sizeof(b->image)) == 0)
		return;
	b->image[0] = '\0';
	b->part_uuid[0] = '\0';
	if (boot_device && !strncasecmp(boot_device, "PARTUUID=", 9) &&
	    strlen(boot_device + 9) == EFI_GUID_TEXT - 1)
		snprintf(b->part_uuid, sizeof(b->part_uuid), "%s",
			 boot_device + 9);
}

/* Every entry's identifier, in the list's (the menu's) order. */
static char (*lv_ids(const struct entry_list *l, const char ***ptrs,
		     size_t *n))[CHOOSE_LOADER_ID_MAX]
{
	char(*ids)[CHOOSE_LOADER_ID_MAX] = calloc(l->count + 1, sizeof(*ids));

	*ptrs = calloc(l->count + 1, sizeof(**ptrs));
	*n = 0;
	for (const struct entry *e = l->head; ids && *ptrs && e; e = e->next)
		/* LoaderEntries lists what can boot; unlocking is no boot */
		if (*n < l->count && e->method != ENTRY_UNLOCK) {
			choose_loader_id(l, e, ids[*n]);
			(*ptrs)[*n] = ids[*n];
			(*n)++;
		}
	return ids;
}

/* @e, or the entry of @l it was copied from (an edited entry is a copy
 * with the same id and filesystem): the identifier is the list's. */
static const struct entry *lv_in_list(const struct entry_list *l,
				      const struct entry *e)
{
	for (const struct entry *p = l->head; p; p = p->next)
		if (p == e)
			return e;
	for (const struct entry *p = l->head; p; p = p->next)
		if (p->fs == e->fs && p->format == e->format && p->id &&
		    e->id && !strcmp(p->id, e->id))
			return p;
	return e;
}

int boot_loader_vars_write(const struct boot_loader_vars *b,
			   const struct entry *e, char *err, size_t len)
{
	char info[64], sel[CHOOSE_LOADER_ID_MAX], fw_type[64], fw_info[128];
	double t = choose_timeout(b->choose, b->list);
	struct bli_loader l = {.info = info,
			       .fw_info = fw_info,
			       .fw_type = fw_type,
			       .part_uuid = b->part_uuid,
			       .image = b->image,
			       .menu_us = b->menu_us,
			       .selected = sel,
			       .timeout_s = t < 0 ? BLI_TIMEOUT_FORCE : (int)t,
			       .features = BLI_FEATURES};
	const char **ptrs = NULL;
	char(*ids)[CHOOSE_LOADER_ID_MAX] = lv_ids(b->list, &ptrs, &l.n_ids);
	int rc;

	if (!ids || !ptrs) {
		free(ids);
		free(ptrs);
		return say(err, len, -ENOMEM, "out of memory");
	}
	if (b->fw_type[0]) {
		snprintf(fw_type, sizeof(fw_type), "%s", b->fw_type);
		snprintf(fw_info, sizeof(fw_info), "%s", b->fw_info);
	} else {
		lv_firmware(NULL, fw_type, fw_info);
	}
	snprintf(info, sizeof(info), "bootmenu %s", BOOTMENU_VERSION);
	choose_loader_id(b->list, lv_in_list(b->list, e), sel);
	l.ids = ptrs;
	l.exec_us = boot_loader_vars_now();
	rc = bli_write(&b->vars, &l, err, len);
	free(ids);
	free(ptrs);
	return rc;
}

int boot_loader_vars_clear_once(const struct boot_loader_vars *b, char *err,
				size_t len)
{
	if (!b->choose->loader_oneshot[0])
		return 0;
	return bli_clear_oneshot(&b->vars, err, len);
}
