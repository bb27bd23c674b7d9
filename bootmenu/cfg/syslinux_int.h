/* syslinux_int.h - what the syslinux files share, for them only: the
 * limits, the labels, and reading one config (syslinux.c).
 *
 * The files call one way: syslinux_find.c finds the config the way each
 * variant does (syslinux.h) -> syslinux_boot.c does what ldlinux does
 * with the labels at boot (DEFAULT and UI, CONFIG) and turns them into
 * entries (syslinux_boot.h) -> syslinux_com32.c, the COM32 dispatchers
 * (syslinux_com32.h), and syslinux.c, which reads one config (keywords,
 * INCLUDE, MENU) into labels (this header). Labels, records and their
 * strings are owned by ctx->a.
 */
#ifndef BM_CFG_SYSLINUX_INT_H
#define BM_CFG_SYSLINUX_INT_H

#include "cfg/ctx.h"

/* Longest line syslinux reads (readconfig.c MAX_LINE); longer ones are
 * cut there, as syslinux does. */
#define SYSLINUX_LINE_MAX 4096
/* Most labels one config tree may define. */
#define SYSLINUX_LABELS_MAX 4096
/* Most CONFIGs followed from the first config (each one starts over; a
 * config that CONFIGs itself would loop for ever in syslinux too). */
#define SYSLINUX_CONFIG_DEPTH 8
/* Most COM32 dispatchers (whichsys.c32, ifcpu64.c32, ifcpu.c32) one
 * command goes through. */
#define SYSLINUX_DISPATCH_DEPTH 8
/* Most words of a dispatcher's command line that are looked at. */
#define SYSLINUX_ARGS_MAX 256

/* Which loader bootmenu acts as (syslinux/config.h's SYSLINUX_FS_*):
 * whichsys.c32 branches on it and `::` paths only mean something to
 * PXELINUX. EXTLINUX is SYSLINUX here, as ldlinux-c.c reports it. */
enum sl_variant {
	SL_VAR_SYSLINUX,
	SL_VAR_ISOLINUX,
	SL_VAR_PXELINUX,
};

/* How a label boots: ldlinux's kernel_types. */
enum sl_type {
	SL_LINUX,
	SL_COM32,
	SL_COMBOOT,
	SL_BOOTSECT,
	SL_PXE,
	SL_FDIMAGE,
	SL_CONFIG,
	SL_LOCALBOOT,
};

/* One LABEL as the config defines it. */
struct sl_label {
	bool active;
	const char *label, *kernel, *append, *initrd, *menulabel, *fdt;
	enum sl_type type;
	bool hide, menudefault, disabled, passwd, noboot;
	const char *file;
	int line;
	const char *group;
};

/* A label once its definition ended (readconfig.c's record()). */
struct sl_rec {
	struct sl_label l;
	const char *append; /* the global APPEND at that point */
	bool top;	    /* in the top menu */
	bool is_menu;	    /* the menu module DEFAULT runs: not an entry */
	bool broken;	    /* the boot's CONFIG, and it could not be read */
	struct entry *e;    /* its entry, once made (NULL for CONFIG) */
	bool added;	    /* and listed */
};

/* Files read in this scan, so a config reached twice (a CONFIG group of
 * a file read already) yields its entries once. */
struct sl_seen {
	const char **v;
	size_t n, cap;
};

/* One configuration as ldlinux runs it: a new one for each CONFIG. */
struct sl_parse {
	struct cfg_ctx *ctx;
	const struct sl_parse *parent; /* the config whose CONFIG led here */
	struct sl_seen *seen;
	enum sl_variant variant;
	const char *tftp_root; /* PXELINUX: where `::` paths start */
	const char *path;      /* this config */
	const char *cwd;
	const char *append; /* global APPEND */
	const char *dflt, *ui, *ontimeout;
	int prompt;
	int timeout, totaltimeout; /* tenths, -1 unset */
	const char *group_base;	   /* group of a CONFIG'd config */
	int chain;		   /* CONFIGs followed to reach this one */
	const char *groups[CFG_SUBMENU_DEPTH + 1];
	bool labelled[CFG_SUBMENU_DEPTH + 1]; /* MENU LABEL named the group */
	int menu_depth;
	const char *stack[CFG_INCLUDE_DEPTH + 1]; /* files being read */
	int depth;
	struct sl_label cur;
	struct sl_rec *recs;
	size_t n_recs, cap_recs;
	int added;
};

/* Why an entry whose files need a `::` path is not bootable here. */
#define SL_NET_REASON                                                          \
	"a PXELINUX path (::...) is only reachable over the network"

/* syslinux.c */
void sl_warn(struct sl_parse *s, const char *file, int line, const char *msg,
	     const char *arg, size_t n);
char *sl_strip_caret(struct arena *a, const char *t);
void sl_seen_add(struct arena *a, struct sl_seen *seen, const char *path);
bool sl_seen_has(const struct sl_seen *seen, const char *path);
const char *sl_canon(struct sl_parse *s, const char *path);
enum sl_type sl_type_by_name(const char *file);
/* A file name as this variant opens it; *net is set (and the path is
 * made as if from the TFTP root) for a `::` path off PXELINUX. */
char *sl_path(struct sl_parse *s, const char *name, bool *net);
/* End the label being defined: it joins s->recs. */
void sl_record(struct sl_parse *s);
/* Read @path (through INCLUDEs) into @s. 0 or -errno. */
int sl_read_file(struct sl_parse *s, const char *path);
int sl_parse_text(struct sl_parse *s, const char *path, const char *buf,
		  size_t len);

#endif
