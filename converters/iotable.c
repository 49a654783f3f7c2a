/* report --io as a text table (see iotable.h): per function and direction
 * the calls, bytes, errors, short transfers, EOF reads, mean block and the
 * time inside the calls; names from files escaped (text.h). */
#include "iotable.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "text.h"
#include "lib/util/timefmt.h"

int vp_io_write_table(FILE *f, const struct vp_io_table *t, const char *input, int full)
{
	char tb[32], mb[32];
	int ow = 13;

	for (size_t i = 0; i < t->nrows; i++) {
		int w = (int)vp_text_puts(NULL, vp_dso_short_name(t->rows[i].dso));
		ow = w > ow ? w : ow;
	}
	fprintf(f, "# vmprof report --io of '");
	vp_text_puts(f, input);
	fprintf(f, "'\n# I/O per function as PAPI-V's appio counts it (read, pread64 / write, pwrite64)\n");
	for (int d = 0; d < 2; d++) {
		vp_format_time(tb, sizeof(tb), (double)t->time_ns[d], 0);
		fprintf(f, "# %-5s: %" PRIu64 " calls, %" PRIu64 " bytes, %s inside the calls\n",
			vp_io_dir_name(d), t->calls[d], t->bytes[d], tb);
	}
	fprintf(f, "#\n# %-5s  %8s  %12s  %6s  %6s  %6s  %10s  %10s  ", "Dir", "Calls", "Bytes", "Errors",
		"Short", "EOF", "Mean block", "Time");
	vp_text_pad(f, "Shared Object", ow);
	fprintf(f, "  Symbol\n#\n");
	for (size_t i = 0; i < t->nrows; i++) {
		const struct vp_io_row *r = &t->rows[i];
		vp_format_time(tb, sizeof(tb), (double)r->time_ns, 0);
		snprintf(mb, sizeof(mb), "%.1f", vp_io_mean_block(r));
		fprintf(f, "  %-5s  %8" PRIu64 "  %12" PRIu64 "  %6" PRIu64 "  %6" PRIu64 "  %6" PRIu64
			"  %10s  %10s  ", vp_io_dir_name(r->dir), r->calls, r->bytes, r->errors, r->shorts,
			r->eofs, mb, r->timed ? tb : "-");
		vp_text_pad(f, vp_dso_short_name(r->dso), ow);
		fprintf(f, "  [%c] ", r->domain ? r->domain : '.');
		vp_text_write(f, r->symbol, full ? strlen(r->symbol) : vp_symbol_display_len(r->symbol));
		fprintf(f, "\n");
	}
	return ferror(f) ? -EIO : 0;
}
