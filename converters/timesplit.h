/* Where the time went, written out: the split of a side's wall-time gap
 * against the baseline (lib/time/split.h) as the headline of compare's text
 * output and as CSV rows (`vmprof compare --time-split --format csv`); its XML
 * element is written with the comparison's XML (xml_write.c). One split per
 * side other than the baseline. */
#ifndef VP_CONVERTERS_TIMESPLIT_H
#define VP_CONVERTERS_TIMESPLIT_H

#include <stdio.h>

#include "lib/compare/compare.h"
#include "lib/time/split.h"

/* The headline: wall time of both sides, their ratio and the gap, then each
 * part on both sides, its difference and its share of the gap. Lines start
 * with "# " like the tables' headers. */
int vp_time_write_table(FILE *f, const struct vp_time_split *s, const char *base, const char *side);
/* Every side's headline against the baseline, for the sides whose
 * recordings know their wall time (nothing when none do). */
int vp_cmp_write_time_table(FILE *f, const struct vp_comparison *c);
/* CSV (header VP_CSV_TIME_HEADER first when header): one row for the wall
 * time and one per part, seconds as recorded (microseconds), the delta's 95%
 * interval (empty with one run on a side), gap_share a fraction of the gap
 * (empty when there is no gap). */
#define VP_CSV_TIME_HEADER "side,part,name,baseline,value,delta,delta_lo,delta_hi,gap_share,measured"
int vp_time_write_csv(FILE *f, const struct vp_time_split *s, const char *side, int header,
		      int csv_safe);
/* The header, then every side's rows (the sides that can be split). */
int vp_cmp_write_time_csv(FILE *f, const struct vp_comparison *c, int csv_safe);

#endif
