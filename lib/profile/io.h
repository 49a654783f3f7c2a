/* I/O per function as PAPI-V's appio counts it, from the syscall
 * tracepoints of a recording (vmprof record --io), without intercepting the
 * program: per function and direction (read: read and pread64; write: write
 * and pwrite64) the calls, bytes moved, errors (a negative return), short
 * transfers (0 < returned < asked), EOF reads (a read that returned 0), and
 * the time inside the call: sys_enter to sys_exit of the same thread.
 * A call is charged to the program's function that made it (charge.h: the
 * first frame in its own objects), else to its address. */
#ifndef VP_IO_H
#define VP_IO_H

#include <stddef.h>
#include <stdint.h>

#include "report.h"

enum vp_io_dir { VP_IO_READ = 0, VP_IO_WRITE = 1 };

struct vp_io_row {
	const char *symbol, *dso;	/* interned in the table's pool */
	char domain;
	enum vp_io_dir dir;
	uint64_t calls, bytes, errors, shorts, eofs;
	uint64_t timed;			/* calls whose enter and exit were both recorded */
	uint64_t time_ns;		/* inside those calls */
	uint64_t unsized;		/* calls whose asked size is unknown (no enter): never short */
};

struct vp_io_table {
	struct vp_strpool *pool;
	struct vp_io_row *rows;		/* largest time first, then bytes, calls, name */
	size_t nrows, cap;
	uint64_t calls[2], bytes[2], time_ns[2];	/* totals per direction */
};

/* The table of a perf.data file recorded with the sys_enter and sys_exit
 * tracepoints of read, write, pread64 or pwrite64 (the exits at least);
 * -ENOENT naming the file when it has none. lo: symbol sources; its event
 * and key fields are not used. */
int vp_io_from_perfdata(const char *path, const struct vp_load_opts *lo, struct vp_io_table **out,
			struct vp_error *err);
void vp_io_free(struct vp_io_table *t);
/* Mean bytes per call (appio's block size: bytes over every call); 0 without calls. */
double vp_io_mean_block(const struct vp_io_row *r);
const char *vp_io_dir_name(enum vp_io_dir d);

#endif
