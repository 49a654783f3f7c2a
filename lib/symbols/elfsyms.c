/* ELF symbols as perf 6.1's dso__load reads them (symbol-elf.c) from the
 * files elffind.c found: .symtab and .dynsym passes with perf's filters and
 * file-offset adjustment, the PLT entries perf synthesizes. Every count and
 * offset from the file is checked. */
#include "elf_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/shared.h"

struct vp_elf {
	struct vp_symtab *tab;
	uint8_t build_id[BUILD_ID_SIZE];
	size_t build_id_size;
	int is_kmod;
	char *symsrc;		/* the file the symbols came from */
	char *runtime;		/* the file program headers and the PLT came from */
};

static const char *data_str(const Elf_Data *d, size_t off)
{
	if (!d || !d->d_buf || off >= d->d_size)
		return NULL;
	if (!memchr((const char *)d->d_buf + off, '\0', d->d_size - off))
		return NULL;
	return (const char *)d->d_buf + off;
}

/* The object's loadable segments, in header order, read once a pass:
 * libelf's gelf_getphdr for each segment of each symbol was 67k calls
 * (5 M instructions) for the 24k symbols of a -g report's objects. */
#define LOADS_MAX 64

struct segment {
	uint64_t vaddr, size, bias;	/* bias: vaddr - file offset */
};

struct loads {
	size_t n;		/* the first n loadable segments, kept */
	size_t next, total;	/* headers [next, total) are still to look at */
	struct segment v[LOADS_MAX];
};

/* Program header i as perf's search takes it: 1 for a PT_LOAD of nonzero
 * size (in *sg), 0 for any other, -1 when libelf will not give it (the
 * search stops there). */
static int segment_of(Elf *elf, size_t i, struct segment *sg)
{
	GElf_Phdr ph;

	if (!gelf_getphdr(elf, (int)i, &ph))
		return -1;
	sg->size = ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz;
	if (ph.p_type != PT_LOAD || !sg->size)
		return 0;
	sg->vaddr = ph.p_vaddr;
	sg->bias = ph.p_vaddr - ph.p_offset;
	return 1;
}

static void loads_read(Elf *elf, struct loads *l)
{
	int r;

	l->n = l->next = l->total = 0;
	if (elf_getphdrnum(elf, &l->total))
		l->total = 0;
	for (; l->next < l->total && l->n < LOADS_MAX; l->next++) {
		if ((r = segment_of(elf, l->next, &l->v[l->n])) < 0) {
			l->total = l->next;
			break;
		}
		l->n += (size_t)r;
	}
}

static int holds(const struct segment *sg, uint64_t vaddr)
{
	return vaddr >= sg->vaddr && vaddr - sg->vaddr < sg->size;
}

/* perf's elf_read_program_header: the first PT_LOAD holding vaddr, as its
 * vaddr - offset in *bias; -1 when none does. */
static int program_header(Elf *elf, const struct loads *l, uint64_t vaddr, uint64_t *bias)
{
	struct segment sg;
	int r;

	for (size_t i = 0; i < l->n; i++)
		if (holds(&l->v[i], vaddr)) {
			*bias = l->v[i].bias;
			return 0;
		}
	/* an object with more segments than kept: the rest, in order */
	for (size_t i = l->next; i < l->total; i++) {
		if ((r = segment_of(elf, i, &sg)) < 0)
			return -1;
		if (r && holds(&sg, vaddr)) {
			*bias = sg.bias;
			return 0;
		}
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
	struct loads loads;

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
	loads_read(run->elf, &loads);

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
		uint64_t bias;
		if (program_header(run->elf, &loads, sym.st_value, &bias))
			sym.st_value -= sh.sh_addr - sh.sh_offset;
		else
			sym.st_value -= bias;
		if (vp_symtab_add(tab, sym.st_value, sym.st_size, name, GELF_ST_BIND(sym.st_info),
				  (uint8_t)type) < 0)
			return -ENOMEM;
		nr_added++;
	}
	if (nr_added > 0 && vp_symtab_fixup(tab, 0) < 0)
		return -ENOMEM;
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
	rel = vp_elf_section_by_name(ss->elf, &ss->ehdr, &rel_sh, ".rela.plt", NULL);
	if (!rel && !(rel = vp_elf_section_by_name(ss->elf, &ss->ehdr, &rel_sh, ".rel.plt", NULL)))
		return 0;
	if (rel_sh.sh_link != ss->dynsym_idx)
		return 0;
	if (!vp_elf_section_by_name(ss->elf, &ss->ehdr, &plt_sh, ".plt", NULL))
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
	int pos, r;
	struct elf_target d;
	struct vp_elf *e;
	GElf_Shdr sh;

	*out = NULL;
	if (!path || !*path)
		return vp_errorf(err, -EINVAL, "no object name");
	vp_elf_target_init(&d, path, build_id, build_id_size, opts);
	pos = vp_elf_find(&d, ss, &syms, &run);
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
		int n = vp_elf_note_build_id(run->elf, e->build_id, sizeof(e->build_id));
		e->build_id_size = n > 0 ? (size_t)n : 0;
	}
	e->is_kmod = vp_elf_section_by_name(run->elf, &run->ehdr, &sh, ".modinfo", NULL) != NULL;
	e->symsrc = strdup(syms->path);
	e->runtime = strdup(run->path);
	if (!e->symsrc || !e->runtime)
		goto nomem;
	r = load(e, syms, run);
	if (r < 0 || vp_symtab_seal(e->tab) < 0)
		goto nomem;
	for (; pos > 0; pos--)
		vp_symsrc_destroy(&ss[pos - 1]);
	*out = e;
	return 0;
nomem:
	for (; pos > 0; pos--)
		vp_symsrc_destroy(&ss[pos - 1]);
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

/* ---- one load per object while used or held (lib/util/shared.h) ---- */

static void elf_free(void *e)
{
	vp_elf_close(e);
}

static const struct vp_shared_kind shared_elf_kind = { elf_free };

struct elf_ask {
	const char *path;
	const uint8_t *build_id;
	size_t build_id_size;
	const struct vp_elf_opts *opts;
};

static int elf_load(void *ctx, void **out, struct vp_error *err)
{
	const struct elf_ask *a = ctx;
	struct vp_elf *e;
	int rc = vp_elf_open(a->path, a->build_id, a->build_id_size, a->opts, &e, err);

	*out = e;
	return rc;
}

/* Every input of the load, each field with its length first: no two asks
 * make one key. */
static char *elf_key(const struct elf_ask *a)
{
	const char *f[] = { a->path, a->opts ? a->opts->symfs : NULL,
			    a->opts ? a->opts->debug_dir : NULL, a->opts ? a->opts->buildid_dir : NULL };
	size_t len = 3 * a->build_id_size + 1;
	char *key, *p;

	for (size_t i = 0; i < sizeof(f) / sizeof(*f); i++)
		len += 24 + (f[i] ? strlen(f[i]) : 0);
	if (!(p = key = malloc(len)))
		return NULL;
	for (size_t i = 0; i < sizeof(f) / sizeof(*f); i++)
		p += f[i] ? sprintf(p, "%zu:%s", strlen(f[i]), f[i]) : sprintf(p, "-:");
	for (size_t i = 0; i < a->build_id_size; i++)
		p += sprintf(p, "%02x", a->build_id[i]);
	return key;
}

int vp_elf_get(const char *path, const uint8_t *build_id, size_t build_id_size,
	       const struct vp_elf_opts *opts, struct vp_elf **out, struct vp_error *err)
{
	struct elf_ask a = { path, build_id, build_id ? build_id_size : 0, opts };
	char *key;
	void *v;
	int rc;

	*out = NULL;
	if (!path || !*path)
		return vp_elf_open(path, build_id, build_id_size, opts, out, err);
	if (!(key = elf_key(&a)))
		return vp_errorf(err, -ENOMEM, "'%s': out of memory loading symbols", path);
	rc = vp_shared_get(&shared_elf_kind, key, elf_load, &a, &v, err);
	free(key);
	*out = v;
	return rc;
}

void vp_elf_put(struct vp_elf *e)
{
	vp_shared_put(&shared_elf_kind, e);
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
