/* guid.h - EFI GUIDs as bytes and as text.
 *
 * An EFI_GUID is stored mixed-endian: its first three fields (32, 16 and
 * 16 bits) little-endian, the last eight bytes as they are. Its text is
 * the one blkid prints for a GPT PARTUUID and efivarfs uses in file names:
 * "4f68bce3-e8cd-4db1-96e7-fbcaf984b709", lower case.
 */
#ifndef BM_EFI_GUID_H
#define BM_EFI_GUID_H

#include <stdint.h>

#define EFI_GUID_SIZE 16
#define EFI_GUID_TEXT 37 /* 36 characters and a NUL */

/* EFI_GLOBAL_VARIABLE (UEFI 2.10 section 3.3): BootOrder, Boot####,
 * BootNext, OsIndications... */
#define EFI_GLOBAL_GUID "8be4df61-93ca-11d2-aa0d-00e098032b8c"

/* The 16 bytes @g as text into @out (EFI_GUID_TEXT bytes, lower case). */
void efi_guid_format(const uint8_t g[EFI_GUID_SIZE], char out[EFI_GUID_TEXT]);
/* Text @s ("xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", either case, nothing
 * before or after) into the 16 bytes @g. Returns 0, or -EINVAL (@g is
 * then unchanged). */
int efi_guid_parse(const char *s, uint8_t g[EFI_GUID_SIZE]);

#endif
