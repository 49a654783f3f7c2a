/* perf's tracing data -> libtraceevent. Layout (tools/perf/util/
 * trace-event-read.c): magic, version string, endianness, long size, page
 * size, header_page, header_event, ftrace formats, event formats per system,
 * kallsyms, printk formats, and (0.6) saved cmdlines. Only the formats are
 * used; every length is checked against what is left. */
#include "tracedata.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "lib/util/u64map.h"

static const char magic[] = "\027\010\104tracing";

struct vp_tpfield {
	struct tep_event *event;
	struct tep_format_field *field;
	const struct tep_print_arg *sym;	/* __print_symbolic over this field, if any */
	const struct tep_print_arg *flags;	/* __print_flags over this field, if any */
	const char *zero_name;			/* the ?: "else" string when no flag is set */
	struct vp_tpfield *next;
};

struct vp_tracedata {
	struct tep_handle *tep;
	struct vp_tpfield *fields;
	int common_type_size;
};

struct rd {
	const uint8_t *p, *end;
	/* blobs handed to libtraceevent are numbered from 0 (header_page is 0) */
	uint32_t blob_no;
	const uint32_t *skip;	/* blob numbers not to parse */
	size_t nskip;
	int progress_fd;	/* trial run: each blob number is written here first */
};

static int need(struct rd *r, uint64_t n)
{
	return (uint64_t)(r->end - r->p) >= n ? 0 : -1;
}

static int get32(struct rd *r, uint32_t *v)
{
	if (need(r, 4) < 0)
		return -1;
	memcpy(v, r->p, 4);
	r->p += 4;
	return 0;
}

static int get64(struct rd *r, uint64_t *v)
{
	if (need(r, 8) < 0)
		return -1;
	memcpy(v, r->p, 8);
	r->p += 8;
	return 0;
}

static const char *getstr(struct rd *r)
{
	const uint8_t *nul = memchr(r->p, 0, (size_t)(r->end - r->p));
	const char *s = (const char *)r->p;

	if (!nul)
		return NULL;
	r->p = nul + 1;
	return s;
}

/* A sized blob ("u64 size, bytes") handed to fn; NULL fn skips it. */
static int blob(struct rd *r, int (*fn)(struct vp_tracedata *, const char *, size_t, const char *),
		struct vp_tracedata *td, const char *sys)
{
	uint64_t size;

	uint32_t no = r->blob_no;
	int skip = 0;

	if (get64(r, &size) < 0 || need(r, size) < 0)
		return -1;
	if (fn)
		r->blob_no++;
	for (size_t i = 0; i < r->nskip; i++)
		skip |= r->skip[i] == no;
	if (fn && r->progress_fd >= 0 && write(r->progress_fd, &no, sizeof(no)) != sizeof(no))
		return -1;
	/* libtraceevent parses in place and wants a writable, terminated copy. */
	if (fn && !skip) {
		char *copy = malloc(size + 1);
		if (!copy)
			return -1;
		memcpy(copy, r->p, size);
		copy[size] = '\0';
		fn(td, copy, size, sys);
		free(copy);
	}
	r->p += size;
	return 0;
}

static int parse_event(struct vp_tracedata *td, const char *buf, size_t size, const char *sys)
{
	/* A format libtraceevent cannot parse only loses that event's fields. */
	tep_parse_event(td->tep, buf, size, sys);
	return 0;
}

static int parse_header_page(struct vp_tracedata *td, const char *buf, size_t size,
			     const char *sys)
{
	(void)sys;
	tep_parse_header_page(td->tep, (char *)buf, size, tep_get_long_size(td->tep));
	return 0;
}

static int parse_all(const void *data, size_t size, const uint32_t *skip, size_t nskip,
		     int progress_fd, struct vp_tracedata **out, struct vp_error *err)
{
	struct rd r = { data, (const uint8_t *)data + size, 0, skip, nskip, progress_fd };
	struct vp_tracedata *td;
	const char *version, *name;
	uint32_t n, page_size;
	uint8_t big, long_size;

	*out = NULL;
	if (need(&r, 10) < 0 || memcmp(r.p, magic, 10))
		return vp_errorf(err, -EINVAL, "tracing data: bad magic");
	r.p += 10;
	if (!(version = getstr(&r)) || need(&r, 2) < 0)
		return vp_errorf(err, -EINVAL, "tracing data: truncated in the header");
	big = *r.p++;
	long_size = *r.p++;
	if (big)
		return vp_errorf(err, -ENOTSUP, "tracing data: big-endian formats are not supported");
	if (long_size != 4 && long_size != 8)
		return vp_errorf(err, -EINVAL, "tracing data: long size %u", long_size);
	if (get32(&r, &page_size) < 0)
		return vp_errorf(err, -EINVAL, "tracing data: truncated in the header");

	td = calloc(1, sizeof(*td));
	if (!td || !(td->tep = tep_alloc())) {
		free(td);
		return vp_errorf(err, -ENOMEM, "out of memory");
	}
	tep_set_loglevel(TEP_LOG_NONE);
	tep_set_file_bigendian(td->tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(td->tep, TEP_LITTLE_ENDIAN);
	tep_set_long_size(td->tep, long_size);
	tep_set_page_size(td->tep, (int)page_size);

	/* "header_page\0" then "header_event\0", each followed by a sized blob. */
	if (!(name = getstr(&r)) || strcmp(name, "header_page") || blob(&r, parse_header_page, td, NULL) < 0 ||
	    !(name = getstr(&r)) || strcmp(name, "header_event") || blob(&r, NULL, td, NULL) < 0)
		goto bad;
	if (get32(&r, &n) < 0)
		goto bad;
	for (uint32_t i = 0; i < n; i++)
		if (blob(&r, parse_event, td, "ftrace") < 0)
			goto bad;
	if (get32(&r, &n) < 0)
		goto bad;
	for (uint32_t s = 0; s < n; s++) {
		const char *sys = getstr(&r);
		uint32_t count;
		if (!sys || get32(&r, &count) < 0)
			goto bad;
		for (uint32_t i = 0; i < count; i++)
			if (blob(&r, parse_event, td, sys) < 0)
				goto bad;
	}
	/* kallsyms, printk formats and saved cmdlines follow; vmprof needs none. */
	*out = td;
	return 0;
bad:
	vp_tracedata_free(td);
	return vp_errorf(err, -EINVAL, "tracing data: truncated or malformed event formats");
}

/* libtraceevent dies on some malformed formats (a NULL dereference, a
 * division by zero inside tep_parse_event), and the formats come from the
 * file. So the parse runs first in a child: 0 when it ended (an error the
 * real parse reports included), 1 when something killed it while parsing
 * blob *culprit (UINT32_MAX: outside any), -1 when no child could be made. */
#define CHILD_PARSE_ERROR 42

static int trial(const void *data, size_t size, const uint32_t *skip, size_t nskip,
		 uint32_t *culprit)
{
	int fds[2], status = 0;
	uint32_t no;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		static const int deadly[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
		struct vp_tracedata *td;
		struct vp_error e;
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		close(fds[0]);
		/* die quietly: this death is expected and handled by the parent */
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		for (size_t i = 0; i < sizeof(deadly) / sizeof(deadly[0]); i++)
			signal(deadly[i], SIG_DFL);
		_exit(parse_all(data, size, skip, nskip, fds[1], &td, &e) < 0 ? CHILD_PARSE_ERROR : 0);
	}
	close(fds[1]);
	*culprit = UINT32_MAX;
	while (read(fds[0], &no, sizeof(no)) == sizeof(no))
		*culprit = no;
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == CHILD_PARSE_ERROR))
		return 0;
	return 1;
}

#define MAX_BAD_FORMATS 16

int vp_tracedata_parse(const void *data, size_t size, struct vp_tracedata **out,
		       struct vp_error *err)
{
	uint32_t skip[MAX_BAD_FORMATS], culprit;
	size_t nskip = 0;
	int r;

	/* each format that kills libtraceevent is left out, and the rest tried again */
	while ((r = trial(data, size, skip, nskip, &culprit)) == 1) {
		if (culprit == UINT32_MAX || nskip == MAX_BAD_FORMATS)
			return vp_errorf(err, -EINVAL, "tracing data: event formats that crash "
					 "libtraceevent; tracepoint fields are not available");
		vp_warn("tracing data: event format %u crashes libtraceevent; its fields are left out",
			culprit);
		skip[nskip++] = culprit;
	}
	return parse_all(data, size, skip, nskip, -1, out, err);
}

void vp_tracedata_free(struct vp_tracedata *td)
{
	if (!td)
		return;
	for (struct vp_tpfield *f = td->fields, *n; f; f = n) {
		n = f->next;
		free(f);
	}
	tep_free(td->tep);
	free(td);
}

int vp_tracedata_event_name(const struct vp_tracedata *td, int id, char *buf, size_t size)
{
	struct tep_event *ev = tep_find_event(td->tep, id);

	if (!ev)
		return -ENOENT;
	snprintf(buf, size, "%s:%s", ev->system, ev->name);
	return 0;
}

int vp_tracedata_raw_id(const struct vp_tracedata *td, const void *raw, size_t size)
{
	uint16_t id;

	(void)td;
	if (size < 2)
		return -1;
	memcpy(&id, raw, 2);	/* common_type: the first field of every event */
	return id;
}

/* Does this print argument read the field (directly or inside an expression)? */
static int uses_field(const struct tep_print_arg *a, const char *name, int depth)
{
	if (!a || depth > 32)
		return 0;
	switch (a->type) {
	case TEP_PRINT_FIELD:
		return a->field.name && !strcmp(a->field.name, name);
	case TEP_PRINT_OP:
		return uses_field(a->op.left, name, depth + 1) || uses_field(a->op.right, name, depth + 1);
	case TEP_PRINT_TYPE:
		return uses_field(a->typecast.item, name, depth + 1);
	default:
		return 0;
	}
}

/* Find __print_symbolic / __print_flags over the field, and the string a
 * "x ? __print_flags(x) : "R"" shape prints when no flag is set. */
static void find_printers(struct vp_tpfield *f, const struct tep_print_arg *a, const char *name,
			  const char *else_str, int depth)
{
	for (; a && depth < 32; a = a->next) {
		switch (a->type) {
		case TEP_PRINT_SYMBOL:
			if (!f->sym && uses_field(a->symbol.field, name, 0))
				f->sym = a;
			break;
		case TEP_PRINT_FLAGS:
			if (!f->flags && uses_field(a->flags.field, name, 0)) {
				f->flags = a;
				f->zero_name = else_str;
			}
			break;
		case TEP_PRINT_OP: {
			const char *alt = NULL;
			const struct tep_print_arg *rhs = a->op.right;
			/* cond ? X : "str" -- the right side is the ':' op */
			if (a->op.op && !strcmp(a->op.op, "?") && rhs && rhs->type == TEP_PRINT_OP &&
			    rhs->op.right && rhs->op.right->type == TEP_PRINT_ATOM)
				alt = rhs->op.right->atom.atom;
			find_printers(f, a->op.left, name, else_str, depth + 1);
			if (rhs) {
				struct tep_print_arg one = *rhs;
				one.next = NULL;
				find_printers(f, &one, name, alt ? alt : else_str, depth + 1);
			}
			break;
		}
		case TEP_PRINT_TYPE:
			if (a->typecast.item) {
				struct tep_print_arg one = *a->typecast.item;
				one.next = NULL;
				find_printers(f, &one, name, else_str, depth + 1);
			}
			break;
		default:
			break;
		}
	}
}

const struct vp_tpfield *vp_tracedata_field(struct vp_tracedata *td, int id, const char *name)
{
	struct tep_event *ev = tep_find_event(td->tep, id);
	struct tep_format_field *fld;
	struct vp_tpfield *f;

	if (!ev || !(fld = tep_find_any_field(ev, name)))
		return NULL;
	for (f = td->fields; f; f = f->next)
		if (f->event == ev && f->field == fld)
			return f;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->event = ev;
	f->field = fld;
	find_printers(f, ev->print_fmt.args, name, NULL, 0);
	f->next = td->fields;
	td->fields = f;
	return f;
}

int vp_tpfield_value(const struct vp_tpfield *f, const void *raw, size_t size, int64_t *val)
{
	unsigned long long v;
	int fs = f->field->size;

	if (f->field->offset < 0 || fs <= 0 || fs > 8 || (size_t)f->field->offset + (size_t)fs > size)
		return -1;
	if (tep_read_number_field(f->field, raw, &v) < 0)
		return -1;
	/* Sign-extend signed fields narrower than 64 bits (e.g. an int 'ret'). */
	if ((f->field->flags & TEP_FIELD_IS_SIGNED) && fs < 8 && (v >> (fs * 8 - 1) & 1))
		v |= ~0ull << (fs * 8);
	*val = (int64_t)v;
	return 0;
}

static int sym_value(const char *s, long long *out)
{
	char *end;

	*out = strtoll(s, &end, 0);
	return end != s && *end == '\0' ? 0 : -1;
}

/* "name=value" as the event's own print format writes it (e.g. sched_switch's
 * prev_state=R+), NULL when the format does not print the field that way. */
/* libtraceevent prints a record by trusting it: fields are read where the
 * format puts them, strings up to their NUL, arrays for lengths that fields
 * give. So a record is printed only when it holds every field its format
 * declares (dynamic ones and their NULs inside it too), and only through
 * print arguments that read nothing but fields. */
static int args_safe(const struct tep_print_arg *a, int depth)
{
	for (; a; a = a->next) {
		if (depth > 32)
			return 0;
		switch (a->type) {
		case TEP_PRINT_NULL:
		case TEP_PRINT_ATOM:
		case TEP_PRINT_FIELD:
		case TEP_PRINT_STRING:
			break;
		case TEP_PRINT_FLAGS:
			if (!args_safe(a->flags.field, depth + 1))
				return 0;
			break;
		case TEP_PRINT_SYMBOL:
			if (!args_safe(a->symbol.field, depth + 1))
				return 0;
			break;
		case TEP_PRINT_TYPE:
			if (!args_safe(a->typecast.item, depth + 1))
				return 0;
			break;
		case TEP_PRINT_OP:
			if (!args_safe(a->op.left, depth + 1) || !args_safe(a->op.right, depth + 1))
				return 0;
			break;
		default:	/* hex dumps, arrays, bitmasks, functions: lengths from the record */
			return 0;
		}
	}
	return 1;
}

static int record_holds(const struct tep_format_field *f, const uint8_t *raw, size_t size)
{
	for (; f; f = f->next) {
		if (f->offset < 0 || f->size < 0 || (size_t)f->offset + (size_t)f->size > size)
			return 0;
		if (f->flags & TEP_FIELD_IS_DYNAMIC) {
			uint32_t v;
			size_t off, len;
			if (f->size < 4)
				return 0;
			memcpy(&v, raw + f->offset, 4);
			off = v & 0xffff;
			len = v >> 16;
			if (f->flags & TEP_FIELD_IS_RELATIVE)
				off += (size_t)f->offset + (size_t)f->size;
			if (off > size || len > size - off || !memchr(raw + off, 0, size - off))
				return 0;
		} else if ((f->flags & TEP_FIELD_IS_STRING) && !memchr(raw + f->offset, 0, (size_t)f->size)) {
			return 0;
		}
	}
	return 1;
}

static const char *printed_value(const struct vp_tpfield *f, const void *raw, size_t size,
				 struct vp_strpool *pool)
{
	struct tep_record rec = { .data = (void *)raw, .size = (int)size };
	struct trace_seq seq;
	const char *out = NULL, *p;
	size_t nlen = strlen(f->field->name);

	if (size > INT_MAX || !args_safe(f->event->print_fmt.args, 0) ||
	    !record_holds(f->event->format.common_fields, raw, size) ||
	    !record_holds(f->event->format.fields, raw, size))
		return NULL;
	trace_seq_init(&seq);
	tep_print_event(f->event->tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	for (p = seq.buffer; p && (p = strstr(p, f->field->name)); p += nlen) {
		if ((p == seq.buffer || p[-1] == ' ') && p[nlen] == '=') {
			const char *v = p + nlen + 1;
			size_t vlen = strcspn(v, " ");
			if (vlen)
				out = vp_strpool_intern_n(pool, v, vlen);
			break;
		}
	}
	trace_seq_destroy(&seq);
	return out;
}

const char *vp_tpfield_label(const struct vp_tpfield *f, const void *raw, size_t size,
			     struct vp_strpool *pool)
{
	int64_t v;
	char buf[512];
	size_t len = 0;
	long long sv;
	const char *printed;

	if (vp_tpfield_value(f, raw, size, &v) < 0)
		return vp_strpool_intern(pool, "[invalid]");
	if ((printed = printed_value(f, raw, size, pool)))
		return printed;
	if (f->sym)
		for (const struct tep_print_flag_sym *s = f->sym->symbol.symbols; s; s = s->next)
			if (s->value && sym_value(s->value, &sv) == 0 && sv == v)
				return vp_strpool_intern(pool, s->str);
	if (f->flags) {
		const char *delim = f->flags->flags.delim ? f->flags->flags.delim : "|";
		uint64_t left = (uint64_t)v;
		buf[0] = '\0';
		for (const struct tep_print_flag_sym *s = f->flags->flags.flags; s && len < sizeof(buf);
		     s = s->next) {
			if (!s->value || sym_value(s->value, &sv) < 0 || sv == 0)
				continue;
			if ((left & (uint64_t)sv) == (uint64_t)sv) {
				len += (size_t)snprintf(buf + len, len < sizeof(buf) ? sizeof(buf) - len : 0,
							"%s%s", len ? delim : "", s->str);
				left &= ~(uint64_t)sv;
			}
		}
		if (len && len < sizeof(buf))
			return vp_strpool_intern(pool, buf);
		if (v == 0 && f->zero_name)
			return vp_strpool_intern(pool, f->zero_name);
	}
	snprintf(buf, sizeof(buf), "%" PRId64, v);
	return vp_strpool_intern(pool, buf);
}