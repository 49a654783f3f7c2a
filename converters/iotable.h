/* The I/O table of vmprof report --io (lib/profile/io.h) written out: a text
 * table for a terminal and CSV. */
#ifndef VP_IOTABLE_H
#define VP_IOTABLE_H

#include <stdio.h>

#include "lib/profile/io.h"

/* The heading names input; full: C++ parameter lists kept. */
int vp_io_write_table(FILE *f, const struct vp_io_table *t, const char *input, int full);
#define VP_CSV_IO_HEADER                                                                  \
	"symbol,dso,domain,direction,calls,bytes,errors,short,eof,mean_block,time_ns,timed_calls"
int vp_io_write_csv(FILE *f, const struct vp_io_table *t, int full, int csv_safe);

#endif
