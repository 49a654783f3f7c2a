/* The option table parser and help printer shared by every command. */
#include <stdio.h>

#include "options.h"
#include "progress.h"
#include "converters/text.h"

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

/* getopt_long's value for a long-only option: its place in the table. */
#define AUTO_VAL 1024

/* The id convention of options.h, and no name or letter given twice. */
static int check_table(const struct vp_cmd_info *info)
{
	size_t n = 0;

	for (const struct vp_opt *o = info->opts; o && o->lname; o++, n++) {
		const char *why = NULL;
		if (o->bind != VP_BIND_NONE ? o->id != 0
					    : o->sname ? o->id != o->sname : o->id < VP_OPT_CMD)
			why = "its id breaks the convention of cmd/options.h";
		if ((o->bind == VP_BIND_FLAG) != (o->bind != VP_BIND_NONE && !o->arg))
			why = "a bound flag takes no argument, a bound string one";
		if (o->sname == 'h' || !strcmp(o->lname, "help"))
			why = "-h and --help are the parser's";
		for (const struct vp_opt *p = info->opts; p != o; p++)
			if (!strcmp(p->lname, o->lname) || (o->sname && p->sname == o->sname) ||
			    (o->id && p->id == o->id))
				why = "it repeats the name, letter or id of an earlier option";
		if (why) {
			fprintf(stderr, "vmprof %s: internal error: option '--%s': %s\n", info->name,
				o->lname, why);
			return -1;
		}
	}
	if (n > MAX_OPTS) {
		fprintf(stderr, "vmprof %s: internal error: more than %d options\n", info->name, MAX_OPTS);
		return -1;
	}
	return 0;
}

int vp_opts_parse(const struct vp_cmd_info *info, int argc, char **argv, vp_opt_fn fn, void *ctx)
{
	struct option lopts[MAX_OPTS + 2];
	char sopts[3 * MAX_OPTS + 4];
	size_t n = 0, sl = 0;
	int c, li;

	if (check_table(info) < 0)
		return VP_OPTS_USAGE;
	/* Operands may come before options except where they start a command line. */
	sopts[sl++] = info->stop_at_operand ? '+' : ':';
	if (info->stop_at_operand)
		sopts[sl++] = ':';
	for (const struct vp_opt *o = info->opts; o && o->lname; o++, n++) {
		lopts[n] = (struct option){ o->lname, o->arg ? required_argument : no_argument, NULL,
					    o->sname ? o->sname : AUTO_VAL + (int)n };
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
		const struct vp_opt *o = NULL;

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
		if (c >= AUTO_VAL)
			o = &info->opts[c - AUTO_VAL];
		else
			for (const struct vp_opt *p = info->opts; p->lname && !o; p++)
				if (p->sname == c)
					o = p;
		if (!o)
			return vp_usage_error(info, "unknown option '%s'", argv[optind - 1]);
		switch (o->bind) {
		case VP_BIND_STRING: *(const char **)((char *)ctx + o->off) = optarg; break;
		case VP_BIND_FLAG: *(int *)((char *)ctx + o->off) = 1; break;
		default:
			if (fn(o->id, optarg, ctx) < 0)
				return VP_OPTS_USAGE;
		}
	}
	return optind;
}

int vp_cmd_fail(const char *cmd, const struct vp_error *err)
{
	vp_cmd_progress_clear();
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
	vp_cmd_progress_clear();
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
