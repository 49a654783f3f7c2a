/* Every input a user has, told apart by content (not by file name): perf.data
 * (file or pipe format), vmprof CSV and XML tables, saved comparisons, the
 * text of `perf report --stdio`, and pprof profiles (gzipped or not). */
#include "formats.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Text formats are read whole; a table this big is not a table. */
#define TEXT_MAX (1ull << 30)

static const char *skip_bom_space(const char *s, const char *end)
{
	if (end - s >= 3 && !memcmp(s, "\xef\xbb\xbf", 3))
		s += 3;
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
		s++;
	return s;
}

static int starts(const char *s, const char *end, const char *lit)
{
	size_t n = strlen(lit);
	return (size_t)(end - s) >= n && !memcmp(s, lit, n);
}

enum vp_input_kind vp_input_detect(const char *data, size_t len)
{
	const char *end = data + len, *s;

	if (len >= 8 && !memcmp(data, "PERFILE2", 8))
		return VP_IN_PERFDATA;
	if (len >= 2 && data[0] == '\x1f' && data[1] == '\x8b')
		return vp_pprof_detect(data, len) ? VP_IN_PPROF : VP_IN_UNKNOWN;
	s = skip_bom_space(data, end);
	if (starts(s, end, "<?xml") || starts(s, end, "<")) {
		const char *lim = s + (end - s > 4096 ? 4096 : end - s);
		for (const char *p = s; p < lim; p++) {
			if (starts(p, lim, "<vmprof-comparison"))
				return VP_IN_CMP_XML;
			if (starts(p, lim, "<vmprof-profile"))
				return VP_IN_XML;
		}
		return VP_IN_UNKNOWN;
	}
	if (starts(s, end, VP_CSV_CMP_HEADER))
		return VP_IN_CMP_CSV;
	if (starts(s, end, VP_CSV_PROFILE_HEADER))
		return VP_IN_CSV;
	/* perf report --stdio: comment header lines, an "of event" line */
	if (s < end && *s == '#') {
		const char *lim = data + (len > 65536 ? 65536 : len);
		for (const char *p = data; p < lim; p++)
			if (starts(p, lim, "# Samples: ") || starts(p, lim, "# Overhead"))
				return VP_IN_PERF_TEXT;
	}
	/* binary, so last: text never gets here */
	return vp_pprof_detect(data, len) ? VP_IN_PPROF : VP_IN_UNKNOWN;
}

/* The whole file in memory (NUL-terminated), or an error naming it. */
static int slurp(const char *path, char **data, size_t *len, struct vp_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	size_t cap, n = 0;
	char *buf;

	if (fd < 0)
		return vp_errorf(err, -errno, "'%s': cannot open: %s", path, strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return vp_errorf(err, -EISDIR, "'%s': is a directory", path);
	}
	cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 1 : 65536;
	if (cap > TEXT_MAX)
		cap = TEXT_MAX;
	buf = malloc(cap);
	for (;;) {
		if (!buf) {
			close(fd);
			return vp_errorf(err, -ENOMEM, "out of memory");
		}
		if (n + 1 >= cap) {
			if (cap >= TEXT_MAX) {
				free(buf);
				close(fd);
				return vp_errorf(err, -EFBIG, "'%s': larger than 1 GiB: not a table", path);
			}
			char *nb = realloc(buf, cap * 2);
			if (!nb)
				free(buf);
			buf = nb;
			cap *= 2;
			continue;
		}
		ssize_t r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(buf);
			close(fd);
			return vp_errorf(err, -e, "'%s': cannot read: %s", path, strerror(e));
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
}

/* Enough of the start of a file to tell what it is; pipes are not rewound,
 * so only regular files and "-"-less paths are sniffed. */
static int sniff(const char *path, char *buf, size_t cap, size_t *len, struct vp_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	ssize_t r;

	if (fd < 0)
		return vp_errorf(err, -errno, "'%s': cannot open: %s", path, strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return vp_errorf(err, -EISDIR, "'%s': is a directory", path);
	}
	do
		r = read(fd, buf, cap);
	while (r < 0 && errno == EINTR);
	close(fd);
	if (r < 0)
		return vp_errorf(err, -errno, "'%s': cannot read: %s", path, strerror(errno));
	*len = (size_t)r;
	return 0;
}

static const char *kind_hint = "unknown format: bad magic for a perf.data file (PERFILE2), and "
			       "not a vmprof CSV or XML table, the text of `perf report --stdio` or "
			       "a pprof profile";

int vp_load_profile(const char *path, const struct vp_load_opts *lo, struct vp_profile **out,
		    struct vp_error *err)
{
	char head[8192];
	size_t hlen = 0, len;
	char *data;
	int r;
	enum vp_input_kind k;

	*out = NULL;
	if (!strcmp(path, "-"))
		return vp_profile_from_perfdata(path, lo, out, err);
	if ((r = sniff(path, head, sizeof(head), &hlen, err)) < 0)
		return r;
	k = vp_input_detect(head, hlen);
	if (k == VP_IN_PERFDATA)
		return vp_profile_from_perfdata(path, lo, out, err);
	if (k == VP_IN_UNKNOWN)
		return vp_errorf(err, -EINVAL, "'%s': %s", path, hlen ? kind_hint : "empty file");
	if (k == VP_IN_CMP_XML || k == VP_IN_CMP_CSV)
		return vp_errorf(err, -EINVAL, "'%s': a saved comparison, not one side's table (give "
				 "it to 'vmprof chart')", path);
	/* a table holds sums: no sample has a thread or a time left to test (a
	 * pprof profile's samples are summed per stack and carry no time) */
	if (lo && vp_filter_active(&lo->filter))
		return vp_errorf(err, -EINVAL, "'%s': %s has no samples to filter: --pid, --tid, "
				 "--comm and --time need a perf.data file", path,
				 k == VP_IN_CSV ? "a CSV table" : k == VP_IN_XML ? "an XML table"
				 : k == VP_IN_PPROF ? "a pprof profile" : "perf report's text");
	if ((r = slurp(path, &data, &len, err)) < 0)
		return r;
	if (k == VP_IN_CSV)
		r = vp_profile_read_csv(path, data, len, out, err);
	else if (k == VP_IN_XML)
		r = vp_profile_read_xml(path, data, len, out, err);
	else if (k == VP_IN_PPROF)
		r = vp_profile_read_pprof(path, data, len, out, err);
	else
		r = vp_profile_read_perf_text(path, data, len, out, err);
	free(data);
	/* lo->events is applied by the caller (compare's own event filter) */
	if (r >= 0 && lo && lo->label)
		(*out)->meta.label = vp_profile_intern(*out, lo->label);
	return r;
}

int vp_load_comparison(const char *path, struct vp_comparison **out, struct vp_error *err)
{
	char *data;
	size_t len;
	int r;

	*out = NULL;
	if ((r = slurp(path, &data, &len, err)) < 0)
		return r;
	switch (vp_input_detect(data, len)) {
	case VP_IN_CMP_XML:
		r = vp_cmp_read_xml(path, data, len, out, err);
		break;
	case VP_IN_CMP_CSV:
		r = vp_cmp_read_csv(path, data, len, out, err);
		break;
	default:
		r = vp_errorf(err, -EINVAL, "'%s': %s", path,
			      len ? "not a saved comparison (vmprof compare's XML or CSV)" : "empty file");
	}
	free(data);
	return r;
}
