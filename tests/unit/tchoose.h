/* tchoose.h - the policy's candidates as one line, for the tests of the
 * default rule (test_choose.c, test_bli.c). */
#ifndef BM_TEST_TCHOOSE_H
#define BM_TEST_TCHOOSE_H

#include "choose/choose.h"
#include "entry/entry.h"

#include <stdio.h>

/* The ids of choose_candidates(), in order, joined by spaces (a static
 * buffer: valid until the next call). */
static inline const char *tchoose_order(const struct choose *c,
					const struct entry_list *l)
{
	static char buf[256];
	const struct entry *v[CHOOSE_MAX];
	size_t n = choose_candidates(c, l, v, CHOOSE_MAX), k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%s",
				      i ? " " : "", v[i]->id);
	return buf;
}

#endif
