/* SPDX-License-Identifier: GPL-2.0-only */
/* pktgen's result line, in the form Linux's pktgen gives it. */
#include <stdio.h>

#include "pktgen.h"

void pg_result(uint64_t usec, uint64_t idle, uint64_t sent,
	       uint64_t errors, uint32_t min_size, uint32_t max_size)
{
	double pps = usec ? (double)sent * 1e6 / (double)usec : 0;
	unsigned long long bps =
		(unsigned long long)(pps * 8.0 * (double)min_size);

	if (min_size == max_size)
		printf("Result: OK: %llu(c%llu+d%llu) usec, %llu "
		       "(%ubyte,0frags)\n", (unsigned long long)usec,
		       (unsigned long long)(usec - idle),
		       (unsigned long long)idle, (unsigned long long)sent,
		       min_size);
	else
		printf("Result: OK: %llu(c%llu+d%llu) usec, %llu "
		       "(%u-%ubyte,0frags)\n", (unsigned long long)usec,
		       (unsigned long long)(usec - idle),
		       (unsigned long long)idle, (unsigned long long)sent,
		       min_size, max_size);
	printf("  %llupps %lluMb/sec (%llubps) errors: %llu\n",
	       (unsigned long long)pps, bps / 1000000u, bps,
	       (unsigned long long)errors);
}
