#!/usr/bin/env bash
# tests/bench/ovmf-stages.sh BUILD - where bootmenu's start-up goes under
# OVMF, beside SeaBIOS (issue #38): makes three ESPs with images/esp.sh
# under BUILD/bench/ovmf-stages/ (bootmenu.efi; the stand-in EFI loader of
# the dual-boot tests, 48 KB; the stand-in padded with zeros to
# bootmenu.efi's size, so the two differ only in what the firmware reads),
# the bench's disks, then runs ovmf_stages.py (report.md, results.json).
#   OVMF_STAGES_RUNS=5           boots of each variant, alternated
#   OVMF_STAGES_APPEND="opts"    also boot with these options (-kernel)
set -euo pipefail
B=$(cd "$1" && pwd)
H=$(cd "$(dirname "$0")" && pwd)
O=$B/bench/ovmf-stages
for f in "$B/bootmenu.efi" "$B/standin.efi" "$B/demo.img"; do
	[ -f "$f" ] || { echo "ovmf-stages: $f is missing (make all, then make $f)" >&2; exit 1; }
done
mkdir -p "$O/bootmenu" "$O/standin" "$O/padded"
cp "$B/bootmenu.efi" "$O/bootmenu/bootmenu.efi"
cp "$B/standin.efi" "$O/standin/bootmenu.efi"
cp "$B/standin.efi" "$O/padded/bootmenu.efi"
truncate -s "$(stat -c %s "$B/bootmenu.efi")" "$O/padded/bootmenu.efi"
for d in bootmenu standin padded; do
	bash "$H/../../images/esp.sh" "$O/$d"
done
bash "$H/mkdisks.sh" "$B"
echo "ovmf-stages: ${OVMF_STAGES_RUNS:-5} runs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
exec python3 "$H/ovmf_stages.py" "$B"
