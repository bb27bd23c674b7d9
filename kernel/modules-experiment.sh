#!/usr/bin/env bash
# kernel/modules-experiment.sh BUILD OUT - issue #38's "menu before the
# drivers", measured: the kernel of kernel/bootmenu.config with the drivers
# the first frame does not need as signed modules (kernel/modules.config),
# built out of tree in OUT/obj from BUILD's unpacked source (read only),
# then the modules and their load list put into BUILD's initramfs and
# built in: OUT/bootmenu-mod.efi, to set beside BUILD/bootmenu.efi.
#   BUILD  a complete build (make): its kernel source, trusted keys,
#          initramfs.list (whose bootmenu loads /lib/modules/load.list
#          after its first frame: bootmenu/util/modload.c)
#   OUT    where the variant goes (its own objects: ~17-20 min on 2 cores)
# Then: python3 tests/bench/modules.py BUILD OUT  (the timed boots).
# Environment: KSRC (below), JOBS (default 2), FRAGMENT (default
# kernel/modules.config: which drivers become modules).
# The signing key the kernel build makes is deleted at the end: only its
# certificate stays in the image; running this again makes a new one and
# signs every module again.
set -euo pipefail
B=$(cd "$1" && pwd)
mkdir -p "$2"
X=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
# KSRC: the unpacked source to read, if not BUILD's (the objects of a tree
# built from one source path are all rebuilt from another)
src=${KSRC:-$B/kernel/linux-source-6.1}
obj=$X/obj
stage=$X/stage
jobs=${JOBS:-2}
frag=${FRAGMENT:-$here/modules.config}
kmake() { nice -n 5 make -C "$src" O="$obj" ARCH=x86_64 -j"$jobs" "$@"; }
[ -f "$src/.unpacked" ] || { echo "no unpacked kernel source in $B (make first)" >&2; exit 1; }

# --- config: tinyconfig + bootmenu.config + modules.config, each asked-for
# value checked (a =m that fell back to y or n means a dependency is built in)
mkdir -p "$obj"
if [ ! -f "$obj/.config" ] || [ "$frag" -nt "$obj/.config" ] ||
   [ "$frag" != "$(cat "$obj/.config.fragment" 2>/dev/null)" ] ||
   [ "$here/bootmenu.config" -nt "$obj/.config" ]; then
	kmake -s tinyconfig >/dev/null
	(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
		"$here/bootmenu.config" "$frag" >/dev/null)
	"$src/scripts/config" --file "$obj/.config" \
		--set-str SYSTEM_TRUSTED_KEYS "$B/kernel/trusted-keys.pem"
	kmake -s olddefconfig
	miss=0
	for o in $(grep -o '^CONFIG_[A-Z0-9_]*=[ym]' "$frag"); do
		grep -qx "$o" "$obj/.config" || { echo "modules: $o did not stick" >&2; miss=1; }
	done
	[ $miss -eq 0 ] || exit 1
	echo "$frag" >"$obj/.config.fragment"
fi

# --- the plain kernel and the modules, signed by modules_install
"$src/scripts/config" --file "$obj/.config" --set-str INITRAMFS_SOURCE ""
kmake -s olddefconfig
echo "  KERNEL bzImage modules (log in $X/build.log)"
kmake bzImage modules >"$X/build.log" 2>&1 || { tail -30 "$X/build.log" >&2; exit 1; }
cp "$obj/arch/x86/boot/bzImage" "$X/bzImage-plain"
rel=$(cat "$obj/include/config/kernel.release")
rm -rf "$stage"
kmake -s INSTALL_MOD_PATH="$stage" INSTALL_MOD_STRIP=1 modules_install >>"$X/build.log" 2>&1
depmod -b "$stage" "$rel"
mods=$stage/lib/modules/$rel
echo "  MODULES $(find "$mods" -name '*.ko' | wc -l) signed, in $mods"

# --- the load list: the filesystems first (a disk is readable the moment
# its uevent comes), then the storage drivers, then the rest; within each,
# levels of modules that load together (bootmenu/util/modload.c), each
# after the levels of its dependencies, the soft ones (modules.softdep's
# "pre:", through modules.alias) counted as hard; a mark after each part
python3 - "$mods" >"$X/load.list" <<'PY'
import os, sys
mods = sys.argv[1]
rel = os.path.basename(mods)
dep, byname = {}, {}
for line in open(os.path.join(mods, "modules.dep")):
    k, _, v = line.partition(":")
    dep[k] = v.split()
    byname[os.path.basename(k)[:-3].replace("-", "_")] = k
alias = {}
for line in open(os.path.join(mods, "modules.alias")):
    w = line.split()
    if len(w) == 3 and w[0] == "alias":
        alias.setdefault(w[1], w[2].replace("-", "_"))
for line in open(os.path.join(mods, "modules.softdep")):
    w = line.split()
    if len(w) > 3 and w[0] == "softdep" and w[2] == "pre:":
        for n in w[3:]:
            n = alias.get(n, n.replace("-", "_"))
            if n in byname:  # else built in
                dep[byname[w[1].replace("-", "_")]].append(byname[n])
classes = [(("fs/",), "filesystems loaded"),
           (("drivers/block/", "drivers/scsi/", "drivers/ata/", "drivers/nvme/",
             "drivers/usb/storage/", "drivers/mmc/", "drivers/virtio/"), "storage loaded"),
           (("",), "the rest loaded")]
level = {}
def lv(m):
    if m not in level:
        level[m] = 0
        level[m] = 1 + max([lv(d) for d in dep[m]] + [-1])
    return level[m]
done = set()
def closure(m, into):
    if m not in done and m not in into:
        into.add(m)
        for d in dep[m]:
            closure(d, into)
for prefixes, mark in classes:
    got = set()
    for m in dep:
        if any(m.startswith("kernel/" + p) for p in prefixes):
            closure(m, got)
    done |= got
    for n in sorted({lv(m) for m in got}):
        for m in sorted(m for m in got if lv(m) == n):
            print("/lib/modules/%s/%s" % (rel, m))
        print()
    print("#" + mark)
PY
cp "$X/load.list" "$mods/../load.list"

# --- the initramfs: BUILD's list plus the modules' tree
{
	cat "$B/initramfs.list"
	echo "dir /lib 0755 0 0"
	(cd "$stage" && find lib -mindepth 1 -type d | sort |
		sed 's|^\(.*\)$|dir /\1 0755 0 0|')
	(cd "$stage" && find lib -name '*.ko' -o -name load.list | sort |
		sed "s|^\(.*\)$|file /\1 $stage/\1 0644 0 0|")
} >"$X/initramfs.list"
"$src/scripts/config" --file "$obj/.config" --set-str INITRAMFS_SOURCE "$X/initramfs.list" \
	-e INITRAMFS_COMPRESSION_NONE
kmake -s olddefconfig
echo "  KERNEL bootmenu-mod.efi"
kmake bzImage >>"$X/build.log" 2>&1 || { tail -30 "$X/build.log" >&2; exit 1; }
cp "$obj/arch/x86/boot/bzImage" "$X/bootmenu-mod.efi"

# --- the private key goes: no module can be signed for this image again
rm -f "$obj/certs/signing_key.pem"

# --- sizes
{
	echo "bootmenu.efi (today)      $(stat -c %s "$B/bootmenu.efi")"
	echo "bootmenu-mod.efi          $(stat -c %s "$X/bootmenu-mod.efi")"
	echo "kernel alone (today)      $(stat -c %s "$B/kernel/bzImage")"
	echo "kernel alone (modular)    $(stat -c %s "$X/bzImage-plain")"
	echo "modules                   $(find "$mods" -name '*.ko' | wc -l)"
	echo "modules' bytes (.ko)      $(find "$mods" -name '*.ko' -printf '%s\n' | awk '{s += $1} END {print s}')"
	echo "modules' index files      $(find "$mods" -maxdepth 1 -type f -printf '%s\n' | awk '{s += $1} END {print s}')"
	# each signature: the PKCS#7 blob, then struct module_signature (its
	# last 4 bytes the blob's length, big-endian) and the 28-byte magic
	find "$mods" -name '*.ko' -print0 | xargs -0 python3 -c '
import struct, sys
n = 0
for p in sys.argv[1:]:
    t = open(p, "rb").read()
    assert t.endswith(b"~Module signature appended~\n"), p
    n += struct.unpack(">I", t[-32:-28])[0] + 12 + 28
print("module signatures         %d" % n)'
	echo "kernel/module/*.o (text+data+bss) $(size -t "$obj"/kernel/module/*.o | awk 'END {print $4}')"
} | tee "$X/sizes.txt"
