/* JIT symbol maps (/tmp/perf-PID.map) read as perf 6.1's dso__load_perf_map
 * reads them: "START SIZE NAME" per line, hex numbers, the name verbatim
 * (spaces and all), no end or duplicate fixups afterwards. */
#include "symbols.h"

#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/lines.h"

#define MAX_LINE 65536

/* perf's hex2u64: strtoull base 16, how many bytes it took. */
static size_t hex2u64(const char *p, uint64_t *v)
{
	char *end;

	*v = strtoull(p, &end, 16);
	return (size_t)(end - p);
}

int vp_perfmap_load(const char *path, struct vp_symtab **out, struct vp_error *err)
{
	struct vp_lines r;
	struct vp_symtab *t;
	char *line;
	size_t len, bad = 0, lineno = 0, first_bad = 0;
	int trunc, nl, rc;

	*out = NULL;
	if (!path)
		return vp_errorf(err, -EINVAL, "no perf map file");
	rc = vp_lines_open(&r, path, MAX_LINE);
	if (rc < 0)
		return vp_errorf(err, rc, "'%s': %s", path, strerror(-rc));
	t = vp_symtab_new();
	if (!t) {
		vp_lines_close(&r);
		return vp_errorf(err, -ENOMEM, "'%s': out of memory", path);
	}
	vp_symtab_set_demangle(t, 0);	/* perf shows JIT names as written */

	while ((rc = vp_lines_next(&r, &line, &len, &trunc, &nl)) > 0) {
		uint64_t start, size;
		size_t n, pos;

		lineno++;
		if (trunc) {
			if (!bad++)
				first_bad = lineno;
			continue;
		}
		/* perf drops the line's last byte, taking it for the newline */
		if (!nl) {
			if (len == 0)
				continue;
			line[--len] = '\0';
		}
		if (len == 0)
			continue;
		n = hex2u64(line, &start);
		pos = n + 1;
		/* perf's own length checks: names shorter than 3 bytes are dropped */
		if (pos + 2 >= len)
			goto malformed;
		size_t m = hex2u64(line + pos, &size);
		if (n == 0 || m == 0)
			goto malformed;
		pos += m + 1;
		if (pos + 2 >= len)
			goto malformed;
		if (vp_symtab_add(t, start, size, line + pos, STB_GLOBAL, STT_FUNC) < 0) {
			rc = -ENOMEM;
			break;
		}
		continue;
malformed:
		if (!bad++)
			first_bad = lineno;
	}
	vp_lines_close(&r);
	if (rc == 0 && vp_symtab_seal(t) < 0)
		rc = -ENOMEM;
	if (rc < 0) {
		vp_symtab_free(t);
		return vp_errorf(err, rc, "'%s': %s", path,
				 rc == -ENOMEM ? "out of memory" : strerror(-rc));
	}
	if (bad)
		vp_warn_once(path, "'%s': %zu malformed line%s skipped (first: line %zu)", path, bad,
			     bad == 1 ? "" : "s", first_bad);
	*out = t;
	return 0;
}
