#!/usr/bin/env bash
# tests/fuzz/seeds/make-real.sh BUILD [TARGET...] - remake the fuzz seeds
# that real tools write (every target, or the ones named, e.g. fuzz_lvm),
# into tests/fuzz/seeds/<target>/real-*. SOURCES.md says which tool and
# version made each. Run as root: lvm2 and the btrfs search need loop
# devices over scratch files (never another device; nothing else is
# mounted or changed). Each seed is cut to what its target reads and to
# at most 64 KiB (the long runs' -max_len). UUIDs, keys and times change
# on every remake; the seeds' use is their shape.
set -eu
B=$(cd "${1:?usage: make-real.sh BUILD [TARGET...]}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
loops=()
mnts=()
cleanup() {
	for m in "${mnts[@]}"; do umount "$m"; done
	for l in "${loops[@]}"; do losetup -d "$l"; done
	rm -rf "$tmp"
}
trap cleanup EXIT
out() { # out TARGET: the target's directory, old real-* seeds removed
	rm -f "$here/$1"/real-*
	echo "$here/$1"
}
loop() { # loop FILE -> the loop device in $dev
	dev=$(losetup -f --show "$1")
	loops+=("$dev")
}

# fuzz_lvm takes a PV's first bytes (label, metadata area) or bare
# metadata text. Beside the fixtures' PVs (32 KiB areas, made by
# tests/fixtures/lvm/make.sh): lvm2's defaults (a 1 MiB area, its first
# 64 KiB kept), the label in sector 3, a PV without a metadata area, a PV
# in no VG, three PVs with a three-way stripe, and vgcfgbackup's text.
export LVM_SUPPRESS_FD_WARNINGS=1
LVC='devices{filter=["a|^/dev/loop|","r|.*|"] use_devicesfile=0 obtain_device_list_from_udev=0} activation{udev_sync=0 udev_rules=0 monitoring=0}'
lv() { "$@" --driverloaded n --config "$LVC" >/dev/null 2>&1; }
newpv() { # newpv NAME PVCREATE-ARGS... -> the loop device in $dev
	local n=$1
	shift
	truncate -s 64M "$tmp/$n.img"
	loop "$tmp/$n.img"
	lv pvcreate "$@" "$dev"
}
fuzz_lvm() {
	local d a b c
	d=$(out fuzz_lvm)
	newpv lvdef; a=$dev
	newpv lvsec3 --labelsector 3; b=$dev
	newpv lvnomda --pvmetadatacopies 0; c=$dev
	lv vgcreate vgdef "$a" "$b" "$c"
	lv lvcreate -an -Zn -L 8M -n root vgdef
	lv lvcreate -an -Zn -i2 -I64k -L 16M -n stripe vgdef
	lv lvcreate -an -Zn -i3 -I128k -L 12M -n three vgdef
	lv lvextend -L +8M vgdef/root
	lv lvchange --addtag boot vgdef/root
	lv vgcfgbackup -f "$tmp/vgdef.txt" vgdef
	newpv lvorphan
	for n in lvdef lvsec3 lvnomda lvorphan; do
		head -c 65536 "$tmp/$n.img" >"$d/real-$n.pv"
	done
	cp "$tmp/vgdef.txt" "$d/real-vgcfgbackup.txt"
}

for t in ${@:-fuzz_lvm}; do "$t"; done
