/* kexload.c - placeholder until the kexec room lands. */
#include <stdio.h>

int main(void)
{
	fputs("kexload: not built yet\n", stderr);
	return 1;
}
