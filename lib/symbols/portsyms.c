/* Portable symbols (see portsyms.h) parsed back into sealed symbol tables;
 * lib/record/portable.c collects and writes them. */
#include "portsyms.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/grow.h"

struct vp_portsyms {
	struct vp_portsyms_dso *dsos;
	size_t n;
};

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

/* One line as a NUL-terminated copy in buf; NULL at the end of the data. */
static const char *next_line(const char **p, const char *end, char *buf, size_t bufsize)
{
	const char *nl;
	size_t n;

	if (*p >= end)
		return NULL;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	n = nl ? (size_t)(nl - *p) : (size_t)(end - *p);
	if (n >= bufsize || memchr(*p, '\0', n))
		n = 0, buf[0] = '\0', *p = end;	/* overlong or binary: stop here */
	else {
		memcpy(buf, *p, n);
		buf[n] = '\0';
		*p += n + (nl ? 1 : 0);
	}
	return buf;
}

static int parse_dso(struct vp_portsyms_dso *d, const char *line)
{
	char bid[64];
	int off = 0;

	memset(d, 0, sizeof(*d));
	if (sscanf(line, "dso %c %63s %n", &d->kind, bid, &off) != 2 || !off || !line[off])
		return -1;
	if (d->kind != VP_PORTSYMS_USER && d->kind != VP_PORTSYMS_KERNEL &&
	    d->kind != VP_PORTSYMS_GUEST && d->kind != VP_PORTSYMS_JIT)
		return -1;
	if (strcmp(bid, "-")) {
		size_t len = strlen(bid);
		if (len % 2 || len > 40)
			return -1;
		for (size_t i = 0; i < len / 2; i++) {
			int hi = hexval(bid[2 * i]), lo = hexval(bid[2 * i + 1]);
			if (hi < 0 || lo < 0)
				return -1;
			d->build_id[i] = (uint8_t)(hi << 4 | lo);
		}
		d->build_id_size = (uint8_t)(len / 2);
	}
	if (!(d->name = strdup(line + off)) || !(d->tab = vp_symtab_new())) {
		free((char *)d->name);
		d->name = NULL;
		return -ENOMEM;
	}
	/* perf leaves kernel and JIT map names verbatim and demangles user ones. */
	vp_symtab_set_demangle(d->tab, d->kind == VP_PORTSYMS_USER);
	return 0;
}

static int parse_sym(struct vp_portsyms_dso *d, const char *line)
{
	unsigned long long start, end;
	char flag;
	int off = 0;

	if (sscanf(line, "%llx %llx %c %n", &start, &end, &flag, &off) != 3 || !off || !line[off] ||
	    end < start || (flag != '-' && flag != 'p'))
		return -1;
	if (flag == 'p')
		return vp_symtab_add_plt(d->tab, start, end - start, line + off) < 0 ? -ENOMEM : 0;
	/* STB_GLOBAL, STT_FUNC: the symbols were chosen already, no fixup follows. */
	return vp_symtab_add(d->tab, start, end - start, line + off, 1, 2) < 0 ? -ENOMEM : 0;
}

int vp_portsyms_parse(const char *path, const void *data, size_t size,
		      struct vp_portsyms **out, struct vp_error *err)
{
	struct vp_portsyms *p = calloc(1, sizeof(*p));
	size_t cap = 0, nsyms = 0;
	/* The writer ends the text with a NUL: the section is a C string. */
	const char *cur = data, *end = cur + strnlen(data, size);
	char *buf = malloc(VP_PORTSYMS_NAME_MAX + 128);
	const char *line;
	int r = 0, bad = 0;

	*out = NULL;
	if (!p || !buf) {
		free(p);
		free(buf);
		return vp_errorf(err, -ENOMEM, "out of memory");
	}
	line = next_line(&cur, end, buf, VP_PORTSYMS_NAME_MAX + 128);
	if (!line || strcmp(line, VP_PORTSYMS_MAGIC))
		bad = 1;
	while (!bad && (line = next_line(&cur, end, buf, VP_PORTSYMS_NAME_MAX + 128))) {
		if (!line[0]) {	/* the writer never leaves an empty line: damage */
			bad = 1;
			break;
		}
		if (!strncmp(line, "dso ", 4)) {
			if (p->n == VP_PORTSYMS_MAX_OBJECTS) {
				vp_warn("'%s': portable symbols for more than %d objects; the rest "
					"are ignored", path, VP_PORTSYMS_MAX_OBJECTS);
				break;
			}
			if (vp_grow((void **)&p->dsos, &cap, p->n, sizeof(*p->dsos), 16) < 0) {
				r = -ENOMEM;
				break;
			}
			struct vp_portsyms_dso *v = p->dsos;
			if ((r = parse_dso(&v[p->n], line)) < 0) {
				bad = r == -1;
				r = r == -1 ? 0 : r;
				break;
			}
			p->n++;
		} else if (p->n) {
			if (++nsyms > VP_PORTSYMS_MAX_SYMBOLS) {
				vp_warn("'%s': more than %u portable symbols; the rest are ignored",
					path, VP_PORTSYMS_MAX_SYMBOLS);
				break;
			}
			if ((r = parse_sym(&p->dsos[p->n - 1], line)) < 0) {
				bad = r == -1;
				r = r == -1 ? 0 : r;
				break;
			}
		} else {
			bad = 1;
		}
	}
	free(buf);
	for (size_t i = 0; i < p->n && r == 0; i++)
		r = vp_symtab_seal(p->dsos[i].tab);
	if (r < 0) {
		vp_portsyms_free(p);
		return vp_errorf(err, r, "out of memory");
	}
	if (bad)
		vp_warn("'%s': the portable symbol section is malformed; symbols read up to "
			"the damage", path);
	*out = p;
	return 0;
}

void vp_portsyms_free(struct vp_portsyms *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++) {
		free((char *)p->dsos[i].name);
		vp_symtab_free(p->dsos[i].tab);
	}
	free(p->dsos);
	free(p);
}

size_t vp_portsyms_count(const struct vp_portsyms *p)
{
	return p ? p->n : 0;
}

const struct vp_portsyms_dso *vp_portsyms_at(const struct vp_portsyms *p, size_t i)
{
	return p && i < p->n ? &p->dsos[i] : NULL;
}

const struct vp_portsyms_dso *vp_portsyms_find(const struct vp_portsyms *p, char kind,
					       const char *name)
{
	for (size_t i = 0; p && i < p->n; i++)
		if (p->dsos[i].kind == kind && !strcmp(p->dsos[i].name, name))
			return &p->dsos[i];
	return NULL;
}
