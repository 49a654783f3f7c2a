/* See fmtmemo.h. A direct-mapped table: a value whose slot another holds
 * takes it over, so memory stays fixed whatever is written. */
#include "fmtmemo.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strpool.h"

#define SLOTS 2048		/* a power of two */
#define TEXT 24			/* "%.12g" of any double fits */

struct slot {
	uint64_t bits;
	const char *fmt;	/* NULL: empty */
	char text[TEXT];
};

struct vp_fmt_memo {
	struct slot s[SLOTS];
};

struct vp_fmt_memo *vp_fmt_memo_new(void)
{
	return calloc(1, sizeof(struct vp_fmt_memo));
}

void vp_fmt_memo_free(struct vp_fmt_memo *m)
{
	free(m);
}

const char *vp_fmt_double(struct vp_fmt_memo *m, const char *fmt, double v, char *buf, size_t size)
{
	uint64_t bits;
	struct slot *s = NULL;

	memcpy(&bits, &v, sizeof(bits));
	if (m) {
		s = &m->s[vp_hash_u64(bits ^ (uint64_t)(uintptr_t)fmt) & (SLOTS - 1)];
		if (s->fmt == fmt && s->bits == bits)
			return s->text;
	}
	int n = snprintf(buf, size, fmt, v);
	if (n < 0 || (size_t)n >= size)
		return NULL;
	if (s && (size_t)n < TEXT) {
		memcpy(s->text, buf, (size_t)n + 1);
		s->bits = bits;
		s->fmt = fmt;
	}
	return buf;
}
