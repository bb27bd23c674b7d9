#!/usr/bin/env bash
# tests/ship.sh BUILD - what ships carries no test seam (issue #32): the
# programs of the initramfs built into bootmenu.efi, and the installer,
# hold none of the test double's environment names, and no file of the
# kexec room reads the environment. Prints PASS/FAIL/SKIP lines.
set -u
B=$1
cd "$(dirname "$0")/.."
seam='BOOTMENU_KEXEC_FAULT|BOOTMENU_KEXEC_LOCKDOWN|kexec_sys_set_ops'
for p in target/bootmenu target/kexload target/init host/bootmenu-install; do
	f=$B/$p
	if [ ! -f "$f" ]; then
		echo "SKIP ship.no_seam.$p: $f missing (run make)"
	elif strings "$f" | grep -Eq "$seam"; then
		echo "FAIL ship.no_seam.$p: $(strings "$f" | grep -Eo "$seam" | sort -u | tr '\n' ' ')"
	else
		echo "PASS ship.no_seam.$p"
	fi
done
# the fault build does carry it: the check above can see a seam
if [ -f "$B/target/bootmenu-fault" ]; then
	if strings "$B/target/bootmenu-fault" | grep -Eq "$seam"; then
		echo "PASS ship.fault_build_has_the_seam"
	else
		echo "FAIL ship.fault_build_has_the_seam: the check cannot see a seam"
	fi
else
	echo "SKIP ship.fault_build_has_the_seam: $B/target/bootmenu-fault missing"
fi
if grep -ln 'getenv\|secure_getenv' bootmenu/kexec/*.c | grep -q .; then
	echo "FAIL ship.kexec_reads_no_environment: $(grep -ln 'getenv' bootmenu/kexec/*.c | tr '\n' ' ')"
else
	echo "PASS ship.kexec_reads_no_environment"
fi
