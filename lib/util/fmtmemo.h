/* Numbers formatted once per distinct value: a saved comparison repeats the
 * same few doubles (the bench's flat comparison: 14,145 written, 924
 * distinct), and glibc's exact conversion of each cost about 2,000
 * instructions, a third of the save; a report's table repeats its periods
 * and shares the same way. */
#ifndef VP_FMTMEMO_H
#define VP_FMTMEMO_H

#include <stddef.h>
#include <stdint.h>

struct vp_fmt_memo;

/* NULL when out of memory (callers then format every value). */
struct vp_fmt_memo *vp_fmt_memo_new(void);
void vp_fmt_memo_free(struct vp_fmt_memo *m);

/* v as snprintf(buf, size, fmt, v) writes it: fmt converts one double and
 * is the same pointer for the same format (a string literal). The result is
 * buf, or NULL when the text does not fit in size bytes. m may be NULL. */
const char *vp_fmt_double(struct vp_fmt_memo *m, const char *fmt, double v, char *buf, size_t size);
/* v as vp_format_period(buf, size, v, time) writes it, the same way. */
const char *vp_fmt_period(struct vp_fmt_memo *m, uint64_t v, int time, char *buf, size_t size);

#endif
