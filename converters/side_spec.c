/* A side as the user writes it on the command line: a path (file or
 * directory of recordings) or LABEL=PATH,PATH,... (sides.h states the rule;
 * vmprof-compare(1) SIDES AND RUNS documents it). */
#include "sides.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int exists(const char *path)
{
	struct stat st;
	return !strcmp(path, "-") || stat(path, &st) == 0;
}

static int is_dir(const char *path)
{
	struct stat st;
	return strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int add_path(struct vp_side_spec *s, const char *path, size_t len)
{
	char **v = realloc(s->paths, (s->npaths + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	s->paths = v;
	if (!(v[s->npaths] = strndup(path, len)))
		return -ENOMEM;
	s->npaths++;
	return 0;
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && !strcmp(s + n - t, tail);
}

/* What a directory of recordings holds: regular files (links followed),
 * not hidden, not an older or unfinished recording. */
static int is_run(const struct dirent *d)
{
	return d->d_name[0] != '.' && !ends_with(d->d_name, ".old") && !ends_with(d->d_name, ".partial");
}

static int add_dir(struct vp_side_spec *s, const char *dir, struct vp_error *err)
{
	struct dirent **names;
	int n = scandir(dir, &names, is_run, versionsort), r = 0;
	size_t before = s->npaths;

	if (n < 0)
		return vp_errorf(err, -errno, "'%s': cannot read the directory: %s", dir, strerror(errno));
	for (int i = 0; i < n; i++) {
		char *path = NULL;
		struct stat st;
		const char *sep = dir[strlen(dir) - 1] == '/' ? "" : "/";
		if (r == 0 && asprintf(&path, "%s%s%s", dir, sep, names[i]->d_name) < 0)
			r = vp_errorf(err, -ENOMEM, "out of memory");
		else if (r == 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
			 add_path(s, path, strlen(path)) < 0)
			r = vp_errorf(err, -ENOMEM, "out of memory");
		free(path);
		free(names[i]);
	}
	free(names);
	if (r == 0 && s->npaths == before)
		r = vp_errorf(err, -ENOENT, "'%s': no recordings in the directory", dir);
	return r;
}

static int add_one(struct vp_side_spec *s, const char *path, size_t len, struct vp_error *err)
{
	char *p = strndup(path, len);
	int r;

	if (!p)
		return vp_errorf(err, -ENOMEM, "out of memory");
	if (is_dir(p))
		r = add_dir(s, p, err);
	else if ((r = add_path(s, p, len)) < 0)
		r = vp_errorf(err, r, "out of memory");
	free(p);
	return r;
}

int vp_side_spec_parse(const char *arg, const struct vp_load_opts *lo, struct vp_side_spec *out,
		       struct vp_error *err)
{
	const char *eq = strchr(arg, '='), *rest = arg;
	int r = 0;

	memset(out, 0, sizeof(*out));
	out->arg = arg;
	out->lo = *lo;
	if (exists(arg)) {
		if ((r = add_one(out, arg, strlen(arg), err)) < 0)
			vp_side_spec_free(out);
		out->dir = is_dir(arg) ? arg : NULL;
		return r;
	}
	if (eq && eq > arg && !memchr(arg, '/', (size_t)(eq - arg))) {
		if (!(out->label = strndup(arg, (size_t)(eq - arg))))
			return vp_errorf(err, -ENOMEM, "out of memory");
		rest = eq + 1;
		if (!*rest) {
			vp_side_spec_free(out);
			return vp_errorf(err, -EINVAL, "'%s': no inputs after '='", arg);
		}
	}
	if (exists(rest)) {
		r = add_one(out, rest, strlen(rest), err);
		out->dir = is_dir(rest) ? rest : NULL;
	} else {
		for (const char *p = rest; r == 0;) {
			const char *comma = strchr(p, ',');
			size_t len = comma ? (size_t)(comma - p) : strlen(p);
			if (!len)
				r = vp_errorf(err, -EINVAL, "'%s': an empty name in the list of inputs", arg);
			else
				r = add_one(out, p, len, err);
			if (!comma)
				break;
			p = comma + 1;
		}
	}
	if (r < 0)
		vp_side_spec_free(out);
	return r;
}

void vp_side_spec_free(struct vp_side_spec *s)
{
	for (size_t i = 0; i < s->npaths; i++)
		free(s->paths[i]);
	free(s->paths);
	free((char *)s->label);
	s->paths = NULL;
	s->npaths = 0;
	s->label = NULL;
}
