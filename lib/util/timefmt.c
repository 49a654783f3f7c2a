/* Time for people (see timefmt.h). */
#include "timefmt.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

static const char *const units[2][4] = { { "ns", "us", "ms", "s" }, { "ns", "µs", "ms", "s" } };

int vp_time_decimals(double scaled)
{
	double a = fabs(scaled);
	return a < 10 ? 3 : a < 100 ? 2 : 1;
}

double vp_time_scale(double ns, int utf8, const char **unit)
{
	double a = fabs(ns), v = ns;
	int u = 0;

	while (u < 3 && a >= 999.95) {	/* 999.96 would print as 1000.0 */
		a /= 1000;
		v /= 1000;
		u++;
	}
	/* rounding to its decimals may still reach 1000 of this unit */
	if (u < 3 && fabs(round(v * 10) / 10) >= 1000) {
		v /= 1000;
		u++;
	}
	*unit = units[utf8 != 0][u];
	return v;
}

int vp_format_time(char *buf, size_t size, double ns, int utf8)
{
	const char *unit;
	double v;

	if (ns == 0)
		return snprintf(buf, size, "0 s");
	v = vp_time_scale(ns, utf8, &unit);
	if (unit[0] == 'n' && v == floor(v))	/* whole nanoseconds: no decimals */
		return snprintf(buf, size, "%.0f %s", v, unit);
	return snprintf(buf, size, "%.*f %s", vp_time_decimals(v), v, unit);
}

int vp_format_period(char *buf, size_t size, uint64_t v, int time)
{
	return time ? vp_format_time(buf, size, (double)v, 0) : snprintf(buf, size, "%" PRIu64, v);
}
