# bootmenu: one non-recursive Makefile. Every output goes under build/.
#   make          host + target programs, kernel, initramfs, bootmenu.efi, demo.img
#   make run      boot build/bootmenu.efi with the demo disk in QEMU (UEFI=1: through OVMF)
#   make test     unit tests (ASan+UBSan), fuzz smoke runs, QEMU end-to-end tests
#   make bench    benchmarks into build/bench/
#   make fuzz     every libFuzzer target for FUZZ_SECONDS
# V=1 shows full commands.

B := build
SHELL := /bin/bash
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:

ifeq ($(V),1)
Q :=
else
Q := @
endif

WERROR ?= -Werror
CSTD := -std=gnu11
WARN := -Wall -Wextra $(WERROR) -Wno-unused-parameter
CPPFLAGS_COMMON := -Ibootmenu -D_GNU_SOURCE -DBOOTMENU_VERSION=\"$(shell cat VERSION)\"

# --- sources, found by wildcard
PROG_SRCS := bootmenu/main.c bootmenu/kexload.c bootmenu/init/init.c bootmenu/installer.c
LIB_SRCS := $(filter-out $(PROG_SRCS),$(wildcard bootmenu/*.c bootmenu/*/*.c))
LIB_ASM := $(wildcard bootmenu/*/*.S)
TEST_SRCS := $(wildcard tests/unit/test_*.c)
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
HDRS := $(wildcard bootmenu/*.h bootmenu/*/*.h tests/unit/*.h)

# --- dependencies from Debian's packages (installs them as root)
DEPS := $(B)/.deps-ok
$(DEPS): scripts/deps.sh
	$(Q)mkdir -p $(B) && bash scripts/deps.sh && touch $@

# --- host build (glibc): tests, --list, --dry-run on a workstation
HOST_CC ?= gcc
HOST_CFLAGS ?= -O2 -g
HOST_LIBS := -lblkid -lncursesw -ltinfo -lpthread
host_obj = $(patsubst %,$(B)/$(1)/obj/%.o,$(2))

define host_variant
# $(1) variant dir, $(2) compiler, $(3) flags
$(B)/$(1)/obj/%.c.o: %.c $(HDRS) | $(DEPS)
	@mkdir -p $$(@D)
	@echo "  CC [$(1)] $$<"
	$(Q)$(2) $(CSTD) $(WARN) $(CPPFLAGS_COMMON) $$(OBJ_DEFS) $(3) -c $$< -o $$@
$(B)/$(1)/obj/%.S.o: %.S | $(DEPS)
	@mkdir -p $$(@D)
	@echo "  AS [$(1)] $$<"
	$(Q)$(2) $(CPPFLAGS_COMMON) -c $$< -o $$@
$(B)/$(1)/libbootmenu.a: $(call host_obj,$(1),$(LIB_SRCS) $(LIB_ASM))
	$(Q)rm -f $$@ && ar rcs $$@ $$^
endef

$(eval $(call host_variant,host,$(HOST_CC),$(HOST_CFLAGS)))
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
$(eval $(call host_variant,asan,$(HOST_CC),-O1 -g $(SAN)))

$(B)/host/bootmenu: $(B)/host/obj/bootmenu/main.c.o $(B)/host/libbootmenu.a
	$(Q)$(HOST_CC) -o $@ $^ $(HOST_LIBS)
$(B)/host/kexload: $(B)/host/obj/bootmenu/kexload.c.o $(B)/host/libbootmenu.a
	$(Q)$(HOST_CC) -o $@ $^ $(HOST_LIBS)
$(B)/host/init: $(B)/host/obj/bootmenu/init/init.c.o $(B)/host/libbootmenu.a
	$(Q)$(HOST_CC) -o $@ $^ $(HOST_LIBS)

# the installer (bootmenu/install/); the same code is `bootmenu install`.
# Its default image is where `make install` puts it: PREFIX is compiled
# into cli.c (the stamp is rewritten only when PREFIX changes)
PREFIX ?= /usr/local
LIBDIR := $(PREFIX)/lib/bootmenu
PREFIX_STAMP := $(B)/host/prefix
$(PREFIX_STAMP): FORCE
	@mkdir -p $(@D)
	$(Q)[ "$$(cat $@ 2>/dev/null)" = "$(LIBDIR)" ] || echo "$(LIBDIR)" > $@
$(B)/host/obj/bootmenu/install/cli.c.o: $(PREFIX_STAMP)
$(B)/host/obj/bootmenu/install/cli.c.o: OBJ_DEFS = -DBOOTMENU_LIBDIR=\"$(LIBDIR)\"
$(B)/host/bootmenu-install: $(B)/host/obj/bootmenu/installer.c.o $(B)/host/libbootmenu.a
	$(Q)$(HOST_CC) -o $@ $^ $(HOST_LIBS)

# The kexec calls' test double (tests/double/kexec_double.c, kexec/raw.h):
# linked into the unit tests and the *-fault programs in place of
# kexec/sys_real.c, never into what ships. An object named before the
# archive wins: the archive's sys_real.o is then never pulled in.
DOUBLE_SRC := tests/double/kexec_double.c
DOUBLE_HDRS := $(wildcard tests/double/*.h)
$(B)/host/double.o: $(DOUBLE_SRC) $(HDRS) $(DOUBLE_HDRS) | $(DEPS)
	@mkdir -p $(@D)
	$(Q)$(HOST_CC) $(CSTD) $(WARN) $(CPPFLAGS_COMMON) -Itests/double $(HOST_CFLAGS) -c $< -o $@
$(B)/host/kexload-fault: $(B)/host/obj/bootmenu/kexload.c.o $(B)/host/double.o $(B)/host/libbootmenu.a
	$(Q)$(HOST_CC) -o $@ $^ $(HOST_LIBS)

HOST_PROGS := $(B)/host/bootmenu $(B)/host/kexload $(B)/host/init $(B)/host/bootmenu-install \
	$(B)/host/kexload-fault
host: $(HOST_PROGS)

# unit tests run under AddressSanitizer + UndefinedBehaviorSanitizer
UNIT_BINS := $(patsubst tests/unit/%.c,$(B)/asan/tests/%,$(TEST_SRCS))
$(B)/asan/double.o: $(DOUBLE_SRC) $(HDRS) $(DOUBLE_HDRS) | $(DEPS)
	@mkdir -p $(@D)
	$(Q)$(HOST_CC) $(CSTD) $(WARN) $(CPPFLAGS_COMMON) -Itests/double -O1 -g $(SAN) -c $< -o $@
# the fake TPM the unit tests talk to over a socketpair (tpm/tpm.h's tpm_open_fd())
$(B)/asan/tpm_double.o: tests/double/tpm_double.c $(HDRS) $(DOUBLE_HDRS) | $(DEPS)
	@mkdir -p $(@D)
	$(Q)$(HOST_CC) $(CSTD) $(WARN) $(CPPFLAGS_COMMON) -Itests/double -O1 -g $(SAN) -c $< -o $@
$(B)/asan/tests/%: tests/unit/%.c $(B)/asan/double.o $(B)/asan/tpm_double.o $(B)/asan/libbootmenu.a $(HDRS) $(DOUBLE_HDRS)
	@mkdir -p $(@D)
	@echo "  CC [test] $<"
	$(Q)$(HOST_CC) $(CSTD) $(WARN) $(CPPFLAGS_COMMON) -Itests/unit -Itests/double -O1 -g $(SAN) \
		-o $@ $< $(B)/asan/double.o $(B)/asan/tpm_double.o $(B)/asan/libbootmenu.a $(HOST_LIBS)

# --- musl sysroot: ncurses, libblkid, busybox from Debian's source packages
SYSROOT := $(B)/sysroot
SYSROOT_STAMP := $(SYSROOT)/.done
$(SYSROOT_STAMP): scripts/sysroot.sh initramfs/busybox.config | $(DEPS)
	$(Q)bash scripts/sysroot.sh $(SYSROOT)

# --- target build (static musl): what goes into the initramfs
TARGET_CC := musl-gcc
TARGET_CFLAGS := -Os -g0 -static -isystem $(SYSROOT)/uapi -I$(SYSROOT)/include -ffunction-sections -fdata-sections
TARGET_LDFLAGS := -static -L$(SYSROOT)/lib -Wl,--gc-sections -s
TARGET_LIBS := -lblkid -lncursesw -lpthread
$(B)/target/obj/%.c.o: %.c $(HDRS) $(SYSROOT_STAMP)
	@mkdir -p $(@D)
	@echo "  CC [target] $<"
	$(Q)$(TARGET_CC) $(CSTD) $(WARN) $(CPPFLAGS_COMMON) -DBOOTMENU_TARGET $(TARGET_CFLAGS) -c $< -o $@
$(B)/target/obj/%.S.o: %.S $(SYSROOT_STAMP)
	@mkdir -p $(@D)
	$(Q)$(TARGET_CC) $(CPPFLAGS_COMMON) -c $< -o $@
# the key derivations a LUKS passphrase waits on, for speed rather than
# size: Argon2 about 20% faster for 2.2 KiB more (make bench, 11)
TARGET_FAST := argon2 blake2b sha256 sha512 sha_md hash
$(foreach f,$(TARGET_FAST),$(B)/target/obj/bootmenu/util/$(f).c.o): TARGET_CFLAGS += -O2
$(B)/target/libbootmenu.a: $(call host_obj,target,$(LIB_SRCS) $(LIB_ASM))
	$(Q)rm -f $@ && ar rcs $@ $^
$(B)/target/bootmenu: $(B)/target/obj/bootmenu/main.c.o $(B)/target/libbootmenu.a
	$(Q)$(TARGET_CC) $(TARGET_LDFLAGS) -o $@ $^ $(TARGET_LIBS)
$(B)/target/kexload: $(B)/target/obj/bootmenu/kexload.c.o $(B)/target/libbootmenu.a
	$(Q)$(TARGET_CC) $(TARGET_LDFLAGS) -o $@ $^ $(TARGET_LIBS)
$(B)/target/init: $(B)/target/obj/bootmenu/init/init.c.o $(B)/target/libbootmenu.a
	$(Q)$(TARGET_CC) $(TARGET_LDFLAGS) -o $@ $^ $(TARGET_LIBS)
# the demo's and tests' target userspace (prints its cmdline, then a shell or power-off)
$(B)/target/testinit: tests/target/testinit.c $(SYSROOT_STAMP)
	@mkdir -p $(@D)
	$(Q)$(TARGET_CC) $(CSTD) $(WARN) $(TARGET_CFLAGS) $(TARGET_LDFLAGS) -o $@ $<

TARGET_PROGS := $(B)/target/bootmenu $(B)/target/kexload $(B)/target/init
target: $(TARGET_PROGS)
# the fault builds the end-to-end tests boot (kexec calls from the double)
$(B)/target/double.o: $(DOUBLE_SRC) $(HDRS) $(DOUBLE_HDRS) $(SYSROOT_STAMP)
	@mkdir -p $(@D)
	$(Q)$(TARGET_CC) $(CSTD) $(WARN) $(CPPFLAGS_COMMON) -Itests/double $(TARGET_CFLAGS) -c $< -o $@
$(B)/target/bootmenu-fault: $(B)/target/obj/bootmenu/main.c.o $(B)/target/double.o $(B)/target/libbootmenu.a
	$(Q)$(TARGET_CC) $(TARGET_LDFLAGS) -o $@ $^ $(TARGET_LIBS)
$(B)/target/kexload-fault: $(B)/target/obj/bootmenu/kexload.c.o $(B)/target/double.o $(B)/target/libbootmenu.a
	$(Q)$(TARGET_CC) $(TARGET_LDFLAGS) -o $@ $^ $(TARGET_LIBS)

# --- kernel from Debian's linux-source-6.1, tinyconfig + kernel/bootmenu.config
KERNEL := $(B)/kernel/bzImage
# the built-in trusted keys: kernel/keys/*.pem and TRUSTED_CERTS (PEM or DER
# files); remade each run, rewritten only when the set changes
TRUSTED_CERTS ?=
TRUSTED_PEM := $(B)/kernel/trusted-keys.pem
$(TRUSTED_PEM): FORCE
	$(Q)bash kernel/keys.sh $@ $(TRUSTED_CERTS)
$(KERNEL): kernel/bootmenu.config kernel/build.sh $(wildcard kernel/patches/*.patch) $(TRUSTED_PEM) | $(DEPS)
	$(Q)bash kernel/build.sh plain $@

GEN_INIT_CPIO := $(B)/tools/gen_init_cpio
$(GEN_INIT_CPIO): $(KERNEL)
	@mkdir -p $(@D)
	$(Q)$(HOST_CC) -O2 -o $@ $(B)/kernel/linux-source-6.1/usr/gen_init_cpio.c

# --- initramfs (the list is gen_init_cpio's format; see initramfs/files.list)
INITRAMFS := $(B)/initramfs.cpio.gz
$(INITRAMFS) $(B)/initramfs.list: initramfs/files.list initramfs/mklist.sh configs/bootmenu.conf $(TARGET_PROGS) $(SYSROOT_STAMP) $(GEN_INIT_CPIO)
	$(Q)bash initramfs/mklist.sh $(B)

# the same initramfs with the fault builds of bootmenu and kexload, for
# the end-to-end fault tests: booted as build/kernel/bzImage + this initrd
INITRAMFS_FAULT := $(B)/initramfs-fault.cpio.gz
$(INITRAMFS_FAULT): $(INITRAMFS) $(B)/target/bootmenu-fault $(B)/target/kexload-fault
	$(Q)bash initramfs/mklist.sh $(B) fault

# --- the boot image: the kernel with the initramfs built in, EFI stub
EFI := $(B)/bootmenu.efi
$(EFI): $(KERNEL) $(INITRAMFS) $(TRUSTED_PEM) $(wildcard kernel/patches/*.patch)
	$(Q)bash kernel/build.sh efi $@ $(abspath $(B)/initramfs.list)
	$(Q)bash scripts/sizes.sh $(B)

# --- Secure Boot: the image to sign has only its built-in command line
# (kernel/build.sh sb); `make sign SIGN_KEY=key.pem SIGN_CERT=cert.pem`
# (an encrypted key: SIGN_PASS=...) writes bootmenu.signed.efi
# It carries an .sbat section (configs/sbat.csv, added by scripts/pe-sbat.py
# to the kernel's output, build/kernel/bootmenu-sb.nosbat.efi): shim starts
# no second stage without one
SB_EFI := $(B)/bootmenu-sb.efi
SB_NOSBAT := $(B)/kernel/bootmenu-sb.nosbat.efi
SBAT_CSV := configs/sbat.csv
SBAT_VALUES = VERSION=$(VERSION) LINUX_VERSION=$(shell dpkg-query -W -f='$${Version}' linux-source-6.1)
$(SB_EFI): $(KERNEL) $(INITRAMFS) $(TRUSTED_PEM) $(wildcard kernel/patches/*.patch)
	$(Q)bash kernel/build.sh sb $(SB_NOSBAT) $(abspath $(B)/initramfs.list)
	$(Q)python3 scripts/pe-sbat.py add $(SB_NOSBAT) $@ $(SBAT_CSV) $(SBAT_VALUES)
$(SB_EFI): $(SBAT_CSV) scripts/pe-sbat.py VERSION
SIGN_KEY ?=
SIGN_CERT ?=
sign: $(SB_EFI)
	$(Q)bash scripts/sign.sh $(SB_EFI) $(B)/bootmenu.signed.efi "$(SIGN_KEY)" "$(SIGN_CERT)"

# --- install: the images, the installer, the man pages under
# $(DESTDIR)$(PREFIX); install-files copies what is built and builds nothing
MAN8 := $(wildcard man/*.8)
MAN5 := $(wildcard man/*.5)
SIGNED_EFI := $(B)/bootmenu.signed.efi
install: $(EFI) $(B)/host/bootmenu-install
	$(Q)$(MAKE) --no-print-directory install-files
install-files:
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PREFIX)/sbin \
		$(DESTDIR)$(PREFIX)/share/man/man8 $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 0644 $(EFI) $(DESTDIR)$(LIBDIR)/bootmenu.efi
	$(if $(wildcard $(SIGNED_EFI)),install -m 0644 $(SIGNED_EFI) $(DESTDIR)$(LIBDIR)/bootmenu.signed.efi)
	install -m 0755 $(B)/host/bootmenu-install $(DESTDIR)$(PREFIX)/sbin/bootmenu-install
	install -m 0644 $(MAN8) $(DESTDIR)$(PREFIX)/share/man/man8/
	install -m 0644 $(MAN5) $(DESTDIR)$(PREFIX)/share/man/man5/
uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/bootmenu.efi $(DESTDIR)$(LIBDIR)/bootmenu.signed.efi \
		$(DESTDIR)$(PREFIX)/sbin/bootmenu-install \
		$(addprefix $(DESTDIR)$(PREFIX)/share/man/man8/,$(notdir $(MAN8))) \
		$(addprefix $(DESTDIR)$(PREFIX)/share/man/man5/,$(notdir $(MAN5)))
	-rmdir $(DESTDIR)$(LIBDIR)
# make deb: those files under /usr in a Debian package, build/bootmenu_V_amd64.deb
# (no maintainer scripts: installing the package touches no firmware, no disk)
VERSION := $(shell cat VERSION)
DEB := $(B)/bootmenu_$(VERSION)_amd64.deb
deb: $(EFI)
	$(Q)$(MAKE) --no-print-directory deb-package
deb-package:
	$(Q)$(MAKE) --no-print-directory PREFIX=/usr $(B)/host/bootmenu-install
	$(Q)rm -rf $(B)/deb && $(MAKE) --no-print-directory -s PREFIX=/usr DESTDIR=$(abspath $(B)/deb/root) install-files
	$(Q)bash scripts/deb.sh $(B)/deb/root $(VERSION) $(DEB)

# --- demo disk and the test targets
TESTINIT_CPIO := $(B)/target-initrd.cpio.gz
$(TESTINIT_CPIO): $(B)/target/testinit images/target-initrd.sh $(GEN_INIT_CPIO)
	$(Q)bash images/target-initrd.sh $(B)
DEMO := $(B)/demo.img
DEBKERNEL := $(B)/debkernel/vmlinuz
$(DEBKERNEL): scripts/debian-kernel.sh | $(DEPS)
	$(Q)bash scripts/debian-kernel.sh $(B)
# Debian's Xen for the multiboot2 e2e test (tests/e2e/test_xen.py)
DEBXEN := $(B)/debxen/xen.gz
$(DEBXEN): scripts/debian-xen.sh | $(DEPS)
	$(Q)bash scripts/debian-xen.sh $(B)
$(DEMO): images/demo.sh $(KERNEL) $(DEBKERNEL) $(TESTINIT_CPIO) $(wildcard images/demo/*)
	$(Q)bash images/demo.sh $(B)
ESP := $(B)/esp.img
# a real Debian 12 userspace (systemd 252) for the Boot Loader Interface
# tests; made once and kept (root only: debootstrap)
BLI_DEBIAN := $(B)/bli-debian/root.ext4
$(BLI_DEBIAN): images/bli-debian.sh images/debian-root.sh $(DEBKERNEL) | $(DEPS)
	$(Q)bash images/bli-debian.sh $(B)
# a Debian 12 disk whose root is LUKS2 (Debian's cryptsetup-initramfs) for
# the "type it once" tests (tests/e2e/test_luks.py); made once and kept
# (root only: debootstrap, chroot)
LUKS_DEBIAN := $(B)/luks-debian/disk.img
$(LUKS_DEBIAN): images/luks-debian.sh images/debian-root.sh $(DEBKERNEL) | $(DEPS)
	$(Q)bash images/luks-debian.sh $(B)
$(ESP): images/esp.sh $(EFI)
	$(Q)bash images/esp.sh $(B)
# the tests' Secure Boot disk: that image and test kernels signed with the
# snakeoil key Debian's OVMF enrols (images/secureboot.sh)
# the dual-boot tests' stand-in for Windows' loader, and their disk
STANDIN := $(B)/standin.efi
$(STANDIN): tests/target/standin.c images/standin.sh | $(DEPS)
	$(Q)bash images/standin.sh $(B)
DUAL_DISK := $(B)/dualboot/disk.img
$(DUAL_DISK): images/dualboot.sh $(EFI) $(STANDIN)
	$(Q)bash images/dualboot.sh $(B)
SB_DISK := $(B)/sb-test/disk.img
$(SB_DISK): images/secureboot.sh scripts/sign.sh $(SB_EFI) $(KERNEL) $(DEBKERNEL) $(TESTINIT_CPIO)
	$(Q)bash images/secureboot.sh $(B)
# the shim tests' disks: Debian's shim and MokManager signed with the
# snakeoil key, bootmenu-sb.efi signed only with a test MOK made there
# (images/shim.sh)
SHIM_DISK := $(B)/shim-test/disk.img
$(SHIM_DISK): images/shim.sh images/mok-request.py scripts/sign.sh $(SB_EFI) $(KERNEL) $(DEBKERNEL) $(TESTINIT_CPIO) | $(DEPS)
	$(Q)bash images/shim.sh $(B)

all: host target $(EFI) $(DEMO)
	@bash scripts/sizes.sh $(B) --quiet

run: $(EFI) $(DEMO) $(if $(UEFI),$(ESP))
	$(Q)bash images/run.sh $(B)

# --- tests
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,$(FUZZ_SRCS))
FUZZ_LIB_SRCS := $(filter-out bootmenu/ui/% bootmenu/scan/probe%.c bootmenu/scan/hotplug%.c bootmenu/scan/scan%.c bootmenu/scan/remount%.c bootmenu/session/% bootmenu/source/% bootmenu/savedef/% bootmenu/plain/% bootmenu/install/%,$(LIB_SRCS)) $(LIB_ASM)
# The targets cap the included files of one input at 64 (bootmenu: 1,024):
# an input that includes itself is then 64 parses, not 1,024, which keeps a
# run fast; the budget's own path is still reached. Likewise an iPXE script
# runs at most 1,000 commands and 128 gotos a path (bootmenu: 10,000, 1,024).
# coverage-ignore.txt names the crypto rounds that give libFuzzer no feedback.
FUZZ_FLAGS := -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-DCFG_FILES_MAX=64 -DIPXE_STEPS_MAX=1000 -DIPXE_GOTO_MAX=128 -DIPXE_EXPAND_BYTES_MAX=1048576ul \
	-fsanitize-coverage-ignorelist=tests/fuzz/coverage-ignore.txt
$(B)/fuzz/%: tests/fuzz/%.c $(FUZZ_LIB_SRCS) $(HDRS) $(wildcard tests/fuzz/*.h) \
		tests/fuzz/coverage-ignore.txt | $(DEPS)
	@mkdir -p $(@D)
	@echo "  FUZZ $<"
	$(Q)clang $(CSTD) $(CPPFLAGS_COMMON) -Wno-unused-parameter $(FUZZ_FLAGS) -o $@ $< $(FUZZ_LIB_SRCS) -lpthread

FUZZ_SECONDS ?= 60
fuzz: $(FUZZ_BINS)
	$(Q)bash tests/fuzz/run.sh $(B) $(FUZZ_SECONDS)

test: host $(UNIT_BINS) $(FUZZ_BINS) $(EFI) $(DEMO) $(ESP) $(BLI_DEBIAN) $(LUKS_DEBIAN) $(SB_DISK) $(SHIM_DISK) $(DUAL_DISK) $(B)/target/kexload $(INITRAMFS_FAULT) $(DEBXEN)
	$(Q)bash tests/run.sh $(B)

unit: $(UNIT_BINS) host
	$(Q)bash tests/run.sh $(B) unit fixtures

bench: all $(ESP) $(B)/asan/tests/test_session
	$(Q)bash tests/bench/run.sh $(B)

clean:
	rm -rf $(B)/host $(B)/asan $(B)/target $(B)/fuzz

distclean:
	rm -rf $(B)

.PHONY: all host target run test unit bench fuzz clean distclean sign install install-files uninstall deb deb-package FORCE
FORCE:
