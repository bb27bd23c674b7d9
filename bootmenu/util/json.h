/* json.h - the few JSON writers --list --json needs. */
#ifndef BM_JSON_H
#define BM_JSON_H

#include <stdio.h>

/* Write @s as a JSON string (with quotes); NULL writes null. */
void json_str(FILE *f, const char *s);

#endif
