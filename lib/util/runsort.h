/* A stable sort that takes the runs its input already holds: perf's records
 * that are not samples come nearly in order (a 237 MB bench file's 38100 in
 * 300 runs), and merging the runs only where they overlap costs about a
 * pass, where qsort compares every record log n times. */
#ifndef VP_RUNSORT_H
#define VP_RUNSORT_H

#include <stddef.h>

/* Sort n elements of size bytes at base by cmp, stably: O(n) for sorted
 * input, O(n log n) at worst. 0, or -ENOMEM (base is then unchanged). */
int vp_runsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

#endif
