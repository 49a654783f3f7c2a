/* Threads to record (see targets.h). */
#include "targets.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -p ends when every listed process has: a zombie counts as gone. */
int vp_targets_alive(const pid_t *procs, size_t nprocs)
{
	for (size_t i = 0; i < nprocs; i++) {
		char path[64], buf[512];
		FILE *f;
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)procs[i]);
		if (!(f = fopen(path, "r")))
			continue;
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		const char *paren = strrchr(buf, ')');
		if (paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X')
			return 1;
	}
	return 0;
}

int vp_targets_add(pid_t **targets, size_t *ntargets, pid_t p)
{
	pid_t *v = realloc(*targets, (*ntargets + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	*targets = v;
	v[(*ntargets)++] = p;
	return 0;
}

/* -p: every thread of every listed process. */
int vp_targets_of_pids(const char *list, pid_t **targets, size_t *ntargets, pid_t **procs,
		       size_t *nprocs, struct vp_error *err)
{
	char *copy = strdup(list), *save = NULL;
	int rc = 0;

	if (!copy)
		return vp_errorf(err, -ENOMEM, "out of memory");
	for (char *t = strtok_r(copy, ",", &save); t && rc >= 0; t = strtok_r(NULL, ",", &save)) {
		char *end, path[64];
		long pid = strtol(t, &end, 10);
		DIR *d;
		struct dirent *de;
		if (*end || pid <= 0 || pid > 4194304) {
			rc = vp_errorf(err, -EINVAL, "-p: '%s' is not a process id", t);
			break;
		}
		snprintf(path, sizeof(path), "/proc/%ld/task", pid);
		if (!(d = opendir(path))) {
			rc = vp_errorf(err, -ESRCH, "-p: no process %ld", pid);
			break;
		}
		pid_t *pv = realloc(*procs, (*nprocs + 1) * sizeof(*pv));
		if (!pv) {
			closedir(d);
			rc = vp_errorf(err, -ENOMEM, "out of memory");
			break;
		}
		*procs = pv;
		pv[(*nprocs)++] = (pid_t)pid;
		while ((de = readdir(d)) && rc >= 0)
			if (de->d_name[0] >= '0' && de->d_name[0] <= '9')
				rc = vp_targets_add(targets, ntargets, atoi(de->d_name));
		closedir(d);
	}
	free(copy);
	return rc;
}
