/* Nanoseconds as people read them: in the unit (ns, us, ms, s) that leaves
 * one to three digits before the point (seconds from a second up), with
 * about four significant digits. Tables, charts and headlines print time
 * events' periods this way; CSV and XML keep the exact integers. */
#ifndef VP_TIMEFMT_H
#define VP_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>

/* ns scaled to its unit; *unit is "ns", "us" (or "µs" when utf8), "ms" or "s". */
double vp_time_scale(double ns, int utf8, const char **unit);
/* "16.50 ms", "1.308 s", "0 s"; negative values keep their sign. The length
 * written (snprintf's). */
int vp_format_time(char *buf, size_t size, double ns, int utf8);
/* A period for a table cell: a time event's as time ("16.50 ms", ASCII),
 * any other's as the integer. snprintf's length. */
int vp_format_period(char *buf, size_t size, uint64_t v, int time);
/* Decimals that give about four significant digits for a scaled value. */
int vp_time_decimals(double scaled);

#endif
