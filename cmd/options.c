/* The option table parser and help printer shared by every command. */
#include <stdio.h>

#include "options.h"
#include "text.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPTS 64

static const struct vp_opt help_opt = { "help", 'h', NULL, "show this help and exit", 'h' };

static void print_opt(FILE *out, const struct vp_opt *o, int width)
{
	char left[128];

	snprintf(left, sizeof(left), "%s%s%s", o->lname, o->arg ? " " : "", o->arg ? o->arg : "");
	if (o->sname)
		fprintf(out, "  -%c, --%-*s  %s\n", o->sname, width, left, o->help);
	else
		fprintf(out, "      --%-*s  %s\n", width, left, o->help);
}

void vp_opts_help(const struct vp_cmd_info *info, FILE *out)
{
	const struct vp_opt *o;
	int width = 0;

	for (int i = 0; info->usage && info->usage[i]; i++)
		fprintf(out, "%s vmprof %s %s\n", i ? "      " : "usage:", info->name, info->usage[i]);
	if (info->summary)
		fprintf(out, "\n%s\n", info->summary);
	for (o = info->opts; o && o->lname; o++) {
		int w = (int)strlen(o->lname) + (o->arg ? (int)strlen(o->arg) + 1 : 0);
		if (w > width)
			width = w;
	}
	fprintf(out, "\noptions:\n");
	for (o = info->opts; o && o->lname; o++)
		print_opt(out, o, width);
	print_opt(out, &help_opt, width);
}

int vp_usage_error(const struct vp_cmd_info *info, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vmprof %s: ", info->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'vmprof %s --help' for more information.\n", info->name);
	return VP_OPTS_USAGE;
}

int vp_opts_parse(const struct vp_cmd_info *info, int argc, char **argv, vp_opt_fn fn, void *ctx)
{
	struct option lopts[MAX_OPTS + 2];
	char sopts[3 * MAX_OPTS + 4];
	size_t n = 0, sl = 0;
	int c, li;

	/* Operands may come before options except where they start a command line. */
	sopts[sl++] = info->stop_at_operand ? '+' : ':';
	if (info->stop_at_operand)
		sopts[sl++] = ':';
	for (const struct vp_opt *o = info->opts; o && o->lname && n < MAX_OPTS; o++, n++) {
		lopts[n] = (struct option){ o->lname, o->arg ? required_argument : no_argument, NULL,
					    o->id };
		if (o->sname) {
			sopts[sl++] = (char)o->sname;
			if (o->arg)
				sopts[sl++] = ':';
		}
	}
	lopts[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	lopts[n] = (struct option){ NULL, 0, NULL, 0 };
	sopts[sl++] = 'h';
	sopts[sl] = '\0';

	optind = 0;	/* full reinitialisation, so commands can be parsed twice (help) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, sopts, lopts, &li)) != -1) {
		if (c == 'h') {
			vp_opts_help(info, stdout);
			return VP_OPTS_HELP;
		}
		if (c == '?') {
			if (optopt && optopt < 256)
				return vp_usage_error(info, "unknown option '-%c'", optopt);
			return vp_usage_error(info, "unknown option '%s'", argv[optind - 1]);
		}
		if (c == ':') {
			if (optopt && optopt < 256)
				return vp_usage_error(info, "option '-%c' needs a value", optopt);
			return vp_usage_error(info, "option '%s' needs a value", argv[optind - 1]);
		}
		/* A short letter stands for its option: hand the handler the option's id. */
		for (const struct vp_opt *o = info->opts; o && o->lname; o++)
			if (c < 256 && o->sname == c) {
				c = o->id;
				break;
			}
		if (fn(c, optarg, ctx) < 0)
			return VP_OPTS_USAGE;
	}
	return optind;
}

int vp_cmd_fail(const char *cmd, const struct vp_error *err)
{
	/* messages quote names from files: escaped, one line each */
	fprintf(stderr, "vmprof %s: ", cmd);
	vp_text_puts(stderr, err && err->msg[0] ? err->msg : "failed");
	fputc('\n', stderr);
	return 1;
}

int vp_cmd_failf(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	char msg[1024];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "vmprof %s: ", cmd);
	vp_text_puts(stderr, msg);
	fputc('\n', stderr);
	return 1;
}

int vp_parse_u64(const char *s, unsigned long long *out)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

int vp_parse_double(const char *s, double *out)
{
	char *end;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	*out = strtod(s, &end);
	if (errno || *end)
		return -EINVAL;
	return 0;
}
