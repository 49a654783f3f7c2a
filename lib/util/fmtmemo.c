/* See fmtmemo.h. A direct-mapped table: a value whose slot another holds
 * takes it over, so memory stays fixed whatever is written. */
#include "fmtmemo.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strpool.h"
#include "timefmt.h"

#define SLOTS 2048		/* a power of two */
#define TEXT 24			/* "%.12g" of any double fits */

struct slot {
	uint64_t bits;
	const void *tag;	/* the format, or a period's kind; NULL: empty */
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

/* The slot for (tag, bits), or NULL without a memo. */
static struct slot *slot_of(struct vp_fmt_memo *m, const void *tag, uint64_t bits)
{
	return m ? &m->s[vp_hash_u64(bits ^ (uint64_t)(uintptr_t)tag) & (SLOTS - 1)] : NULL;
}

/* The text s keeps, copied to buf: the caller's until it reuses buf,
 * whatever other values the memo takes meanwhile. */
static const char *copy_out(const struct slot *s, char *buf, size_t size)
{
	size_t n = strlen(s->text);

	if (n >= size)
		return NULL;
	return memcpy(buf, s->text, n + 1);
}

/* buf, which holds n bytes of text just formatted, kept in s for the next time. */
static const char *keep(struct slot *s, const void *tag, uint64_t bits, int n, char *buf,
			size_t size)
{
	if (n < 0 || (size_t)n >= size)
		return NULL;
	if (s && (size_t)n < TEXT) {
		memcpy(s->text, buf, (size_t)n + 1);
		s->bits = bits;
		s->tag = tag;
	}
	return buf;
}

const char *vp_fmt_double(struct vp_fmt_memo *m, const char *fmt, double v, char *buf, size_t size)
{
	uint64_t bits;
	struct slot *s;

	memcpy(&bits, &v, sizeof(bits));
	if ((s = slot_of(m, fmt, bits)) && s->tag == fmt && s->bits == bits)
		return copy_out(s, buf, size);
	return keep(s, fmt, bits, snprintf(buf, size, fmt, v), buf, size);
}

/* Two tags no format string shares. */
static const char period_int, period_time;

const char *vp_fmt_period(struct vp_fmt_memo *m, uint64_t v, int time, char *buf, size_t size)
{
	const void *tag = time ? &period_time : &period_int;
	struct slot *s;

	if ((s = slot_of(m, tag, v)) && s->tag == tag && s->bits == v)
		return copy_out(s, buf, size);
	return keep(s, tag, v, vp_format_period(buf, size, v, time), buf, size);
}
