/* say.c - see say.h. */
#include "say.h"

#include <stdarg.h>
#include <stdio.h>

int say(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}
