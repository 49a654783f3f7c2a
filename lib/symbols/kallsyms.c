/* Kernel symbols from /proc/kallsyms (or a copy) as perf 6.1 loads them:
 * kallsyms__parse, the type filter, one tree for the kernel and every module
 * with perf's kallsyms end and duplicate fixups, then the split of module
 * symbols into per-module tables (maps__split_kallsyms). */
#include "symbols.h"

#include <elf.h>
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/util/grow.h"
#include "lib/util/lines.h"
#include "lib/util/shared.h"
#include "lib/util/threads.h"
#include "symtab_internal.h"

#define KSYM_NAME_LEN 512	/* perf keeps at most KSYM_NAME_LEN + 1 bytes of a name */

struct module {
	char *name;		/* bare: "xfs" */
	struct vp_symtab *tab;
	uint64_t lo, hi;	/* [first start, last end) */
};

struct vp_kallsyms {
	struct vp_symtab *core;
	struct module *mods;
	size_t nmods, capmods;
	uint64_t text, stext;
	int have_text, have_stext;
};

void vp_kallsyms_free(struct vp_kallsyms *k)
{
	if (!k)
		return;
	vp_symtab_free(k->core);
	for (size_t i = 0; i < k->nmods; i++) {
		free(k->mods[i].name);
		vp_symtab_free(k->mods[i].tab);
	}
	free(k->mods);
	free(k);
}

/* A hex digit's value + 1, 0 for any other byte: a load a digit instead of
 * up to three range tests (with ascii_upper: a 122k-line kallsyms copy
 * parsed in 16.6 ms instead of 18.9, medians of 12 alternating rounds). */
static const uint8_t hex1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
	['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* Bytes of v (little-endian: the first character lowest) each in [lo, hi],
 * for bytes under 0x80: 0x80 in each that is. No sum carries into the next
 * byte, since every byte and constant is under 0x80. */
static uint64_t bytes_in(uint64_t v, unsigned lo, unsigned hi)
{
	const uint64_t ones = 0x0101010101010101ull, high = ones << 7;

	return (v + (0x80 - lo) * ones) & ~(v + (0x7f - hi) * ones) & high;
}

/* 0x80 in each byte of v that is not a hex digit's character. */
static uint64_t not_hex(uint64_t v)
{
	const uint64_t high = 0x8080808080808080ull;

	return (v & high) |
	       ((bytes_in(v, '0', '9') | bytes_in(v, 'a', 'f') | bytes_in(v, 'A', 'F')) ^ high);
}

/* Eight hex digits' characters (first the highest) to their value. */
static uint64_t hex8_value(uint64_t v)
{
	const uint64_t ones = 0x0101010101010101ull;

	/* a digit's low nibble, plus 9 for a letter (bit 6) */
	v = (v & 0x0f * ones) + ((v >> 6) & ones) * 9;
	/* nibbles into bytes, bytes into 16 bits, those into 32, first the highest */
	v = (v & 0x000f000f000f000full) << 4 | ((v >> 8) & 0x000f000f000f000full);
	v = (v & 0x000000ff000000ffull) << 8 | ((v >> 16) & 0x000000ff000000ffull);
	return (v & 0xffffull) << 16 | ((v >> 32) & 0xffffull);
}

/* A line's address: 64-bit kernels print 16 digits (%px), read eight at a
 * time; any other count a digit at a time. How many digits it took, 0 for
 * none. (A 122k-line kallsyms: 22.5 M instructions a digit at a time, the
 * parse's largest part.) */
static size_t parse_addr(const char *line, size_t len, uint64_t *out)
{
	uint64_t a = 0, hi, lo;
	size_t i = 0;
	int d;

	if (len > 16 && !hex1[(unsigned char)line[16]]) {
		memcpy(&hi, line, 8);
		memcpy(&lo, line + 8, 8);
		hi = le64toh(hi);
		lo = le64toh(lo);
		if (!(not_hex(hi) | not_hex(lo))) {
			*out = hex8_value(hi) << 32 | hex8_value(lo);
			return 16;
		}
	}
	while ((d = hex1[(unsigned char)line[i]])) {
		a = a << 4 | (uint64_t)(d - 1);
		i++;
	}
	*out = a;
	return i;
}

/* The C locale's toupper (vmprof never sets another), without a call. */
static int ascii_upper(int c)
{
	return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

static struct module *module_get(struct vp_kallsyms *k, const char *name, size_t len)
{
	for (size_t i = k->nmods; i-- > 0;)	/* a module's symbols come together */
		if (strlen(k->mods[i].name) == len && !memcmp(k->mods[i].name, name, len))
			return &k->mods[i];
	if (vp_grow((void **)&k->mods, &k->capmods, k->nmods, sizeof(*k->mods), 16) < 0)
		return NULL;
	struct module *m = &k->mods[k->nmods];
	memset(m, 0, sizeof(*m));
	m->name = strndup(name, len);
	m->tab = vp_symtab_new();
	if (!m->name || !m->tab) {
		free(m->name);
		vp_symtab_free(m->tab);
		return NULL;
	}
	vp_symtab_set_demangle(m->tab, 0);
	k->nmods++;
	return m;
}

/* maps__split_kallsyms: module symbols leave the kernel's tree for their
 * module's, named without "\t[mod]"; x86's entry trampoline is dropped. */
static int split(struct vp_kallsyms *k)
{
	const struct vp_sym *s, *nx;

	for (s = vp_symtab_first(k->core); s; s = nx) {
		const char *tab = strchr(s->name, '\t');

		nx = vp_symtab_next(k->core, s);
		if (tab) {
			const char *mod = tab + 1;
			size_t len = strlen(mod);
			if (len >= 2 && mod[0] == '[' && mod[len - 1] == ']') {
				mod++;
				len -= 2;
			}
			struct module *m = module_get(k, mod, len);
			if (!m || vp_symtab_add_n(m->tab, s->start, s->end - s->start, s->name,
						  (size_t)(tab - s->name), s->bind, s->type) < 0 ||
			    vp_symtab_erase(k->core, s) < 0)
				return -ENOMEM;
		} else if (s->name[0] == '_' && !strcmp(s->name, "__entry_SYSCALL_64_trampoline") &&
			   vp_symtab_erase(k->core, s) < 0) {
			return -ENOMEM;
		}
	}
	if (vp_symtab_seal(k->core) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < k->nmods; i++) {
		struct module *m = &k->mods[i];
		if (vp_symtab_seal(m->tab) < 0)
			return -ENOMEM;
		size_t n = vp_symtab_count(m->tab);
		if (n) {
			m->lo = vp_symtab_at(m->tab, 0)->start;
			for (size_t j = 0; j < n; j++) {
				/* a zero-size symbol still holds its start */
				const struct vp_sym *x = vp_symtab_at(m->tab, j);
				uint64_t e = x->end > x->start ? x->end : x->start + 1;
				if (e > m->hi)
					m->hi = e;
			}
		}
	}
	return 0;
}

int vp_kallsyms_load(const char *path, struct vp_kallsyms **out, struct vp_error *err)
{
	struct vp_lines r;
	struct vp_kallsyms *k;
	char *line;
	size_t len, nlines = 0, nonzero = 0;
	int trunc, nl, rc;

	*out = NULL;
	if (!path)
		return vp_errorf(err, -EINVAL, "no kallsyms file");
	rc = vp_lines_open(&r, path, 64 << 10);
	if (rc < 0)
		return vp_errorf(err, rc, "'%s': %s", path, strerror(-rc));
	/* The kernel formats /proc/kallsyms as it is read (35-45 ms here) and
	 * the parse below takes 20-25 ms: with a CPU to spare they overlap. A
	 * copy in a file (its size known) is only bytes to copy: no thread.
	 * Nor while the count's workers hold every CPU (this load is then one
	 * of their jobs): the reads' thread took turns with them, and a -g
	 * report of 291 MB on 2 CPUs took 157 ms with it from the start, 139
	 * without (medians of 9 runs, alternating). So it starts when a CPU is
	 * free, which may come mid-file: a small file's count ends first. */
	struct stat st;
	int may_ahead = !(fstat(r.fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0);
	k = calloc(1, sizeof(*k));
	if (!k || !(k->core = vp_symtab_new())) {
		rc = -ENOMEM;
		goto fail;
	}
	vp_symtab_set_demangle(k->core, 0);	/* perf never demangles kernel names */

	for (size_t seen = 0; (rc = vp_lines_next(&r, &line, &len, &trunc, &nl)) > 0; seen++) {
		uint64_t start;
		char type;

		if (may_ahead && !r.ahead && seen % 2048 == 0 && vp_cpu_spare())
			vp_lines_read_ahead(&r);

		/* "ADDR TYPE NAME[\t[MODULE]]"; anything else is skipped as perf does */
		size_t i = parse_addr(line, len, &start);
		if (i == 0 || line[i] != ' ' || !line[i + 1] || line[i + 2] != ' ')
			continue;
		type = line[i + 1];
		const char *name = line + i + 3;
		size_t nlen = len - (i + 3);
		if (nlen > KSYM_NAME_LEN + 1)
			nlen = KSYM_NAME_LEN + 1;
		nlines++;
		nonzero += start != 0;
		int up = ascii_upper((unsigned char)type);
		/* the relocation reference: the first function named so */
		if (up == 'T' || up == 'W') {
			if (!k->have_text && nlen == 5 && !memcmp(name, "_text", 5)) {
				k->text = start;
				k->have_text = 1;
			} else if (!k->have_stext && nlen == 6 && !memcmp(name, "_stext", 6)) {
				k->stext = start;
				k->have_stext = 1;
			}
		}
		/* symbol_type__filter: text, weak, data and bss, either case */
		if (up != 'T' && up != 'W' && up != 'D' && up != 'B')
			continue;
		if (name[0] == '$')	/* ARM module-local mapping symbols */
			continue;
		uint8_t bind = type == 'W' ? STB_WEAK : type == up ? STB_GLOBAL : STB_LOCAL;
		uint8_t stt = up == 'T' || up == 'W' ? STT_FUNC : STT_OBJECT;
		if (vp_symtab_add_n(k->core, start, 0, name, nlen, bind, stt) < 0) {
			rc = -ENOMEM;
			goto fail;
		}
	}
	if (rc < 0) {
		vp_errorf(err, rc, "'%s': %s", path, strerror(-rc));
		goto fail_msg;
	}
	vp_lines_close(&r);
	if (nlines == 0) {
		vp_kallsyms_free(k);
		return vp_errorf(err, -EINVAL, "'%s': no kallsyms lines (ADDRESS TYPE NAME)", path);
	}
	if (nonzero == 0) {
		vp_kallsyms_free(k);
		return vp_errorf(err, -EACCES,
				 "'%s': every address is zero: kernel.kptr_restrict hides them "
				 "(at 1 root may read them, at 2 nobody: set /proc/sys/kernel/kptr_restrict)",
				 path);
	}
	if ((rc = vp_symtab_fixup(k->core, 1)) < 0 || (rc = split(k)) < 0) {
		vp_kallsyms_free(k);
		return vp_errorf(err, rc, "'%s': out of memory", path);
	}
	*out = k;
	return 0;
fail:
	vp_errorf(err, rc, "'%s': %s", path, rc == -ENOMEM ? "out of memory" : strerror(-rc));
fail_msg:
	vp_lines_close(&r);
	vp_kallsyms_free(k);
	return rc;
}

const struct vp_symtab *vp_kallsyms_kernel(const struct vp_kallsyms *k)
{
	return k ? k->core : NULL;
}

const struct vp_symtab *vp_kallsyms_module(const struct vp_kallsyms *k, const char *module)
{
	if (!k || !module)
		return NULL;
	for (size_t i = 0; i < k->nmods; i++)
		if (!strcmp(k->mods[i].name, module))
			return k->mods[i].tab;
	return NULL;
}

size_t vp_kallsyms_module_count(const struct vp_kallsyms *k)
{
	return k ? k->nmods : 0;
}

const char *vp_kallsyms_module_name(const struct vp_kallsyms *k, size_t i)
{
	return k && i < k->nmods ? k->mods[i].name : NULL;
}

const struct vp_sym *vp_kallsyms_find(const struct vp_kallsyms *k, uint64_t addr,
				      const char **module, const struct vp_symtab **table)
{
	const struct vp_sym *s;

	if (module)
		*module = NULL;
	if (table)
		*table = NULL;
	if (!k)
		return NULL;
	if ((s = vp_symtab_find(k->core, addr))) {
		if (table)
			*table = k->core;
		return s;
	}
	for (size_t i = 0; i < k->nmods; i++) {
		const struct module *m = &k->mods[i];
		if (addr < m->lo || addr >= m->hi)
			continue;
		if ((s = vp_symtab_find(m->tab, addr))) {
			if (module)
				*module = m->name;
			if (table)
				*table = m->tab;
			return s;
		}
	}
	return NULL;
}

uint64_t vp_kallsyms_ref_addr(const struct vp_kallsyms *k, const char **name)
{
	if (name)
		*name = NULL;
	if (!k)
		return 0;
	if (k->have_text) {
		if (name)
			*name = "_text";
		return k->text;
	}
	if (k->have_stext) {
		if (name)
			*name = "_stext";
		return k->stext;
	}
	return 0;
}

uint64_t vp_kallsyms_addr_of(const struct vp_kallsyms *k, const char *name)
{
	if (!k || !name)
		return 0;
	if (!strcmp(name, "_text"))
		return k->have_text ? k->text : 0;
	if (!strcmp(name, "_stext"))
		return k->have_stext ? k->stext : 0;
	return 0;
}

/* ---- one load per path while used or held (lib/util/shared.h) ---- */

static void kallsyms_free(void *k)
{
	vp_kallsyms_free(k);
}

static const struct vp_shared_kind kallsyms_kind = { kallsyms_free };

static int kallsyms_load(void *path, void **out, struct vp_error *err)
{
	struct vp_kallsyms *k;
	int rc = vp_kallsyms_load(path, &k, err);

	*out = k;
	return rc;
}

int vp_kallsyms_get(const char *path, struct vp_kallsyms **out, struct vp_error *err)
{
	void *v;
	int rc;

	*out = NULL;
	if (!path)
		return vp_kallsyms_load(path, out, err);
	rc = vp_shared_get(&kallsyms_kind, path, kallsyms_load, (void *)path, &v, err);
	*out = v;
	return rc;
}

void vp_kallsyms_put(struct vp_kallsyms *k)
{
	vp_shared_put(&kallsyms_kind, k);
}
