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

int vp_load_opt(const struct vp_cmd_info *info, int id, const char *arg, struct vp_load_opts *lo)
{
	unsigned long long n;

	switch (id) {
	case OPT_THREADS:
		if (vp_parse_u64(arg, &n) < 0 || n < 1 || n > 1024)
			return vp_usage_error(info, "--threads wants 1 to 1024, not '%s'", arg);
		lo->threads = (unsigned)n;
		return 1;
	case 'q':
		vp_cmd_progress_quiet();
		return 1;
	default:
		return 0;
	}
}

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

int vp_cmp_args_opt(const struct vp_cmd_info *info, int id, const char *arg, struct vp_cmp_args *a)
{
	int r;

	if ((r = vp_load_opt(info, id, arg, &a->lo)) != 0)
		return r;
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
			return vp_usage_error(info, "--sort is max, host, guest, ratio, delta or absdelta, "
					      "not '%s'", arg);
		a->rank_set = 1;
		return 1;
	case OPT_CMP_VALUE:
		if (vp_parse_value(arg, &a->co.value) < 0)
			return vp_usage_error(info, "--value is 'period' or 'samples', not '%s'", arg);
		return 1;
	case OPT_CMP_LABELS:
		if (vp_parse_labels(arg, a->labels) < 0)
			return vp_usage_error(info, "--labels wants two names, A,B, not '%s'", arg);
		a->co.label[0] = a->labels[0];
		a->co.label[1] = a->labels[1];
		a->have_labels = 1;
		return 1;
	}
	return 0;
}

int vp_cmp_args_build(struct vp_cmp_args *a, const char *host, const char *guest,
		      struct vp_comparison **out, struct vp_error *err)
{
	struct vp_side_spec sides[2];

	a->co.events = a->events;
	a->lo.events = a->events;
	sides[0] = (struct vp_side_spec){ host, a->lo };
	sides[1] = (struct vp_side_spec){ guest, a->lo };
	if (a->g_kallsyms)
		sides[1].lo.kallsyms = a->g_kallsyms;
	if (a->g_symfs)
		sides[1].lo.symfs = a->g_symfs;
	return vp_comparison_build(sides, 2, &a->co, out, err);
}

void vp_cmp_args_free(struct vp_cmp_args *a)
{
	vp_free_names(a->events, a->nevents);
	a->events = NULL;
	a->nevents = 0;
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

struct split_one {
	const struct vp_profile *p;
	const struct vp_out_opts *o;
};

static int write_one(FILE *f, void *ctx)
{
	struct split_one *s = ctx;
	return vp_profile_write_csv(f, s->p, s->o);
}

/* The file of one event's table in dir, 0 when events leaves it out. Event
 * names like sched:sched_switch or cpu/config=1/ make file names. */
static int split_path(const char *dir, const char *name, const char *const *events, char *path,
		      size_t size)
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
	snprintf(path, size, "%s/%s.csv", dir, file);
	return 1;
}

int vp_split_csv(const char *cmd, const struct vp_profile *p, struct vp_out_opts *oo,
		 const char *dir, const char *const *events)
{
	struct vp_error err = { 0 };
	int made = mkdir(dir, 0777) == 0;
	char path[4096];

	if (!made && errno != EEXIST)
		return vp_cmd_failf(cmd, "'%s': cannot create directory: %s", dir, strerror(errno));
	for (size_t e = 0; e < p->ntables; e++) {
		if (!split_path(dir, p->tables[e]->name, events, path, sizeof(path)))
			continue;
		oo->event = p->tables[e]->name;
		struct split_one s = { p, oo };
		if (vp_write_atomic(path, write_one, &s, &err) < 0) {
			/* all or nothing: the tables this run wrote go too */
			for (size_t i = 0; i < e; i++)
				if (split_path(dir, p->tables[i]->name, events, path, sizeof(path)))
					unlink(path);
			if (made)
				rmdir(dir);
			oo->event = NULL;
			return vp_cmd_fail(cmd, &err);
		}
		fprintf(stderr, "vmprof %s: wrote %s\n", cmd, path);
	}
	oo->event = NULL;
	return 0;
}

int vp_parse_value(const char *arg, enum vp_value *v)
{
	if (!strcmp(arg, "period"))
		*v = VP_VALUE_PERIOD;
	else if (!strcmp(arg, "samples"))
		*v = VP_VALUE_SAMPLES;
	else
		return -1;
	return 0;
}

int vp_parse_labels(const char *arg, char labels[2][256])
{
	const char *comma = strchr(arg, ',');

	if (!comma || strchr(comma + 1, ',') || comma == arg || !comma[1] || (size_t)(comma - arg) >= 256 ||
	    strlen(comma + 1) >= 256)
		return -1;
	snprintf(labels[0], 256, "%.*s", (int)(comma - arg), arg);
	snprintf(labels[1], 256, "%s", comma + 1);
	return 0;
}
