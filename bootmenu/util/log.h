/* log.h - bootmenu's log: one line per event, to stderr and a ring.
 *
 * The ring keeps the most recent lines so the menu can show them; nothing
 * below ui/ prints to the terminal any other way.
 */
#ifndef BM_LOG_H
#define BM_LOG_H

#include <stddef.h>

enum log_level { LOG_ERR, LOG_WARN, LOG_INFO, LOG_DEBUG };

void log_msg(enum log_level lvl, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Lines at or below @lvl go to stderr too (default LOG_WARN). */
void log_set_stderr_level(enum log_level lvl);
/* Copies up to @max most recent lines, oldest first; returns the count. */
size_t log_recent(const char **lines, size_t max);

#define log_err(...) log_msg(LOG_ERR, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_WARN, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)

#endif
