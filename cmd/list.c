/* vmprof list: the events this machine can open. */
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <dirent.h>
#include <stdlib.h>

#include "commands.h"
#include "options.h"
#include "lib/record/events.h"

struct list_args {
	int all, tracepoints;
};

static const char *const usage[] = { "[options]", NULL };

static const struct vp_opt opts[] = {
	VP_OPT_FLAG("all", 0, "also list the events this machine cannot open, marked so",
		    struct list_args, all),
	VP_OPT_FLAG("tracepoints", 0, "also list every tracepoint (long)", struct list_args,
		    tracepoints),
	VP_OPT_END,
};

static const struct vp_cmd_info info = {
	"list", usage,
	"List the events 'vmprof record -e' accepts that this machine can open: hardware\n"
	"events need a PMU, which many virtual machines do not expose; software events\n"
	"and tracepoints work everywhere.",
	opts, 0,
};


static void one(const char *name, const char *kind, void *ctx)
{
	struct list_args *a = ctx;
	struct vp_event_spec *ev;
	size_t n;
	struct vp_error err;
	int ok = 0;

	if (vp_events_parse(name, &ev, &n, &err) == 0) {
		ev[0].attr.size = sizeof(ev[0].attr);
		ev[0].attr.disabled = 1;
		ev[0].attr.exclude_kernel = 1;
		long fd = syscall(SYS_perf_event_open, &ev[0].attr, 0, -1, -1, 0);
		if (fd >= 0) {
			ok = 1;
			close((int)fd);
		}
		free(ev);
	}
	if (ok || a->all)
		printf("  %-40s [%s]%s\n", name, kind, ok ? "" : " (cannot open here)");
}

int cmd_list(int argc, char **argv)
{
	struct list_args a = { 0 };
	int i = vp_opts_parse(&info, argc, argv, NULL, &a);

	if (i == VP_OPTS_HELP)
		return 0;
	if (i < 0)
		return 2;
	if (i < argc)
		return vp_usage_error(&info, "unexpected argument '%s'", argv[i]), 2;
	printf("List of events this machine can open:\n\n");
	vp_events_each_name(one, &a);
	const char *fs = vp_tracefs();
	if (!fs) {
		printf("\n  (tracepoints: tracefs is not mounted and could not be)\n");
		return 0;
	}
	if (!a.tracepoints) {
		printf("\n  subsys:name                              [Tracepoint event] (--tracepoints lists them)\n");
		return 0;
	}
	char path[512];
	snprintf(path, sizeof(path), "%s/events", fs);
	DIR *d = opendir(path);
	struct dirent *s;
	while (d && (s = readdir(d))) {
		if (s->d_name[0] == '.' || s->d_type != DT_DIR)
			continue;
		char sub[1024];
		snprintf(sub, sizeof(sub), "%s/%s", path, s->d_name);
		DIR *e = opendir(sub);
		struct dirent *t;
		while (e && (t = readdir(e)))
			if (t->d_name[0] != '.' && t->d_type == DT_DIR)
				printf("  %s:%-*s [Tracepoint event]\n", s->d_name,
				       (int)(39 - strlen(s->d_name) > 0 ? 39 - strlen(s->d_name) : 0), t->d_name);
		if (e)
			closedir(e);
	}
	if (d)
		closedir(d);
	return 0;
}
