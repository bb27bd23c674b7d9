#!/usr/bin/env bash
# kernel/option-sizes.sh [OBJ] - what each option of the EFI-variables,
# Secure Boot, TPM and IPv6 groups (bootmenu.config) adds to the kernel: the
# text and data of the objects it builds, read with size(1) from a built tree
# (default build/kernel/obj). Bytes before compression; bzImage holds
# them xz-compressed (kernel/README.md gives the measured total).
# KEXEC_SIG and KEXEC_BZIMAGE_VERIFY_SIG add functions to objects that are
# built anyway: those are counted by symbol (nm -S).
set -eu
O=${1:-build/kernel/obj}
[ -f "$O/vmlinux" ] || { echo "option-sizes: $O/vmlinux is missing: build the kernel first (make)" >&2; exit 1; }
objs() { # the text+data of every object given that exists
	local n=0 f
	for f in "$@"; do
		[ -f "$O/$f" ] || continue
		n=$((n + $(size "$O/$f" | awk 'NR > 1 { s += $1 + $2 } END { print s + 0 }')))
	done
	echo "$n"
}
dir() { # every object of directories, built-in.a and modules aside
	local d files=()
	for d in "$@"; do
		while IFS= read -r f; do files+=("${f#"$O"/}"); done < <(find "$O/$d" -name '*.o' ! -name '*.mod.o' ! -name 'built-in*' 2>/dev/null)
	done
	objs "${files[@]}"
}
syms() { # the sizes of the named functions in one object
	local f=$1; shift
	[ -f "$O/$f" ] || { echo 0; return; }
	local n=0 addr size type name
	while read -r addr size type name; do
		case " $* " in *" $name "*) n=$((n + 16#$size)) ;; esac
	done < <(nm -S "$O/$f" 2>/dev/null | awk 'NF == 4')
	echo "$n"
}
row() { printf '| %s | %s | %d |\n' "$1" "$2" "$3"; }
echo "| option | objects | bytes (text+data) |"
echo "|---|---|---:|"
row EFIVAR_FS "fs/efivarfs" "$(dir fs/efivarfs)"
row SECURITY "security/security.o" "$(objs security/security.o)"
row SECURITYFS "security/inode.o" "$(objs security/inode.o)"
row "SECURITY_LOCKDOWN_LSM (+EARLY, LOCK_DOWN_IN_EFI_SECURE_BOOT)" "security/lockdown" "$(dir security/lockdown)"
row "KEYS (selected by the keyrings)" "security/keys" "$(dir security/keys)"
row "SYSTEM_TRUSTED_KEYRING, SYSTEM_BLACKLIST_KEYRING, SYSTEM_TRUSTED_KEYS (the certificates)" "certs" "$(dir certs)"
row "INTEGRITY, INTEGRITY_SIGNATURE, INTEGRITY_PLATFORM_KEYRING, LOAD_UEFI_KEYS" "security/integrity" "$(dir security/integrity)"
row "ASYMMETRIC_KEYS, X.509, PKCS#7, SIGNED_PE_FILE_VERIFICATION" "crypto/asymmetric_keys" "$(dir crypto/asymmetric_keys)"
row "CRYPTO_RSA (and the MPI library)" "crypto/rsa*.o, lib/mpi" "$(( $(objs crypto/rsa.o crypto/rsa_helper.o crypto/rsa-pkcs1pad.o crypto/rsapubkey.asn1.o crypto/rsaprivkey.asn1.o) + $(dir lib/mpi) ))"
row "FS_VERITY, FS_VERITY_BUILTIN_SIGNATURES (select SYSTEM_DATA_VERIFICATION)" "fs/verity" "$(dir fs/verity)"
row "KEXEC_SIG, KEXEC_BZIMAGE_VERIFY_SIG" "functions in kernel/kexec_file.o, arch/x86/kernel/kexec-bzimage64.o" \
	"$(( $(syms kernel/kexec_file.o kexec_image_verify_sig kimage_validate_signature kexec_kernel_verify_pe_sig kexec_image_verify_sig_default) + $(syms arch/x86/kernel/kexec-bzimage64.o bzImage64_verify_sig) ))"
row "TCG_TPM (the core, /dev/tpm0 and /dev/tpmrm0, sysfs PCRs, the firmware's event log)" "drivers/char/tpm but the two drivers" \
	"$(( $(dir drivers/char/tpm) - $(objs drivers/char/tpm/tpm_tis.o drivers/char/tpm/tpm_tis_core.o drivers/char/tpm/tpm_crb.o) ))"
row "TCG_TIS (TCG_TIS_CORE)" "drivers/char/tpm/tpm_tis*.o" "$(objs drivers/char/tpm/tpm_tis.o drivers/char/tpm/tpm_tis_core.o)"
row "TCG_CRB" "drivers/char/tpm/tpm_crb.o" "$(objs drivers/char/tpm/tpm_crb.o)"
row "IPV6 (ICMPv6, neighbour discovery, SLAAC, UDP and TCP over IPv6; SIT off)" "net/ipv6" "$(dir net/ipv6)"
