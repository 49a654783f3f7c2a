/* The sample filters of filter.h: perf report's --pid, --tid, --comms and
 * --time with perf's meaning (util/thread.h thread__is_filtered, util/time-
 * utils.c), so `vmprof report --time 10%/2` and `perf report --time 10%/2`
 * count the same samples. */
#include "filter.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/perfdata/perfdata.h"
#include "lib/symbols/session.h"

static int add_ids(uint32_t **v, size_t *n, const char *list, const char *what,
		   struct vp_error *err)
{
	const char *p = list;

	if (!*p)
		return vp_errorf(err, -EINVAL, "no %s given", what);
	for (;;) {
		size_t len = strcspn(p, ",");
		unsigned long long id = 0;
		size_t i;
		for (i = 0; i < len && isdigit((unsigned char)p[i]) && id <= INT32_MAX; i++)
			id = id * 10 + (unsigned)(p[i] - '0');
		if (!len || i < len || id > INT32_MAX)
			return vp_errorf(err, -EINVAL, "'%.*s' is not a %s", (int)len, p, what);
		uint32_t *nv = realloc(*v, (*n + 1) * sizeof(*nv));
		if (!nv)
			return vp_errorf(err, -ENOMEM, "out of memory");
		*v = nv;
		nv[(*n)++] = (uint32_t)id;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

int vp_filter_add_pids(struct vp_filter *f, const char *list, struct vp_error *err)
{
	return add_ids(&f->pids, &f->npids, list, "process id", err);
}

int vp_filter_add_tids(struct vp_filter *f, const char *list, struct vp_error *err)
{
	return add_ids(&f->tids, &f->ntids, list, "thread id", err);
}

int vp_filter_add_comms(struct vp_filter *f, const char *list, struct vp_error *err)
{
	const char *p = list;

	for (;;) {
		size_t len = strcspn(p, ",");
		if (!len)
			return vp_errorf(err, -EINVAL, "an empty command name in '%s'", list);
		char **nv = realloc(f->comms, (f->ncomms + 1) * sizeof(*nv));
		if (!nv)
			return vp_errorf(err, -ENOMEM, "out of memory");
		f->comms = nv;
		if (!(nv[f->ncomms] = strndup(p, len)))
			return vp_errorf(err, -ENOMEM, "out of memory");
		f->ncomms++;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* perf's parse_nsec_time: seconds with up to nine decimals, "" is open (0). */
static int parse_seconds(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0, digits = 0, fd = 0;

	*ns = 0;
	if (!len)
		return 0;
	for (; i < len && isdigit((unsigned char)s[i]); i++, digits++) {
		if (sec > (UINT64_MAX / 1000000000u - 9) / 10)
			return -1;
		sec = sec * 10 + (unsigned)(s[i] - '0');
	}
	if (i < len && s[i] == '.')
		for (i++; i < len && isdigit((unsigned char)s[i]); i++, digits++, fd++) {
			if (fd == 9)
				return -1;
			frac = frac * 10 + (unsigned)(s[i] - '0');
		}
	if (i < len || !digits)
		return -1;
	for (; fd < 9; fd++)
		frac *= 10;
	*ns = sec * 1000000000u + frac;
	return 0;
}

/* perf's parse_percent: a number (strtod) right before a '%' that ends s. */
static int parse_percent(const char *s, size_t len, double *frac)
{
	char buf[64], *end;

	if (len < 2 || len >= sizeof(buf) || s[len - 1] != '%')
		return -1;
	memcpy(buf, s, len - 1);
	buf[len - 1] = '\0';
	*frac = strtod(buf, &end);
	if (end == buf || *end || isspace((unsigned char)buf[0]) || !isfinite(*frac))
		return -1;
	*frac /= 100.0;
	return 0;
}

static int push(struct vp_time_filter *t, const struct vp_time_range *r)
{
	struct vp_time_range *v = realloc(t->v, (t->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	t->v = v;
	v[t->n++] = *r;
	return 0;
}

/* "A%-B%", "P%/N" (the Nth slice of P%) or "P%" (the first), as perf's
 * percent_dash_split, percent_slash_split and one_percent_convert. */
static int percent_range(const char *s, size_t len, struct vp_time_range *r)
{
	const char *slash = memchr(s, '/', len), *dash = memchr(s, '-', len);
	double a, b;

	if (slash) {
		char num[32], *end;
		size_t nl = len - (size_t)(slash + 1 - s);
		if (parse_percent(s, (size_t)(slash - s), &a) < 0 || !nl || nl >= sizeof(num))
			return -1;
		memcpy(num, slash + 1, nl);
		num[nl] = '\0';
		errno = 0;
		long n = strtol(num, &end, 10);
		if (*end || errno || !(a > 0.0) || n < 1 || n > 1000000)
			return -1;
		r->pstart = a * (double)(n - 1);
		r->pend = a * (double)n;
	} else if (dash) {
		if (parse_percent(s, (size_t)(dash - s), &a) < 0 ||
		    parse_percent(dash + 1, len - (size_t)(dash + 1 - s), &b) < 0)
			return -1;
		r->pstart = a;
		r->pend = b;
	} else {
		if (parse_percent(s, len, &b) < 0)
			return -1;
		r->pstart = 0.0;
		r->pend = b;
	}
	return 0;
}

static int parse_percent_ranges(struct vp_time_filter *t, const char *arg, struct vp_error *err)
{
	const char *p = arg;

	t->percent = 1;
	for (;;) {
		size_t len = strcspn(p, ",");
		struct vp_time_range r = { 0 };
		if (percent_range(p, len, &r) < 0)
			return vp_errorf(err, -EINVAL, "'%.*s' is not a percent range (A%%-B%%, P%%/N "
					 "or P%%)", (int)len, p);
		if (r.pstart < 0.0 || r.pstart > 1.0 || r.pend < 0.0 || r.pend > 1.0)
			return vp_errorf(err, -EINVAL, "'%.*s' reaches outside 0%%-100%% of the "
					 "recording", (int)len, p);
		if (r.pend < r.pstart)
			return vp_errorf(err, -EINVAL, "'%.*s' ends before it starts", (int)len, p);
		if (push(t, &r) < 0)
			return vp_errorf(err, -ENOMEM, "out of memory");
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* perf_time__parse_strs: "START,END" ranges separated by white space, in
 * order and apart (so only the first may be open at the start, only the
 * last at the end). */
static int parse_abs_ranges(struct vp_time_filter *t, const char *arg, struct vp_error *err)
{
	const char *p = arg;

	while (*p) {
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		size_t len = 0;
		while (p[len] && !isspace((unsigned char)p[len]))
			len++;
		const char *comma = memchr(p, ',', len);
		struct vp_time_range r = { 0 };
		if (!comma || memchr(comma + 1, ',', len - (size_t)(comma + 1 - p)) ||
		    parse_seconds(p, (size_t)(comma - p), &r.start) < 0 ||
		    parse_seconds(comma + 1, len - (size_t)(comma + 1 - p), &r.end) < 0)
			return vp_errorf(err, -EINVAL, "'%.*s' is not a time range: START,END in "
					 "seconds (as perf script prints them), either may be empty",
					 (int)len, p);
		if (r.end && r.end < r.start)
			return vp_errorf(err, -EINVAL, "'%.*s' ends before it starts", (int)len, p);
		if (t->n && (!t->v[t->n - 1].end || t->v[t->n - 1].end >= r.start))
			return vp_errorf(err, -EINVAL, "'%s': the ranges overlap or are out of order",
					 arg);
		if (push(t, &r) < 0)
			return vp_errorf(err, -ENOMEM, "out of memory");
		p += len;
	}
	if (!t->n)
		return vp_errorf(err, -EINVAL, "no time range given");
	return 0;
}

int vp_time_filter_parse(struct vp_time_filter *t, const char *arg, struct vp_error *err)
{
	struct vp_time_filter n = { 0 };
	int r = strchr(arg, '%') ? parse_percent_ranges(&n, arg, err)
				 : parse_abs_ranges(&n, arg, err);

	if (r < 0) {
		vp_time_filter_free(&n);
		return r;
	}
	vp_time_filter_free(t);
	*t = n;
	return 0;
}

void vp_time_filter_free(struct vp_time_filter *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

int vp_filter_active(const struct vp_filter *f)
{
	return f && (f->npids || f->ntids || f->ncomms || f->time.n);
}

void vp_filter_free(struct vp_filter *f)
{
	free(f->pids);
	free(f->tids);
	for (size_t i = 0; i < f->ncomms; i++)
		free(f->comms[i]);
	free(f->comms);
	vp_time_filter_free(&f->time);
	memset(f, 0, sizeof(*f));
}

/* round(frac * total) in [0, total]: a total near 2^64 rounds up as a double. */
static uint64_t offset(double frac, uint64_t total)
{
	double d = round(frac * (double)total);

	return d >= (double)total ? total : d <= 0 ? 0 : (uint64_t)d;
}

/* perf's set_percent_time, to the nanosecond: the end of a slice that is
 * not the recording's end stops 1 ns short, so slices do not share a sample. */
void vp_time_place(const struct vp_time_range *pct, uint64_t first, uint64_t last,
		   struct vp_time_range *out)
{
	uint64_t total = last - first;

	*out = *pct;
	out->start = first + offset(pct->pstart, total);
	out->end = first + offset(pct->pend, total);
	if (out->end > out->start && out->end != last)
		out->end -= 1;
}

int vp_filter_start(struct vp_filter_run *run, const struct vp_filter *f, struct vp_perfdata *pd,
		    struct vp_error *err)
{
	const char *path = vp_perfdata_path(pd);
	uint64_t first = 0, last = 0;
	int r;

	memset(run, 0, sizeof(*run));
	run->f = f;
	if (!(run->active = vp_filter_active(f)) || !f->time.n)
		return 0;
	if (!(run->ranges = calloc(f->time.n, sizeof(*run->ranges))))
		return vp_errorf(err, -ENOMEM, "out of memory");
	run->nranges = f->time.n;
	if (!f->time.percent) {
		memcpy(run->ranges, f->time.v, f->time.n * sizeof(*run->ranges));
		return 0;
	}
	vp_perfdata_sample_time(pd, &first, &last);
	if (last < first || (!first && !last)) {
		if (vp_perfdata_is_pipe(pd))
			return vp_errorf(err, -EINVAL, "'%s': a pipe carries no first and last sample "
					 "time, so --time cannot place percents: give START,END in "
					 "seconds", path);
		if ((r = vp_perfdata_scan_sample_time(path, &first, &last, err)) < 0)
			return r;
	}
	for (size_t i = 0; i < f->time.n; i++)
		vp_time_place(&f->time.v[i], first, last, &run->ranges[i]);
	return 0;
}

static int has_id(const uint32_t *v, size_t n, uint32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == id)
			return 1;
	return 0;
}

/* perf_time__ranges_skip_sample: inside any range, ends included. */
static int time_kept(const struct vp_filter_run *run, uint64_t t)
{
	if (!run->nranges || !t)
		return 1;
	for (size_t i = 0; i < run->nranges; i++)
		if (t >= run->ranges[i].start && (!run->ranges[i].end || t <= run->ranges[i].end))
			return 1;
	return 0;
}

/* thread__is_filtered: the comm is the thread's name at this point of the
 * stream (before an exec, the parent's), as the comm sort key shows it. */
int vp_filter_keep_slow(struct vp_filter_run *run, struct vp_session *s,
			const struct vp_sample *sample)
{
	const struct vp_filter *f = run->f;

	run->seen++;
	if (!time_kept(run, sample->time) ||
	    (f->npids && !has_id(f->pids, f->npids, sample->pid)) ||
	    (f->ntids && !has_id(f->tids, f->ntids, sample->tid)))
		return 0;
	if (f->ncomms) {
		const char *comm = vp_session_comm_of(s, sample->pid, sample->tid);
		if (comm != run->last_comm) {
			run->last_comm = comm;
			run->last_comm_kept = 0;
			for (size_t i = 0; comm && i < f->ncomms && !run->last_comm_kept; i++)
				run->last_comm_kept = !strcmp(comm, f->comms[i]);
		}
		if (!run->last_comm_kept)
			return 0;
	}
	run->kept++;
	return 1;
}

void vp_filter_end(struct vp_filter_run *run, const char *path)
{
	if (path && run->active && run->seen && !run->kept)
		vp_warn("'%s': no sample passed --pid, --tid, --comm or --time", path);
	free(run->ranges);
	run->ranges = NULL;
	run->nranges = 0;
}
