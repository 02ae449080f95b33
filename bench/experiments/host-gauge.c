// SPDX-License-Identifier: GPL-2.0
/*
 * host-gauge PERIOD_MS: every PERIOD_MS, time a fixed piece of work (400,000
 * dependent loads from a 2 MiB table) and print "EPOCH NS_PER_LOAD", the
 * epoch in seconds of wall time as raw.csv's ts.  It runs on the host beside
 * a bench run, until killed; host-gauge.py sets each record against it.
 * A measuring aid: see bench/experiments/README.
 *
 *   cc -O2 -o build/host-gauge bench/experiments/host-gauge.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define LOADS 400000
#define SLOTS (1u << 18)

static double secs(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	static uint64_t table[SLOTS];
	volatile uint64_t sink = 0;
	char *end;
	long ms;

	ms = argc == 2 ? strtol(argv[1], &end, 10) : 0;
	if (argc != 2 || *end || ms <= 0 || ms > 60000) {
		fprintf(stderr, "host-gauge: usage: host-gauge PERIOD_MS (1 to 60000)\n");
		return 1;
	}
	for (uint32_t i = 0; i < SLOTS; i++)
		table[i] = i * 2654435761u;
	for (;;) {
		uint64_t x = 1, s = 0;
		double t0 = secs(CLOCK_MONOTONIC), t1;

		for (int k = 0; k < LOADS; k++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			s += table[(x >> 20) & (SLOTS - 1)];
		}
		sink += s;
		t1 = secs(CLOCK_MONOTONIC);
		if (printf("%.3f %.2f\n", secs(CLOCK_REALTIME),
			   (t1 - t0) * 1e9 / LOADS) < 0 || fflush(stdout))
			return 1;
		usleep(ms * 1000);
	}
}
