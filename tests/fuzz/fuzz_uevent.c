/* fuzz_uevent.c - the uevent message parser on arbitrary bytes. */
#include "scan/uevent.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uevent ev;

	if (uevent_parse(data, size, &ev) == 0) {
		/* every field is a terminated string within its array */
		if (strlen(ev.devname) >= sizeof(ev.devname) ||
		    strlen(ev.action_name) >= sizeof(ev.action_name))
			__builtin_trap();
		(void)uevent_is_block(&ev);
	}
	return 0;
}
