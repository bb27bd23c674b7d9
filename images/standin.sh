#!/usr/bin/env bash
# images/standin.sh BUILD - BUILD/standin.efi from tests/target/standin.c
# with Debian's gnu-efi: the stand-in for another OS's EFI loader.
set -eu
B=$(cd "$1" && pwd)
SRC=$(cd "$(dirname "$0")/.." && pwd)
W=$B/standin
mkdir -p "$W"
gcc -I/usr/include/efi -I/usr/include/efi/x86_64 -fpic -ffreestanding \
	-fno-stack-protector -fno-stack-check -fshort-wchar -mno-red-zone \
	-maccumulate-outgoing-args -Wall -O2 \
	-c "$SRC/tests/target/standin.c" -o "$W/standin.o"
ld -shared -Bsymbolic -nostdlib -L/usr/lib -T/usr/lib/elf_x86_64_efi.lds \
	/usr/lib/crt0-efi-x86_64.o "$W/standin.o" -o "$W/standin.so" -lefi -lgnuefi
objcopy -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel -j .rela \
	-j '.rel.*' -j '.rela.*' -j .reloc --target efi-app-x86_64 --subsystem=10 \
	"$W/standin.so" "$W/standin.efi.tmp"
mv "$W/standin.efi.tmp" "$B/standin.efi"
