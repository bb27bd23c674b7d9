/* installer.c - bootmenu-install: argument parsing and wiring only; the
 * install room does the work (install/install.h). The same options run
 * inside the static binary as `bootmenu install`. */
#include "install/install.h"

int main(int argc, char **argv)
{
	return install_main(argc, argv);
}
