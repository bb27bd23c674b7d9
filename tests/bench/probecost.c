/* probecost.c - what identifying one device costs on the host.
 *
 *   probecost IMAGE ROUNDS  ->  stdout: "PROBECOST parts=N rounds=R
 *                               us_per_device=X table_us=Y"
 * Reads IMAGE's partition table once per round (probe_table) and probes
 * every partition window with probe_path(), the same libblkid calls the
 * scan makes for a device; the page cache is warm after the first round,
 * so the figure is libblkid's own work, not the disk's. Linked against
 * build/host/libbootmenu.a by tests/bench/run.sh.
 */
#include "scan/probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
	static struct probe_part parts[PROBE_PARTS_MAX];
	struct probe_result r;
	char pttype[PROBE_TYPE_MAX];
	double t_table = 0, t_probe = 0;
	size_t n = 0, probed = 0;
	int rounds;

	if (argc != 3 || (rounds = atoi(argv[2])) < 1) {
		fputs("usage: probecost IMAGE ROUNDS\n", stderr);
		return 2;
	}
	for (int k = 0; k < rounds; k++) {
		double t0 = now_us();

		if (probe_table(argv[1], pttype, parts, PROBE_PARTS_MAX, &n) <
			0 ||
		    !n) {
			fprintf(stderr, "probecost: %s: no partition table\n",
				argv[1]);
			return 1;
		}
		t_table += now_us() - t0;
		for (size_t i = 0; i < n; i++) {
			t0 = now_us();
			probe_path(argv[1], parts[i].start, parts[i].size, &r);
			t_probe += now_us() - t0;
			if (r.rc || r.skip) {
				fprintf(stderr, "probecost: partition %d: %s\n",
					parts[i].partno,
					r.skip ? r.skip : "error");
				return 1;
			}
			probed++;
		}
	}
	printf(
	    "PROBECOST parts=%zu rounds=%d us_per_device=%.1f table_us=%.1f\n",
	    n, rounds, t_probe / probed, t_table / rounds);
	return 0;
}
