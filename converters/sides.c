/* The comparison builder (see sides.h). */
#include "sides.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats.h"

#define MAX_SIDES 2	/* the join takes two sides today */

/* The sides load at once: each is mostly one pass over its own file. */
struct side_load {
	const char *path;
	struct vp_load_opts lo;
	struct vp_profile *p;
	struct vp_error err;
	int rc;
};

static void *load_side(void *arg)
{
	struct side_load *s = arg;
	s->rc = vp_load_profile(s->path, &s->lo, &s->p, &s->err);
	return NULL;
}

/* Every side loaded; the first failure's error, in side order. */
static int load_sides(struct side_load *s, size_t n, struct vp_error *err)
{
	pthread_t t[MAX_SIDES];
	int started[MAX_SIDES] = { 0 }, files = 1, threaded = 0;

	for (size_t i = 0; i < n; i++)
		files &= strcmp(s[i].path, "-") != 0;
	/* Several loads at once already keep two CPUs busy: each reads on its
	 * own thread (a reader and a worker per side made four, and compare
	 * took more CPU for the same wall time). */
	for (size_t i = 0; i < n; i++)
		s[i].lo.one_thread = files && sysconf(_SC_NPROCESSORS_ONLN) <= 2;
	for (size_t i = 1; i < n && files; i++)
		threaded |= started[i] = pthread_create(&t[i], NULL, load_side, &s[i]) == 0;
	if (!threaded)	/* one after the other: each may use both CPUs */
		for (size_t i = 0; i < n; i++)
			s[i].lo.one_thread = 0;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || !started[i])
			load_side(&s[i]);
	for (size_t i = 1; i < n; i++)
		if (started[i])
			pthread_join(t[i], NULL);
	for (size_t i = 0; i < n; i++)
		if (s[i].rc < 0) {
			*err = s[i].err;
			return s[i].rc;
		}
	return 0;
}

int vp_comparison_build(const struct vp_side_spec *sides, size_t nsides,
			const struct vp_compare_opts *co, struct vp_comparison **out,
			struct vp_error *err)
{
	struct side_load s[MAX_SIDES] = { 0 };
	int r;

	*out = NULL;
	if (nsides != MAX_SIDES)
		return vp_errorf(err, -EINVAL, "comparing %zu sides: two are supported (a baseline "
				 "and one other)", nsides);
	for (size_t i = 0; i < nsides; i++) {
		s[i].path = sides[i].path;
		s[i].lo = sides[i].lo;
	}
	if ((r = load_sides(s, nsides, err)) < 0)
		goto out;
	for (size_t i = 0; i < nsides; i++)
		if (!s[i].p->ntables)
			vp_warn("'%s' holds no samples: every row is the other side's only", s[i].path);
	for (size_t e = 0; co->events && co->events[e]; e++)
		if (!vp_profile_find(s[0].p, co->events[e]) && !vp_profile_find(s[1].p, co->events[e])) {
			r = vp_errorf(err, -ENOENT, "no event '%s' in '%s' or '%s'", co->events[e],
				      s[0].path, s[1].path);
			goto out;
		}
	if ((r = vp_compare(s[0].p, s[1].p, co, out, err)) < 0)
		goto out;
	if (!(*out)->nevents) {
		vp_comparison_free(*out);
		*out = NULL;
		r = vp_errorf(err, -EINVAL, "no events to compare in '%s' and '%s'", s[0].path,
			      s[1].path);
	}
out:
	for (size_t i = 0; i < nsides; i++)
		vp_profile_free(s[i].p);
	return r < 0 ? r : 0;
}
