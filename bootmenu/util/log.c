#include "log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#define LOG_RING 128
#define LOG_LINE 256

static char ring[LOG_RING][LOG_LINE];
static const char *ring_ptr[LOG_RING];
static size_t ring_next, ring_count;
static enum log_level stderr_level = LOG_WARN;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

void log_set_stderr_level(enum log_level lvl)
{
	stderr_level = lvl;
}

void log_msg(enum log_level lvl, const char *fmt, ...)
{
	static const char *const tag[] = {"error", "warning", "info", "debug"};
	va_list ap;
	char *line;

	pthread_mutex_lock(&log_lock);
	line = ring[ring_next];
	va_start(ap, fmt);
	vsnprintf(line, LOG_LINE, fmt, ap);
	va_end(ap);
	ring_ptr[ring_next] = line;
	ring_next = (ring_next + 1) % LOG_RING;
	if (ring_count < LOG_RING)
		ring_count++;
	if (lvl <= stderr_level)
		fprintf(stderr, "bootmenu: %s: %s\n", tag[lvl], line);
	pthread_mutex_unlock(&log_lock);
}

size_t log_recent(const char **lines, size_t max)
{
	size_t n, start, i;

	pthread_mutex_lock(&log_lock);
	n = ring_count < max ? ring_count : max;
	start = (ring_next + LOG_RING - n) % LOG_RING;
	for (i = 0; i < n; i++)
		lines[i] = ring_ptr[(start + i) % LOG_RING];
	pthread_mutex_unlock(&log_lock);
	return n;
}
