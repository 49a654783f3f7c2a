/* ELF symbols as perf 6.1's dso__load finds and reads them (symbol.c,
 * symbol-elf.c, dso.c): the candidate files in perf's order, .symtab and
 * .dynsym passes with perf's filters and file-offset adjustment, the PLT
 * entries perf synthesizes. Every count and offset from the file is checked. */
#include "symbols.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BUILD_ID_SIZE 20

struct vp_elf {
	struct vp_symtab *tab;
	uint8_t build_id[BUILD_ID_SIZE];
	size_t build_id_size;
	int is_kmod;
	char *symsrc;		/* the file the symbols came from */
	char *runtime;		/* the file program headers and the PLT came from */
};

/* One candidate file, perf's struct symsrc. */
struct symsrc {
	char *path;
	int fd;
	Elf *elf;
	GElf_Ehdr ehdr;
	Elf_Scn *symtab, *dynsym;
	GElf_Shdr symshdr, dynshdr;
	size_t dynsym_idx;
	int has_opd;
};

/* What the object we load is: its name, build-id and where to look. */
struct dso {
	const char *path;
	uint8_t bid[BUILD_ID_SIZE];
	size_t bid_size;
	int has_bid;
	const char *symfs;
	const char *debug_dir;
	char buildid_dir[PATH_MAX];
	int stale;		/* a candidate was rejected for its build-id */
};

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

/* ---- sections and build-ids ---- */

/* perf's elf_section_by_name: the first section of that name, in file order. */
static Elf_Scn *section_by_name(Elf *elf, const GElf_Ehdr *eh, GElf_Shdr *shp, const char *name,
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
static int elf_build_id(Elf *elf, uint8_t *bf, size_t size)
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
		sec = section_by_name(elf, &eh, &sh, names[i], NULL);
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
static int build_id_equal(const struct dso *d, const uint8_t *bid, size_t size)
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
	n = elf ? elf_build_id(elf, id, BUILD_ID_SIZE) : -1;
	elf_end(elf);
	close(fd);
	if (n <= 0)
		return -ENOENT;
	*size = (size_t)n;
	return 0;
}

/* ---- candidates ---- */

static void symsrc_destroy(struct symsrc *ss)
{
	free(ss->path);
	elf_end(ss->elf);
	if (ss->fd >= 0)
		close(ss->fd);
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
}

/* perf's symsrc__init: open, reject a build-id mismatch, find the tables. */
static int symsrc_init(struct symsrc *ss, struct dso *d, const char *path)
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
		int n = elf_build_id(ss->elf, bid, sizeof(bid));
		if (n <= 0 || !build_id_equal(d, bid, (size_t)n)) {
			d->stale = 1;
			goto fail;
		}
	}
	ss->symtab = section_by_name(ss->elf, &ss->ehdr, &ss->symshdr, ".symtab", NULL);
	if (ss->symtab && ss->symshdr.sh_type != SHT_SYMTAB)
		ss->symtab = NULL;
	ss->dynsym = section_by_name(ss->elf, &ss->ehdr, &ss->dynshdr, ".dynsym", &ss->dynsym_idx);
	if (ss->dynsym && ss->dynshdr.sh_type != SHT_DYNSYM)
		ss->dynsym = NULL;
	ss->has_opd = section_by_name(ss->elf, &ss->ehdr, &opd, ".opd", NULL) &&
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
	    (sec = section_by_name(elf, &eh, &sh, ".gnu_debuglink", NULL)) &&
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

static void build_id_hex(const struct dso *d, char *hex)
{
	for (size_t i = 0; i < d->bid_size; i++)
		sprintf(hex + 2 * i, "%02x", d->bid[i]);
	hex[2 * d->bid_size] = '\0';
}

/* perf's __dso__build_id_filename: the cache entry, "elf" (or "debug") inside it. */
static int build_id_cache_path(const struct dso *d, int is_debug, char *bf, size_t size)
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
static int candidate_path(struct dso *d, enum cand c, char *bf, size_t size)
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

/* ---- loading ---- */

static const char *data_str(const Elf_Data *d, size_t off)
{
	if (!d || !d->d_buf || off >= d->d_size)
		return NULL;
	if (!memchr((const char *)d->d_buf + off, '\0', d->d_size - off))
		return NULL;
	return (const char *)d->d_buf + off;
}

/* perf's elf_read_program_header: the PT_LOAD holding vaddr. */
static int program_header(Elf *elf, uint64_t vaddr, GElf_Phdr *ph)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint64_t sz;
		if (!gelf_getphdr(elf, (int)i, ph))
			return -1;
		if (ph->p_type != PT_LOAD)
			continue;
		sz = ph->p_memsz > ph->p_filesz ? ph->p_memsz : ph->p_filesz;
		if (!sz)
			continue;
		if (vaddr >= ph->p_vaddr && vaddr - ph->p_vaddr < sz)
			return 0;
	}
	return -1;
}

static const char *section_name(const GElf_Shdr *sh, const Elf_Data *secstrs)
{
	const char *s = data_str(secstrs, sh->sh_name);

	return s ? s : "";
}

/* One pass of perf's dso__load_sym_internal over .symtab (dynsym = 0) or
 * .dynsym. Returns the number of symbols added, or -1 when perf's pass would
 * fail (symbols added before the failure stay, unfixed, as in perf). */
static int load_pass(struct vp_symtab *tab, struct symsrc *syms, struct symsrc *run, int dynsym)
{
	Elf *elf = syms->elf;
	Elf_Scn *sec = dynsym ? syms->dynsym : syms->symtab;
	GElf_Shdr shdr = dynsym ? syms->dynshdr : syms->symshdr;
	Elf_Data *symdata, *symstrs, *secstrs_run, *secstrs_sym;
	size_t nr, fsize;
	int is_arm = syms->ehdr.e_machine == EM_ARM || syms->ehdr.e_machine == EM_AARCH64;
	int nr_added = 0;

	if (!(symdata = elf_getdata(sec, NULL)) ||
	    !(symstrs = elf_getdata(elf_getscn(elf, shdr.sh_link), NULL)) ||
	    !(secstrs_run = elf_getdata(elf_getscn(run->elf, run->ehdr.e_shstrndx), NULL)) ||
	    !(secstrs_sym = elf_getdata(elf_getscn(elf, syms->ehdr.e_shstrndx), NULL)))
		return -1;
	/* perf trusts sh_size / sh_entsize; the data actually present bounds us */
	fsize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	if (!shdr.sh_entsize || !fsize)
		return -1;
	nr = shdr.sh_size / shdr.sh_entsize;
	if (nr > symdata->d_size / fsize)
		nr = symdata->d_size / fsize;

	for (size_t idx = 0; idx < nr; idx++) {
		GElf_Sym sym;
		GElf_Shdr sh;
		const char *name;
		Elf_Data *secstrs = secstrs_sym;
		unsigned type, vis;
		int is_label;

		if (!gelf_getsym(symdata, (int)idx, &sym))
			break;
		type = GELF_ST_TYPE(sym.st_info);
		vis = GELF_ST_VISIBILITY(sym.st_other);
		is_label = type == STT_NOTYPE && sym.st_name && sym.st_shndx != SHN_UNDEF &&
			   sym.st_shndx != SHN_ABS && vis != STV_HIDDEN && vis != STV_INTERNAL;
		/* elf_sym__filter: functions (and GNU ifuncs) and objects, named and defined */
		if (!is_label && !((type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT) &&
				   sym.st_name && sym.st_shndx != SHN_UNDEF))
			continue;
		name = data_str(symstrs, sym.st_name);
		if (!name)
			continue;
		/* ARM mapping symbols ($a, $d, $t, $x) name no function */
		if (is_arm && name[0] == '$' && name[1] && strchr("adtx", name[1]) &&
		    (name[2] == '\0' || name[2] == '.'))
			continue;
		if (sym.st_shndx == SHN_ABS)
			continue;
		Elf_Scn *s = elf_getscn(elf, sym.st_shndx);
		if (!s || !gelf_getshdr(s, &sh))
			return -1;
		/* not loaded at run time (.gnu.warning.*) */
		if (!(sh.sh_flags & SHF_ALLOC))
			continue;
		/* a debug file's NOBITS section has no offset: take the object's header */
		if (sh.sh_type == SHT_NOBITS) {
			s = elf_getscn(run->elf, sym.st_shndx);
			if (!s || !gelf_getshdr(s, &sh))
				return -1;
			secstrs = secstrs_run;
		}
		if (is_label) {
			const char *sn = section_name(&sh, secstrs);
			if (!strstr(sn, "text") && !strstr(sn, "data"))
				continue;
		}
		if (syms->ehdr.e_machine == EM_ARM && type == STT_FUNC && (sym.st_value & 1))
			--sym.st_value;
		/* perf keys user-space symbols by file offset */
		GElf_Phdr ph;
		if (program_header(run->elf, sym.st_value, &ph))
			sym.st_value -= sh.sh_addr - sh.sh_offset;
		else
			sym.st_value -= ph.p_vaddr - ph.p_offset;
		if (vp_symtab_add(tab, sym.st_value, sym.st_size, name, GELF_ST_BIND(sym.st_info),
				  (uint8_t)type) < 0)
			return -ENOMEM;
		nr_added++;
	}
	if (nr_added > 0)
		vp_symtab_fixup(tab, 0);
	return nr_added;
}

/* perf's dso__synthesize_plt_symbols: .rela.plt (or .rel.plt) entries named
 * after their .dynsym symbol, laid out from the start of .plt by file offset. */
static int synthesize_plt(struct vp_symtab *tab, struct symsrc *ss)
{
	GElf_Shdr rel_sh, plt_sh;
	Elf_Scn *rel;
	Elf_Data *reldata, *syms, *symstrs;
	uint64_t off, header, entry;
	size_t nr, fsize;
	int is_rela, n = 0;

	if (!ss->dynsym)
		return 0;
	rel = section_by_name(ss->elf, &ss->ehdr, &rel_sh, ".rela.plt", NULL);
	if (!rel && !(rel = section_by_name(ss->elf, &ss->ehdr, &rel_sh, ".rel.plt", NULL)))
		return 0;
	if (rel_sh.sh_link != ss->dynsym_idx)
		return 0;
	if (!section_by_name(ss->elf, &ss->ehdr, &plt_sh, ".plt", NULL))
		return 0;
	if (!(reldata = elf_getdata(rel, NULL)) || !(syms = elf_getdata(ss->dynsym, NULL)) ||
	    !(symstrs = elf_getdata(elf_getscn(ss->elf, ss->dynshdr.sh_link), NULL)) ||
	    !symstrs->d_size)
		return 0;
	is_rela = rel_sh.sh_type == SHT_RELA;
	if (!is_rela && rel_sh.sh_type != SHT_REL)
		return 0;
	if (!rel_sh.sh_entsize)
		return 0;
	nr = (uint32_t)(rel_sh.sh_size / rel_sh.sh_entsize);
	fsize = gelf_fsize(ss->elf, is_rela ? ELF_T_RELA : ELF_T_REL, 1, EV_CURRENT);
	if (!fsize)
		return 0;
	if (nr > reldata->d_size / fsize)
		nr = reldata->d_size / fsize;
	switch (ss->ehdr.e_machine) {
	case EM_ARM:
		header = 20, entry = 12;
		break;
	case EM_AARCH64:
		header = 32, entry = 16;
		break;
	case EM_SPARC:
		header = 48, entry = 12;
		break;
	case EM_SPARCV9:
		header = 128, entry = 32;
		break;
	default:
		header = entry = plt_sh.sh_entsize;
		break;
	}
	off = plt_sh.sh_offset + header;
	for (size_t i = 0; i < nr; i++, off += entry) {
		GElf_Rela ra;
		GElf_Rel r;
		GElf_Sym sym;
		uint64_t info;
		const char *name;

		if (is_rela) {
			if (!gelf_getrela(reldata, (int)i, &ra))
				break;
			info = ra.r_info;
		} else {
			if (!gelf_getrel(reldata, (int)i, &r))
				break;
			info = r.r_info;
		}
		if (!gelf_getsym(syms, (int)GELF_R_SYM(info), &sym) ||
		    !(name = data_str(symstrs, sym.st_name)))
			continue;
		if (vp_symtab_add_plt(tab, off, entry, name) < 0)
			return -ENOMEM;
		n++;
	}
	return n;
}

static int load(struct vp_elf *e, struct symsrc *syms, struct symsrc *run)
{
	int nr = 0, r;

	/* kernel modules keep their names as they are (perf demangles no kernel code) */
	vp_symtab_set_demangle(e->tab, !e->is_kmod);
	if (syms->symtab) {
		r = load_pass(e->tab, syms, run, 0);
		if (r < 0)
			return r == -ENOMEM ? r : 0;
		nr = r;
	}
	if (syms->dynsym) {
		r = load_pass(e->tab, syms, run, 1);
		if (r < 0)
			return r == -ENOMEM ? r : 0;
		nr += r;
	}
	if (nr > 0 && synthesize_plt(e->tab, run) == -ENOMEM)
		return -ENOMEM;
	return 0;
}

int vp_elf_open(const char *path, const uint8_t *build_id, size_t build_id_size,
		const struct vp_elf_opts *opts, struct vp_elf **out, struct vp_error *err)
{
	struct symsrc ss[2], *syms = NULL, *run = NULL;
	int pos = 0, r;
	struct dso d = { 0 };
	char name[PATH_MAX];
	struct vp_elf *e;
	const char *env;
	GElf_Shdr sh;

	*out = NULL;
	if (!path || !*path)
		return vp_errorf(err, -EINVAL, "no object name");
	elf_version(EV_CURRENT);
	d.path = path;
	d.symfs = opts && opts->symfs && strcmp(opts->symfs, "/") ? opts->symfs : "";
	d.debug_dir = opts && opts->debug_dir ? opts->debug_dir : "/usr/lib/debug";
	if (opts && opts->buildid_dir)
		snprintf(d.buildid_dir, sizeof(d.buildid_dir), "%s", opts->buildid_dir);
	else if (d.symfs[0])	/* perf --symfs moves the cache to SYMFS/.debug */
		snprintf(d.buildid_dir, sizeof(d.buildid_dir), "%s/.debug", d.symfs);
	else if ((env = getenv("HOME")))
		snprintf(d.buildid_dir, sizeof(d.buildid_dir), "%s/.debug", env);
	else
		snprintf(d.buildid_dir, sizeof(d.buildid_dir), ".debug");
	if (build_id && build_id_size) {
		d.bid_size = build_id_size < BUILD_ID_SIZE ? build_id_size : BUILD_ID_SIZE;
		memcpy(d.bid, build_id, d.bid_size);
		d.has_bid = 1;
	} else if (is_regular_file(path) && join(name, sizeof(name), d.symfs, path) >= 0 &&
		   !vp_elf_read_build_id(name, d.bid, &d.bid_size)) {
		/* perf reads the object's own id (checking the unprefixed path) */
		d.has_bid = 1;
	}

	/* perf's loop over binary_type_symtab: the first candidate with a .symtab
	 * gives symbols, the first with a .dynsym gives program headers and PLT. */
	for (int c = 0; c < C_NR && !(syms && run); c++) {
		struct symsrc *s = &ss[pos];
		int next_slot = 0;

		if (candidate_path(&d, (enum cand)c, name, sizeof(name)) < 0 || !is_regular_file(name))
			continue;
		if (symsrc_init(s, &d, name) < 0)
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
			symsrc_destroy(s);
	}
	if (!syms && !run) {
		if (d.stale)
			return vp_errorf(err, -ESTALE, "'%s': build-id differs from the recorded one",
					 path);
		return vp_errorf(err, -ENOENT, "'%s': no readable ELF object with symbols", path);
	}
	if (!syms)
		syms = run;
	if (!run)
		run = syms;

	e = calloc(1, sizeof(*e));
	if (!e || !(e->tab = vp_symtab_new()))
		goto nomem;
	memcpy(e->build_id, d.bid, d.bid_size);
	e->build_id_size = d.has_bid ? d.bid_size : 0;
	if (!e->build_id_size) {
		int n = elf_build_id(run->elf, e->build_id, sizeof(e->build_id));
		e->build_id_size = n > 0 ? (size_t)n : 0;
	}
	e->is_kmod = section_by_name(run->elf, &run->ehdr, &sh, ".modinfo", NULL) != NULL;
	e->symsrc = strdup(syms->path);
	e->runtime = strdup(run->path);
	if (!e->symsrc || !e->runtime)
		goto nomem;
	r = load(e, syms, run);
	if (r < 0)
		goto nomem;
	vp_symtab_seal(e->tab);
	for (; pos > 0; pos--)
		symsrc_destroy(&ss[pos - 1]);
	*out = e;
	return 0;
nomem:
	for (; pos > 0; pos--)
		symsrc_destroy(&ss[pos - 1]);
	vp_elf_close(e);
	return vp_errorf(err, -ENOMEM, "'%s': out of memory loading symbols", path);
}

void vp_elf_close(struct vp_elf *e)
{
	if (!e)
		return;
	vp_symtab_free(e->tab);
	free(e->symsrc);
	free(e->runtime);
	free(e);
}

const struct vp_symtab *vp_elf_symtab(const struct vp_elf *e)
{
	return e ? e->tab : NULL;
}

const char *vp_elf_symsrc(const struct vp_elf *e)
{
	return e ? e->symsrc : NULL;
}

int vp_elf_offset_to_addr(const struct vp_elf *e, uint64_t offset, uint64_t *addr)
{
	if (!e)
		return -EINVAL;
	*addr = offset;
	return 0;
}

int vp_elf_build_id(const struct vp_elf *e, uint8_t id[20], size_t *size)
{
	if (!e || !e->build_id_size)
		return -ENOENT;
	memcpy(id, e->build_id, e->build_id_size);
	*size = e->build_id_size;
	return 0;
}

int vp_elf_is_kernel_module(const struct vp_elf *e)
{
	return e && e->is_kmod;
}
