/* standin.c - a stand-in for another operating system's EFI loader
 * (Windows Boot Manager in the dual-boot tests): an EFI application that
 * prints one marker line on the firmware's console, then powers the
 * machine off. Built with Debian's gnu-efi (images/standin.sh). */
#include <efi.h>
#include <efilib.h>

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	InitializeLib(image, st);
	Print(L"\r\nBOOTMENU-STANDIN: the firmware started the stand-in "
	      L"loader\r\n");
	uefi_call_wrapper(st->BootServices->Stall, 1, 200000);
	uefi_call_wrapper(st->RuntimeServices->ResetSystem, 4, EfiResetShutdown,
			  EFI_SUCCESS, 0, NULL);
	return EFI_SUCCESS;
}
