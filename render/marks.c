/* The marks a drawing leaves: what was drawn where, with its tooltip. */
#include "render_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vp_marks_add(struct marks *m, const struct mark *k, const char *fmt, ...)
{
	va_list ap;
	char *t = NULL;

	if (!m || m->oom)
		return;
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		struct mark *v = realloc(m->v, cap * sizeof(*v));
		if (!v) {
			m->oom = 1;
			return;
		}
		m->v = v;
		m->cap = cap;
	}
	if (fmt) {
		va_start(ap, fmt);
		if (vasprintf(&t, fmt, ap) < 0)
			t = NULL;
		va_end(ap);
		if (!t) {
			m->oom = 1;
			return;
		}
	}
	m->v[m->n] = *k;
	m->v[m->n++].title = t;
}

void vp_marks_free(struct marks *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].title);
	free(m->v);
	memset(m, 0, sizeof(*m));
}
