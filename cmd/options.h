/* Options declared as data: each command lists its options once, and both
 * the parser (getopt_long) and --help are generated from that list, so help
 * cannot drift from what is parsed. */
#ifndef VP_OPTIONS_H
#define VP_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "lib/util/error.h"

/* An option either binds its storage (the parser stores the value itself, as
 * git's OPT_STRING does: no switch case) or goes to the command's handler
 * with its id. Ids follow one convention, checked by vp_opts_parse: an option
 * with a short letter has that letter as its id; a long-only handled option
 * has an id from its command's enum starting at VP_OPT_CMD; options shared
 * between commands (common.h) start at VP_OPT_SHARED; bound options have 0. */
enum { VP_OPT_CMD = 256, VP_OPT_SHARED = 512 };
enum vp_opt_bind { VP_BIND_NONE = 0, VP_BIND_STRING, VP_BIND_FLAG };

struct vp_opt {
	const char *lname;	/* long name without "--" */
	int sname;		/* short letter or 0 */
	const char *arg;	/* argument name for help, NULL for a flag */
	const char *help;
	int id;			/* passed to the handler (see the convention above) */
	int bind;		/* enum vp_opt_bind */
	size_t off;		/* bound options: offset of the field in the handler's ctx */
};
#define VP_OPT_END { NULL, 0, NULL, NULL, 0, 0, 0 }
/* A string option stored in ctx's FIELD (a const char *), and a flag setting
 * ctx's int FIELD to 1. TYPE is the struct the command passes as ctx. */
#define VP_OPT_STRING(lname, sname, arg, help, type, field) \
	{ lname, sname, arg, help, 0, VP_BIND_STRING, offsetof(type, field) }
#define VP_OPT_FLAG(lname, sname, help, type, field) \
	{ lname, sname, NULL, help, 0, VP_BIND_FLAG, offsetof(type, field) }

struct vp_cmd_info {
	const char *name;		/* "report" */
	const char *const *usage;	/* NULL-terminated usage lines, after "vmprof NAME " */
	const char *summary;		/* one paragraph printed under the usage */
	const struct vp_opt *opts;
	int stop_at_operand;		/* record: options end at the command to run */
};

/* Called once per handled (not bound) option seen; return 0, or a negative
 * value after printing a usage error with vp_usage_error(). */
typedef int (*vp_opt_fn)(int id, const char *arg, void *ctx);

enum { VP_OPTS_HELP = -1, VP_OPTS_USAGE = -2 };
/* Parse argv (argv[0] is the command name). Returns the index of the first
 * operand, VP_OPTS_HELP after printing help to stdout, VP_OPTS_USAGE after
 * printing an error to stderr (also when the table breaks the id convention:
 * a programming error that --help of every command shows in the tests). */
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
