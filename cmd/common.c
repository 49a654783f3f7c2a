/* Shared pieces of the commands (see common.h). */
#include "common.h"
#include "progress.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include "options.h"
#include "converters/formats.h"
#include "lib/util/namelist.h"
#include "lib/util/outfile.h"

int vp_csv_safe_opt(int id, int *safe)
{
	if (id != OPT_CSV_SAFE && id != OPT_CSV_UNSAFE)
		return 0;
	*safe = id == OPT_CSV_SAFE;
	return 1;
}

void vp_cmp_args_init(struct vp_cmp_args *a)
{
	memset(a, 0, sizeof(*a));
	vp_compare_opts_init(&a->co);
	vp_load_opts_init(&a->lo);
}

int vp_load_opt(const struct vp_cmd_info *info, int id, const char *arg, struct vp_load_opts *lo)
{
	struct vp_error err = { 0 };
	unsigned long long n;
	const char *name;
	int r;

	switch (id) {
	case OPT_THREADS:
		if (vp_parse_u64(arg, &n) < 0 || n < 1 || n > 1024)
			return vp_usage_error(info, "--threads wants 1 to 1024, not '%s'", arg);
		lo->threads = (unsigned)n;
		return 1;
	case 'q':
		vp_cmd_progress_quiet();
		return 1;
	case OPT_LOAD_PID:
		name = "--pid";
		r = vp_filter_add_pids(&lo->filter, arg, &err);
		break;
	case OPT_LOAD_TID:
		name = "--tid";
		r = vp_filter_add_tids(&lo->filter, arg, &err);
		break;
	case OPT_LOAD_COMM:
		name = "--comm";
		r = vp_filter_add_comms(&lo->filter, arg, &err);
		break;
	case OPT_LOAD_TIME:
		name = "--time";
		if (strchr(arg, ':'))
			return vp_usage_error(info, "--time: '%s': ':' separates the times of the sides "
					      "of a comparison", arg);
		r = vp_time_filter_parse(&lo->filter.time, arg, &err);
		break;
	default:
		return 0;
	}
	return r < 0 ? vp_usage_error(info, "%s: %s", name, err.msg) : 1;
}

static void free_side_times(struct vp_cmp_args *a)
{
	for (size_t i = 0; i < a->nside_time; i++)
		vp_time_filter_free(&a->side_time[i]);
	free(a->side_time);
	a->side_time = NULL;
	a->nside_time = 0;
}

/* --time A:B (perf diff's syntax): A for the first input, B for the second. */
static int side_times(const struct vp_cmd_info *info, const char *arg, struct vp_cmp_args *a)
{
	struct vp_error err = { 0 };
	char part[4096];

	free_side_times(a);
	vp_time_filter_free(&a->lo.filter.time);
	for (const char *p = arg;;) {
		size_t len = strcspn(p, ":");
		struct vp_time_filter *v = realloc(a->side_time, (a->nside_time + 1) * sizeof(*v));
		if (!v)
			return vp_usage_error(info, "out of memory");
		a->side_time = v;
		memset(&v[a->nside_time], 0, sizeof(*v));
		if (len >= sizeof(part))
			return vp_usage_error(info, "--time: a time longer than %zu bytes", sizeof(part));
		snprintf(part, sizeof(part), "%.*s", (int)len, p);
		/* an empty part keeps that side whole */
		if (len && vp_time_filter_parse(&v[a->nside_time], part, &err) < 0)
			return vp_usage_error(info, "--time: %s", err.msg);
		a->nside_time++;
		if (!p[len])
			return 1;
		p += len + 1;
	}
}

int vp_cmp_args_opt(const struct vp_cmd_info *info, int id, const char *arg, struct vp_cmp_args *a)
{
	int r;

	if (id == OPT_LOAD_TIME && strchr(arg, ':'))
		return side_times(info, arg, a);
	if (id == OPT_LOAD_TIME)
		free_side_times(a);
	switch (id) {
	case 'k':
		if (vp_key_parse(arg, &a->co.key) < 0 || !(a->co.key & VP_KEY_SYM) ||
		    (a->co.key & ~(VP_KEY_SYM | VP_KEY_DSO | VP_KEY_DOMAIN)))
			return vp_usage_error(info, "--key is sym, sym,dso or sym,dso,domain, not '%s'", arg);
		return 1;
	case 'e':
		if (vp_add_names(&a->events, &a->nevents, arg) < 0)
			return vp_usage_error(info, "out of memory");
		return 1;
	case 's':
		if (vp_rank_parse(arg, &a->co.rank) < 0)
			return vp_usage_error(info, "--sort is max, host, guest, ratio, delta, absdelta, q or "
					      "effect, not '%s'", arg);
		a->rank_set = 1;
		return 1;
	case OPT_CMP_VALUE:
		if (vp_value_parse(arg, &a->co.value) < 0)
			return vp_usage_error(info, "--value is 'period', 'samples', 'children' or "
					      "'children-samples', not '%s'", arg);
		return 1;
	case OPT_CMP_CHILDREN:
		a->children = 1;
		return 1;
	case OPT_CMP_ALPHA:
		if (vp_parse_double(arg, &a->co.alpha) < 0 || !(a->co.alpha > 0 && a->co.alpha < 0.5))
			return vp_usage_error(info, "--alpha wants a level between 0 and 0.5, not '%s'", arg);
		a->alpha_set = 1;
		return 1;
	case OPT_CMP_LABELS:
		vp_free_names(a->labels, a->nlabels);
		a->labels = NULL;
		a->nlabels = 0;
		if ((r = vp_parse_labels(arg, &a->labels, &a->nlabels)) == -ENOMEM)
			return vp_usage_error(info, "out of memory");
		if (r < 0 || a->nlabels < 2)
			return vp_usage_error(info, "--labels wants a name per side, A,B,..., not '%s'", arg);
		return 1;
	}
	return vp_load_opt(info, id, arg, &a->lo);
}

int vp_cmp_args_check(const struct vp_cmd_info *info, const struct vp_cmp_args *a, size_t ninputs)
{
	if (ninputs < 2 && (vp_filter_active(&a->lo.filter) || a->nside_time))
		return vp_usage_error(info, "--pid, --tid, --comm and --time filter the samples of "
				      "the sides' inputs; a saved comparison has none");
	if (a->nside_time && a->nside_time != ninputs)
		return vp_usage_error(info, "--time gives %zu times separated by ':' for %zu inputs",
				      a->nside_time, ninputs);
	/* a saved comparison's sides are counted once it is read */
	if (ninputs >= 2 && a->labels && a->nlabels != ninputs)
		return vp_usage_error(info, "--labels gives %zu names for %zu sides", a->nlabels, ninputs);
	return 0;
}

int vp_cmp_args_build(struct vp_cmp_args *a, char *const *args, size_t n, struct vp_comparison **out,
		      struct vp_error *err)
{
	struct vp_side_spec *sides = calloc(n ? n : 1, sizeof(*sides));
	size_t parsed = 0;
	int r = 0;

	if (!sides)
		return vp_errorf(err, -ENOMEM, "out of memory");
	if (a->labels && a->nlabels != n) {
		free(sides);
		return vp_errorf(err, -EINVAL, "--labels gives %zu names for %zu sides", a->nlabels, n);
	}
	a->co.events = a->events;
	a->co.label = a->labels;
	a->co.threads = a->lo.threads;
	a->lo.events = a->events;
	/* the call stacks always (a flame graph of the comparison when the
	 * inputs have callchains); inclusive counts when asked, counted once
	 * per sample per key of the join */
	a->lo.stacks = VP_STACKS_RECORDED;
	a->lo.children = a->children || VP_VALUE_IS_CHILDREN(a->co.value);
	a->lo.children_key = a->co.key ? a->co.key : VP_KEY_SYM;
	for (; parsed < n && r == 0; parsed++) {
		struct vp_load_opts lo = a->lo;
		if (parsed < a->nside_time)
			lo.filter.time = a->side_time[parsed];
		if (parsed > 0 && a->g_kallsyms)
			lo.kallsyms = a->g_kallsyms;
		if (parsed > 0 && a->g_symfs)
			lo.symfs = a->g_symfs;
		if ((r = vp_side_spec_parse(args[parsed], &lo, &sides[parsed], err)) < 0)
			break;
	}
	if (r == 0)
		r = vp_comparison_build(sides, n, &a->co, out, err);
	for (size_t i = 0; i < parsed && i < n; i++)
		vp_side_spec_free(&sides[i]);
	free(sides);
	return r < 0 ? r : 0;
}

void vp_cmp_args_free(struct vp_cmp_args *a)
{
	free_side_times(a);
	vp_filter_free(&a->lo.filter);
	vp_free_names(a->events, a->nevents);
	vp_free_names(a->labels, a->nlabels);
	a->events = a->labels = NULL;
	a->nevents = a->nlabels = 0;
}

int vp_write_atomic(const char *path, int (*fn)(FILE *f, void *ctx), void *ctx, struct vp_error *err)
{
	struct vp_outfile o;
	int r;

	if ((r = vp_outfile_open(&o, path, err)) < 0)
		return r;
	if ((r = fn(o.fp, ctx)) < 0 || ferror(o.fp)) {
		int e = r < 0 && r != -EIO ? -r : vp_outfile_errno(o.fp);
		vp_outfile_abort(&o);
		return vp_errorf(err, -e, "'%s': cannot write: %s", path, strerror(e));
	}
	return vp_outfile_commit(&o, err);
}

int vp_add_names(const char ***names, size_t *n, const char *list)
{
	char *copy = strdup(list), *save = NULL;

	if (!copy)
		return -ENOMEM;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const char **v = realloc(*names, (*n + 2) * sizeof(*v));
		if (!v) {
			free(copy);
			return -ENOMEM;
		}
		*names = v;
		if (!(v[*n] = strdup(tok))) {
			free(copy);
			return -ENOMEM;
		}
		v[++*n] = NULL;
	}
	free(copy);
	return 0;
}

void vp_free_names(const char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free((char *)names[i]);
	free(names);
}

/* The file of one event in dir, 0 when events leaves it out. Event names like
 * sched:sched_switch or cpu/config=1/ make file names. */
static int split_path(const char *dir, const char *name, const char *ext,
		      const char *const *events, char *path, size_t size)
{
	char file[256];
	size_t k;

	if (!vp_names_want(events, name))
		return 0;
	for (k = 0; name[k] && k + 1 < sizeof(file); k++)
		file[k] = (name[k] == '/' || name[k] == ':' || name[k] == ' ') ? '_' : name[k];
	file[k] = '\0';
	if (!strcmp(file, ".") || !strcmp(file, ".."))
		file[0] = '_';
	snprintf(path, size, "%s/%s.%s", dir, file, ext);
	return 1;
}

struct split_one {
	const struct vp_split_out *o;
	size_t i;
};

static int write_one(FILE *f, void *ctx)
{
	struct split_one *s = ctx;
	return s->o->write(f, s->o->ctx, s->i);
}

int vp_split_files(const char *cmd, const char *dir, const char *const *events,
		   const struct vp_split_out *o)
{
	struct vp_error err = { 0 };
	int made = mkdir(dir, 0777) == 0;
	char path[4096];

	if (!made && errno != EEXIST)
		return vp_cmd_failf(cmd, "'%s': cannot create directory: %s", dir, strerror(errno));
	for (size_t e = 0; e < o->n; e++) {
		if (!split_path(dir, o->name(o->ctx, e), o->ext, events, path, sizeof(path)))
			continue;
		struct split_one s = { o, e };
		if (vp_write_atomic(path, write_one, &s, &err) < 0) {
			/* all or nothing: the files this run wrote go too */
			for (size_t i = 0; i < e; i++)
				if (split_path(dir, o->name(o->ctx, i), o->ext, events, path, sizeof(path)))
					unlink(path);
			if (made)
				rmdir(dir);
			return vp_cmd_fail(cmd, &err);
		}
		fprintf(stderr, "vmprof %s: wrote %s\n", cmd, path);
	}
	return 0;
}

struct split_csv {
	const struct vp_profile *p;
	struct vp_out_opts *oo;
};

static const char *table_name(void *ctx, size_t i)
{
	return ((struct split_csv *)ctx)->p->tables[i]->name;
}

static int write_table(FILE *f, void *ctx, size_t i)
{
	struct split_csv *s = ctx;
	s->oo->event = s->p->tables[i]->name;
	return vp_profile_write_csv(f, s->p, s->oo);
}

int vp_split_csv(const char *cmd, const struct vp_profile *p, struct vp_out_opts *oo,
		 const char *dir, const char *const *events)
{
	struct split_csv s = { p, oo };
	struct vp_split_out o = { "csv", p->ntables, table_name, write_table, &s };
	int r = vp_split_files(cmd, dir, events, &o);

	oo->event = NULL;
	return r;
}

int vp_parse_value(const char *arg, enum vp_value *v)
{
	enum vp_value x;

	if (vp_value_parse(arg, &x) < 0 || VP_VALUE_IS_CHILDREN(x))
		return -1;
	*v = x;
	return 0;
}

int vp_parse_labels(const char *arg, const char ***names, size_t *n)
{
	size_t had = *n;

	for (const char *p = arg;; p++) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (!len) {
			while (*n > had)
				free((char *)(*names)[--*n]);
			if (*names)
				(*names)[had] = NULL;
			return -1;
		}
		const char **v = realloc(*names, (*n + 2) * sizeof(*v));
		if (!v || !(v[*n] = strndup(p, len))) {
			if (v)
				*names = v;
			return -ENOMEM;
		}
		*names = v;
		v[++*n] = NULL;
		if (!comma)
			return 0;
		p = comma;
	}
}
