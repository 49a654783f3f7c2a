/* The comparison builder (see sides.h): every run of every side loaded on a
 * small pool of threads, the runs of a side checked to be one experiment,
 * the labels chosen, then one join. */
#include "sides.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats.h"
#include "lib/util/shared.h"
#include "lib/util/threads.h"

struct run_load {
	const char *path;
	struct vp_load_opts lo;
	struct vp_profile *p;
	struct vp_error err;
	int rc;
};

/* The loads, taken in order by whichever thread is free. */
struct load_pool {
	struct run_load *runs;
	size_t n, next;
	pthread_mutex_t mu;
};

static void *load_worker(void *arg)
{
	struct load_pool *q = arg;

	for (;;) {
		pthread_mutex_lock(&q->mu);
		size_t i = q->next < q->n ? q->next++ : q->n;
		pthread_mutex_unlock(&q->mu);
		if (i == q->n)
			return NULL;
		struct run_load *s = &q->runs[i];
		s->rc = vp_load_profile(s->path, &s->lo, &s->p, &s->err);
	}
}

/* Every run loaded; the first failure's error, in run order. As many loads
 * run at once as there are CPUs (--threads, else this process's), each on
 * its share of twice that many threads: a file's readers take its chunks
 * from one queue, so the CPUs stay busy whatever the files' sizes and
 * however fast the host runs each CPU. One load per CPU, each on one
 * thread, left a CPU idle once the faster one was done (two 294 MB files
 * on 2 CPUs: 0.400 s against 0.340 s on two threads each, medians of 9;
 * this host ran one CPU 7-23% slower than the other). With twice as many
 * files as CPUs each load takes one thread (20 runs of 30-40 MB: 0.82 s,
 * against 1.05 s on two threads each). Standard input is read alone. */
static int load_runs(struct run_load *s, size_t n, struct vp_error *err)
{
	unsigned cpus = s[0].lo.threads ? s[0].lo.threads : vp_cpus_available();
	size_t workers = cpus, started = 0;
	struct load_pool q = { s, n, 0, PTHREAD_MUTEX_INITIALIZER };
	pthread_t *t;
	int files = 1;

	for (size_t i = 0; i < n; i++)
		files &= strcmp(s[i].path, "-") != 0;
	if (workers > n)
		workers = n;
	if (!files)
		workers = 1;
	if (workers > 1)
		for (size_t i = 0; i < n; i++)
			s[i].lo.threads = n >= 2 * (size_t)cpus ? 1 : (unsigned)((2 * cpus + n - 1) / n);
	t = workers > 1 ? calloc(workers - 1, sizeof(*t)) : NULL;
	for (size_t i = 0; t && i + 1 < workers; i++)
		started += pthread_create(&t[started], NULL, load_worker, &q) == 0;
	if (!started)	/* one after the other: each may use every CPU */
		for (size_t i = 0; i < n; i++)
			s[i].lo.threads = cpus;
	/* The runs name the same kernel and objects: each is read once, not
	 * once a run (lib/util/shared.h). */
	vp_shared_hold();
	load_worker(&q);
	for (size_t i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	vp_shared_release();
	free(t);
	for (size_t i = 0; i < n; i++)
		if (s[i].rc < 0) {
			*err = s[i].err;
			return s[i].rc;
		}
	return 0;
}

static int same_events(const struct vp_profile *a, const struct vp_profile *b)
{
	if (a->ntables != b->ntables)
		return 0;
	for (size_t i = 0; i < a->ntables; i++)
		if (!vp_profile_find(b, a->tables[i]->name))
			return 0;
	return 1;
}

/* Runs of one side are one experiment: say when they do not look like it. */
static void check_side(const struct vp_side_spec *side, struct run_load *runs, const char *label)
{
	const struct vp_profile *first = runs[0].p;

	for (size_t i = 1; i < side->npaths; i++) {
		const struct vp_profile *p = runs[i].p;
		const char *w0 = vp_meta_workload(&first->meta), *w = vp_meta_workload(&p->meta);
		if (!same_events(first, p))
			vp_warn("side '%s': '%s' and '%s' record different events: are they runs of one "
				"experiment?", label, runs[0].path, runs[i].path);
		if (w0 && w && strcmp(w0, w))
			vp_warn("side '%s': '%s' and '%s' ran different commands: are they runs of one "
				"experiment?", label, runs[0].path, runs[i].path);
	}
}

/* A directory side's name: the directory's own (trailing slashes aside). */
static const char *dir_label(const char *path, char *buf, size_t size)
{
	size_t n = strlen(path);
	const char *slash;

	while (n > 1 && path[n - 1] == '/')
		n--;
	snprintf(buf, size, "%.*s", (int)n, path);
	slash = strrchr(buf, '/');
	return slash && slash[1] ? slash + 1 : buf;
}

/* The runs' common stored label, else NULL. */
static const char *stored_label(const struct run_load *runs, size_t n)
{
	const char *l = runs[0].p->meta.label;

	for (size_t i = 1; i < n && l; i++)
		if (!runs[i].p->meta.label || strcmp(runs[i].p->meta.label, l))
			l = NULL;
	return l;
}

static int find_events(const struct vp_side_spec *sides, size_t nsides, const struct run_load *runs,
		       size_t nruns, const struct vp_compare_opts *co, struct vp_error *err)
{
	for (size_t e = 0; co->events && co->events[e]; e++) {
		size_t i = 0;
		while (i < nruns && !vp_profile_find(runs[i].p, co->events[e]))
			i++;
		if (i < nruns)
			continue;
		if (nruns == 2 && nsides == 2)
			return vp_errorf(err, -ENOENT, "no event '%s' in '%s' or '%s'", co->events[e],
					 runs[0].path, runs[1].path);
		return vp_errorf(err, -ENOENT, "no event '%s' in any input of the %zu sides",
				 co->events[e], nsides);
	}
	(void)sides;
	return 0;
}

int vp_comparison_build(const struct vp_side_spec *sides, size_t nsides,
			const struct vp_compare_opts *co, struct vp_comparison **out,
			struct vp_error *err)
{
	size_t nruns = 0, *per = calloc(nsides ? nsides : 1, sizeof(*per));
	struct run_load *runs = NULL;
	const struct vp_profile **profiles = NULL;
	const char **labels = calloc(nsides ? nsides : 1, sizeof(*labels));
	char (*names)[256] = calloc(nsides ? nsides : 1, sizeof(*names));
	struct vp_compare_opts opts = *co;
	int r = 0;

	*out = NULL;
	if (!per || !labels || !names) {
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (nsides < 2) {
		r = vp_errorf(err, -EINVAL, "comparing %zu sides: give two or more", nsides);
		goto out;
	}
	for (size_t s = 0; s < nsides; s++)
		nruns += per[s] = sides[s].npaths;
	runs = calloc(nruns ? nruns : 1, sizeof(*runs));
	profiles = calloc(nruns ? nruns : 1, sizeof(*profiles));
	if (!runs || !profiles) {
		r = vp_errorf(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t s = 0, k = 0; s < nsides; s++)
		for (size_t i = 0; i < sides[s].npaths; i++, k++) {
			runs[k].path = sides[s].paths[i];
			runs[k].lo = sides[s].lo;
		}
	if ((r = load_runs(runs, nruns, err)) < 0)
		goto out;
	for (size_t k = 0; k < nruns; k++) {
		profiles[k] = runs[k].p;
		if (!runs[k].p->ntables && nruns == 2 && nsides == 2)
			vp_warn("'%s' holds no samples: every row is the other side's only", runs[k].path);
		else if (!runs[k].p->ntables)
			vp_warn("'%s' holds no samples", runs[k].path);
	}
	if ((r = find_events(sides, nsides, runs, nruns, co, err)) < 0)
		goto out;
	/* labels: --labels, LABEL=, the runs' own, a directory's name, a file's */
	for (size_t s = 0, k = 0; s < nsides; k += per[s], s++) {
		struct vp_profile_meta *m0 = &runs[k].p->meta;
		labels[s] = co->label && co->label[s] ? co->label[s] : sides[s].label;
		if (!labels[s])
			labels[s] = stored_label(&runs[k], per[s]);
		if (!labels[s] && sides[s].dir)
			labels[s] = dir_label(sides[s].dir, names[s], sizeof(names[s]));
		if (!labels[s] && m0->source)
			labels[s] = dir_label(m0->source, names[s], sizeof(names[s]));
		check_side(&sides[s], &runs[k], labels[s] ? labels[s] : sides[s].arg);
	}
	opts.label = labels;
	if ((r = vp_compare_runs(profiles, per, nsides, &opts, out, err)) < 0)
		goto out;
	if (!(*out)->nevents) {
		vp_comparison_free(*out);
		*out = NULL;
		if (nruns == 2 && nsides == 2)
			r = vp_errorf(err, -EINVAL, "no events to compare in '%s' and '%s'", runs[0].path,
				      runs[1].path);
		else
			r = vp_errorf(err, -EINVAL, "no events to compare in the inputs of the %zu sides",
				      nsides);
	}
out:
	for (size_t k = 0; runs && k < nruns; k++)
		vp_profile_free(runs[k].p);
	free(runs);
	free(profiles);
	free(per);
	free(labels);
	free(names);
	return r < 0 ? r : 0;
}
