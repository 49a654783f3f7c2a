/* Options declared as data: each command lists its options once, and both
 * the parser (getopt_long) and --help are generated from that list, so help
 * cannot drift from what is parsed. */
#ifndef VP_OPTIONS_H
#define VP_OPTIONS_H

#include "lib/util/error.h"

struct vp_opt {
	const char *lname;	/* long name without "--" */
	int sname;		/* short letter or 0 */
	const char *arg;	/* argument name for help, NULL for a flag */
	const char *help;
	int id;			/* passed to the handler: sname, or a value >= 256 */
};
#define VP_OPT_END { NULL, 0, NULL, NULL, 0 }

struct vp_cmd_info {
	const char *name;		/* "report" */
	const char *const *usage;	/* NULL-terminated usage lines, after "vmprof NAME " */
	const char *summary;		/* one paragraph printed under the usage */
	const struct vp_opt *opts;
	int stop_at_operand;		/* record: options end at the command to run */
};

/* Called once per option seen; return 0, or a negative value after printing
 * a usage error with vp_usage_error(). */
typedef int (*vp_opt_fn)(int id, const char *arg, void *ctx);

enum { VP_OPTS_HELP = -1, VP_OPTS_USAGE = -2 };
/* Parse argv (argv[0] is the command name). Returns the index of the first
 * operand, VP_OPTS_HELP after printing help to stdout, VP_OPTS_USAGE after
 * printing an error to stderr. */
int vp_opts_parse(const struct vp_cmd_info *info, int argc, char **argv, vp_opt_fn fn, void *ctx);
void vp_opts_help(const struct vp_cmd_info *info, FILE *out);
int vp_usage_error(const struct vp_cmd_info *info, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Print "vmprof CMD: MSG" for a failed operation; returns exit status 1. */
int vp_cmd_fail(const char *cmd, const struct vp_error *err);
int vp_cmd_failf(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Strict number parsing for option values. */
int vp_parse_u64(const char *s, unsigned long long *out);
int vp_parse_double(const char *s, double *out);

#endif
