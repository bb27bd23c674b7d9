/* say.h - a failure's sentence into the caller's buffer, and its code back.
 *
 * Rooms below the faces report a failure twice: a -errno return for the
 * code, and a sentence for the user in a buffer the caller owns. say()
 * writes the sentence (when @err is given) and returns @rc, so a failure
 * reads as one statement: return say(err, errlen, -ENOENT, "...", ...).
 */
#ifndef BM_SAY_H
#define BM_SAY_H

#include <stddef.h>

int say(char *err, size_t errlen, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
