/* Where perf 6.1's dso__load looks for an object's symbols (dso.c,
 * symbol.c): the candidate files in perf's order (.gnu_debuglink targets,
 * the build-id cache, the debug directory by path and by build-id, the
 * object itself), each opened and checked against the build-id. */
#include "elf_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_regular_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* perf's path__join: "a" + "/" + "b", or just "b" when a is empty. */
static int join(char *bf, size_t size, const char *a, const char *b)
{
	int n = snprintf(bf, size, "%s%s%s", a, a[0] ? "/" : "", b);

	return n < 0 || (size_t)n >= size ? -1 : n;
}

/* perf's elf_section_by_name: the first section of that name, in file order. */
Elf_Scn *vp_elf_section_by_name(Elf *elf, const GElf_Ehdr *eh, GElf_Shdr *shp, const char *name,
				size_t *idx)
{
	Elf_Scn *sec = NULL;
	size_t cnt = 1;

	if (!elf_rawdata(elf_getscn(elf, eh->e_shstrndx), NULL))
		return NULL;
	while ((sec = elf_nextscn(elf, sec)) != NULL) {
		const char *str;

		if (!gelf_getshdr(sec, shp))
			memset(shp, 0, sizeof(*shp));
		str = elf_strptr(elf, eh->e_shstrndx, shp->sh_name);
		if (str && !strcmp(name, str)) {
			if (idx)
				*idx = cnt;
			return sec;
		}
		++cnt;
	}
	return NULL;
}

#define NOTE_ALIGN(n) (((n) + 3) & ~(size_t)3)

/* perf's elf_read_build_id: the GNU build-id note of .note.gnu.build-id,
 * .notes or .note. Returns the size, or -1. */
int vp_elf_note_build_id(Elf *elf, uint8_t *bf, size_t size)
{
	static const char *const names[] = { ".note.gnu.build-id", ".notes", ".note" };
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *sec = NULL;
	Elf_Data *data;
	size_t off = 0;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return -1;
	for (size_t i = 0; i < 3 && !sec; i++)
		sec = vp_elf_section_by_name(elf, &eh, &sh, names[i], NULL);
	if (!sec || !(data = elf_getdata(sec, NULL)) || !data->d_buf)
		return -1;
	while (data->d_size - off >= 12) {
		const uint8_t *p = (const uint8_t *)data->d_buf + off;
		uint32_t nh[3];
		size_t namesz, descsz;

		memcpy(nh, p, sizeof(nh));
		namesz = NOTE_ALIGN((size_t)nh[0]);
		descsz = NOTE_ALIGN((size_t)nh[1]);
		off += 12;
		if (namesz > data->d_size - off)
			return -1;
		const uint8_t *name = (const uint8_t *)data->d_buf + off;
		off += namesz;
		if (descsz > data->d_size - off)
			return -1;
		if (nh[2] == NT_GNU_BUILD_ID && nh[0] == 4 && !memcmp(name, "GNU", 4)) {
			size_t sz = size < descsz ? size : descsz;
			memcpy(bf, (const uint8_t *)data->d_buf + off, sz);
			memset(bf + sz, 0, size - sz);
			return (int)sz;
		}
		off += descsz;
	}
	return -1;
}

/* perf's dso__build_id_equal: a 20-byte id padded with zeros matches a shorter one. */
static int build_id_equal(const struct elf_target *d, const uint8_t *bid, size_t size)
{
	if (d->bid_size > size && d->bid_size == BUILD_ID_SIZE) {
		if (memcmp(d->bid, bid, size))
			return 0;
		for (size_t i = size; i < d->bid_size; i++)
			if (d->bid[i])
				return 0;
		return 1;
	}
	return d->bid_size == size && !memcmp(d->bid, bid, size);
}

int vp_elf_read_build_id(const char *path, uint8_t id[20], size_t *size)
{
	int fd, n;
	Elf *elf;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	n = elf ? vp_elf_note_build_id(elf, id, BUILD_ID_SIZE) : -1;
	elf_end(elf);
	close(fd);
	if (n <= 0)
		return -ENOENT;
	*size = (size_t)n;
	return 0;
}

void vp_symsrc_destroy(struct symsrc *ss)
{
	free(ss->path);
	elf_end(ss->elf);
	if (ss->fd >= 0)
		close(ss->fd);
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
}

/* perf's symsrc__init: open, reject a build-id mismatch, find the tables. */
static int vp_symsrc_init(struct symsrc *ss, struct elf_target *d, const char *path)
{
	GElf_Shdr opd;

	memset(ss, 0, sizeof(*ss));
	ss->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ss->fd < 0)
		return -1;
	ss->elf = elf_begin(ss->fd, ELF_C_READ_MMAP, NULL);
	if (!ss->elf || elf_kind(ss->elf) != ELF_K_ELF || !gelf_getehdr(ss->elf, &ss->ehdr))
		goto fail;
	if (d->has_bid) {
		uint8_t bid[BUILD_ID_SIZE];
		int n = vp_elf_note_build_id(ss->elf, bid, sizeof(bid));
		if (n <= 0 || !build_id_equal(d, bid, (size_t)n)) {
			d->stale = 1;
			goto fail;
		}
	}
	ss->symtab = vp_elf_section_by_name(ss->elf, &ss->ehdr, &ss->symshdr, ".symtab", NULL);
	if (ss->symtab && ss->symshdr.sh_type != SHT_SYMTAB)
		ss->symtab = NULL;
	ss->dynsym = vp_elf_section_by_name(ss->elf, &ss->ehdr, &ss->dynshdr, ".dynsym", &ss->dynsym_idx);
	if (ss->dynsym && ss->dynshdr.sh_type != SHT_DYNSYM)
		ss->dynsym = NULL;
	ss->has_opd = vp_elf_section_by_name(ss->elf, &ss->ehdr, &opd, ".opd", NULL) &&
		      opd.sh_type == SHT_PROGBITS;
	ss->path = strdup(path);
	if (!ss->path)
		goto fail;
	return 0;
fail:
	elf_end(ss->elf);
	close(ss->fd);
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
	return -1;
}

enum cand {
	C_DEBUGLINK,
	C_BUILD_ID_CACHE,
	C_BUILD_ID_CACHE_DEBUGINFO,
	C_FEDORA,
	C_UBUNTU,
	C_BUILDID_DEBUGINFO,
	C_SYSTEM_PATH,
	C_OPENEMBEDDED,
	C_MIXEDUP_UBUNTU,
	C_NR
};

/* perf's filename__read_debuglink: the file name at the start of .gnu_debuglink. */
static int read_debuglink(const char *path, char *out, size_t size)
{
	int fd, ret = -1;
	Elf *elf;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *sec;
	Elf_Data *data;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &eh) &&
	    (sec = vp_elf_section_by_name(elf, &eh, &sh, ".gnu_debuglink", NULL)) &&
	    (data = elf_getdata(sec, NULL)) && data->d_buf && data->d_size) {
		size_t n = strnlen(data->d_buf, data->d_size);
		if (n > 0 && n < size) {
			memcpy(out, data->d_buf, n);
			out[n] = '\0';
			ret = 0;
		}
	}
	elf_end(elf);
	close(fd);
	return ret;
}

static void build_id_hex(const struct elf_target *d, char *hex)
{
	for (size_t i = 0; i < d->bid_size; i++)
		sprintf(hex + 2 * i, "%02x", d->bid[i]);
	hex[2 * d->bid_size] = '\0';
}

/* perf's __dso__build_id_filename: the cache entry, "elf" (or "debug") inside it. */
static int build_id_cache_path(const struct elf_target *d, int is_debug, char *bf, size_t size)
{
	char hex[2 * BUILD_ID_SIZE + 1], link[PATH_MAX];
	const char *base;
	int n;

	if (!d->has_bid)
		return -1;
	build_id_hex(d, hex);
	n = snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", d->buildid_dir, hex, hex + 2);
	if (n < 0 || (size_t)n >= sizeof(link))
		return -1;
	if (is_regular_file(link))	/* old-style cache: the link is the file */
		n = snprintf(bf, size, "%s", link);
	else {
		base = !strncmp(d->path, "[vdso", 5) ? "vdso" : is_debug ? "debug" : "elf";
		n = snprintf(bf, size, "%s/%s", link, base);
	}
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* perf's dso__read_binary_type_filename for a user-space dso. For the
 * debuglink type it walks its own list of places and may fill several
 * names: sub counts them (returns 1 when there may be more). */
static int candidate_path(struct elf_target *d, enum cand c, char *bf, size_t size)
{
	char tmp[PATH_MAX];
	const char *last_slash;
	int len;

	switch (c) {
	case C_DEBUGLINK: {
		char dir[PATH_MAX], link[PATH_MAX];

		len = join(tmp, sizeof(tmp), d->symfs, d->path);
		if (len < 0 || !is_regular_file(tmp))
			return -1;
		last_slash = strrchr(tmp, '/');
		len = last_slash ? (int)(last_slash - tmp) : 0;
		memcpy(dir, tmp, (size_t)len);
		dir[len] = '\0';
		if (read_debuglink(tmp, link, sizeof(link)))
			return -1;
		/* perf tries: the bare name (from the current directory), the
		 * object's directory, its .debug/, and the debug dir mirror. */
		const char *fmt[4] = { "%.0s%s", "%s/%s", "%s/.debug/%s", NULL };
		for (int i = 0; i < 4; i++) {
			int n;
			if (fmt[i])
				n = snprintf(bf, size, fmt[i], dir, link);
			else
				n = snprintf(bf, size, "%s%s/%s", d->debug_dir, dir, link);
			if (n >= 0 && (size_t)n < size && is_regular_file(bf))
				return 0;
		}
		return -1;
	}
	case C_BUILD_ID_CACHE:
		return build_id_cache_path(d, 0, bf, size);
	case C_BUILD_ID_CACHE_DEBUGINFO:
		return build_id_cache_path(d, 1, bf, size);
	case C_FEDORA:
		len = join(bf, size, d->symfs, d->debug_dir);
		if (len < 0 || snprintf(bf + len, size - len, "%s.debug", d->path) >= (int)(size - len))
			return -1;
		return 0;
	case C_UBUNTU:
		len = join(bf, size, d->symfs, d->debug_dir);
		if (len < 0 || snprintf(bf + len, size - len, "%s", d->path) >= (int)(size - len))
			return -1;
		return 0;
	case C_MIXEDUP_UBUNTU:
		/* Ubuntu may put /usr/lib/x's debug file in /usr/lib/debug/lib/x */
		if (strncmp(d->path, "/usr/lib/", 9))
			return -1;
		len = join(bf, size, d->symfs, d->debug_dir);
		if (len < 0 || snprintf(bf + len, size - len, "%s", d->path + 4) >= (int)(size - len))
			return -1;
		return 0;
	case C_OPENEMBEDDED:
		/* <dir>/.debug/<name> */
		last_slash = strrchr(d->path, '/');
		if (!last_slash)
			last_slash = d->path;
		len = join(bf, size, d->symfs, "");
		if (len < 0 || snprintf(bf + len, size - len, "%.*s.debug%s",
					(int)(last_slash - d->path + 1), d->path,
					last_slash) >= (int)(size - len))
			return -1;
		return 0;
	case C_BUILDID_DEBUGINFO: {
		char hex[2 * BUILD_ID_SIZE + 1];

		if (!d->has_bid)
			return -1;
		build_id_hex(d, hex);
		len = join(bf, size, d->symfs, d->debug_dir);
		if (len < 0 || snprintf(bf + len, size - len, "/.build-id/%.2s/%s.debug", hex,
					hex + 2) >= (int)(size - len))
			return -1;
		return 0;
	}
	case C_SYSTEM_PATH:
		return join(bf, size, d->symfs, d->path) < 0 ? -1 : 0;
	default:
		return -1;
	}
}

void vp_elf_target_init(struct elf_target *d, const char *path, const uint8_t *build_id,
			size_t build_id_size, const struct vp_elf_opts *opts)
{
	char name[PATH_MAX];
	const char *env;

	memset(d, 0, sizeof(*d));
	elf_version(EV_CURRENT);
	d->path = path;
	d->symfs = opts && opts->symfs && strcmp(opts->symfs, "/") ? opts->symfs : "";
	d->debug_dir = opts && opts->debug_dir ? opts->debug_dir : "/usr/lib/debug";
	if (opts && opts->buildid_dir)
		snprintf(d->buildid_dir, sizeof(d->buildid_dir), "%s", opts->buildid_dir);
	else if (d->symfs[0])	/* perf --symfs moves the cache to SYMFS/.debug */
		snprintf(d->buildid_dir, sizeof(d->buildid_dir), "%s/.debug", d->symfs);
	else if ((env = getenv("HOME")))
		snprintf(d->buildid_dir, sizeof(d->buildid_dir), "%s/.debug", env);
	else
		snprintf(d->buildid_dir, sizeof(d->buildid_dir), ".debug");
	if (build_id && build_id_size) {
		d->bid_size = build_id_size < BUILD_ID_SIZE ? build_id_size : BUILD_ID_SIZE;
		memcpy(d->bid, build_id, d->bid_size);
		d->has_bid = 1;
	} else if (is_regular_file(path) && join(name, sizeof(name), d->symfs, path) >= 0 &&
		   !vp_elf_read_build_id(name, d->bid, &d->bid_size)) {
		/* perf reads the object's own id (checking the unprefixed path) */
		d->has_bid = 1;
	}
}

int vp_elf_find(struct elf_target *d, struct symsrc ss[2], struct symsrc **symsp,
		struct symsrc **runp)
{
	struct symsrc *syms = NULL, *run = NULL;
	char name[PATH_MAX];
	int pos = 0;

	/* perf's loop over binary_type_symtab: the first candidate with a .symtab
	 * gives symbols, the first with a .dynsym gives program headers and PLT. */
	for (int c = 0; c < C_NR && !(syms && run); c++) {
		struct symsrc *s = &ss[pos];
		int next_slot = 0;

		if (candidate_path(d, (enum cand)c, name, sizeof(name)) < 0 || !is_regular_file(name))
			continue;
		if (vp_symsrc_init(s, d, name) < 0)
			continue;
		if (!syms && s->symtab) {
			syms = s;
			next_slot = 1;
		}
		if (!run && (s->dynsym || s->has_opd)) {
			run = s;
			next_slot = 1;
		}
		if (next_slot)
			pos++;
		else
			vp_symsrc_destroy(s);
	}
	*symsp = syms;
	*runp = run;
	return pos;
}
