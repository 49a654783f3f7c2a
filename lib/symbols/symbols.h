/* Symbol tables: [start, end) -> name, filled from ELF files (libelf),
 * /proc/kallsyms, perf-PID.map files, or vmprof's portable symbol section, and
 * resolved exactly as perf 6.1 resolves them. Names are kept as found (mangled)
 * and demangled on first use. */
#ifndef VP_SYMBOLS_H
#define VP_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util/error.h"

struct vp_sym {
	uint64_t start, end;	/* [start, end) in the table's address space; start == end
				 * (perf: a symbol nothing fixed up) matches start only */
	const char *name;	/* verbatim (mangled) name; PLT entries "name@plt" */
	const char *demangled;	/* VP_DEMANGLE_SHORT form, filled lazily by vp_sym_name() */
	const char *demangled_full; /* VP_DEMANGLE_FULL form, filled lazily */
	uint8_t bind, type;	/* ELF STB_* / STT_* (kallsyms: from the type letter) */
	uint8_t flags;		/* VP_SYM_* */
};

#define VP_SYM_PLT	0x01	/* synthesized PLT entry (name ends in "@plt") */
#define VP_SYM_ERASED	0x80	/* internal: dropped as a duplicate */

struct vp_symtab;

/* A table behaves like one of perf's per-dso rbtrees: symbols are inserted in
 * the order they are added (equal starts keep that order), perf's fixups run
 * on it, and a lookup walks the tree as perf's symbols__find does, so even
 * overlapping symbols (a zero-size _init stretched over the PLT, a JIT map
 * reusing an address) resolve to the one perf picks. */
struct vp_symtab *vp_symtab_new(void);
void vp_symtab_free(struct vp_symtab *t);
/* size 0 means unknown: the end is fixed up to the next symbol by finish(). */
int vp_symtab_add(struct vp_symtab *t, uint64_t start, uint64_t size, const char *name,
		  uint8_t bind, uint8_t type);
/* A PLT entry for target (its verbatim name): perf's "target@plt", named in
 * every mode as perf names it (demangled target + "@plt"). */
int vp_symtab_add_plt(struct vp_symtab *t, uint64_t start, uint64_t size, const char *target);
/* Whether vp_sym_name() demangles (default yes). perf leaves kernel, kernel
 * module and perf-PID.map names verbatim. Set before adding symbols. */
void vp_symtab_set_demangle(struct vp_symtab *t, int on);
/* perf's symbols__fixup_end then symbols__fixup_duplicate (choose_best_symbol)
 * over what was added so far; perf runs them once per symbol pass (ELF: after
 * .symtab and again after .dynsym), so they may run several times. */
int vp_symtab_fixup(struct vp_symtab *t, int is_kallsyms);	/* -ENOMEM */
/* No more symbols: builds the address-ordered index behind count()/at()
 * and the lookups' arrays; from then on the table may be read by many
 * threads at once. -ENOMEM, the table then unsealed (free it). */
int vp_symtab_seal(struct vp_symtab *t);
/* vp_symtab_fixup() then vp_symtab_seal(); the first error. */
int vp_symtab_finish(struct vp_symtab *t, int is_kallsyms);
/* The symbol perf's symbols__find returns for addr, NULL if none. */
const struct vp_sym *vp_symtab_find(const struct vp_symtab *t, uint64_t addr);
/* Live symbols in address order (equal starts in insertion order); valid after seal. */
size_t vp_symtab_count(const struct vp_symtab *t);
const struct vp_sym *vp_symtab_at(const struct vp_symtab *t, size_t i);

enum vp_demangle_mode {
	VP_DEMANGLE_NONE = 0,	/* verbatim names */
	VP_DEMANGLE_SHORT,	/* as perf report prints: C++ without parameter lists, Rust without hash */
	VP_DEMANGLE_FULL,	/* with parameter lists */
};
/* Name of a symbol in a mode; the result lives as long as the table.
 * Invariant: SHORT is the first vp_symbol_display_len(FULL) bytes of FULL. */
const char *vp_sym_name(const struct vp_symtab *t, const struct vp_sym *s, enum vp_demangle_mode m);
/* Demangle one name (C++ Itanium, Rust legacy and v0, OCaml) as perf 6.1 does
 * (SHORT: libiberty's cplus_demangle without options); malloc'd, or NULL if
 * not mangled. FULL adds parameter lists and clone suffixes and always cuts
 * back to SHORT with vp_symbol_display_len(). */
char *vp_demangle(const char *name, enum vp_demangle_mode m);

/* ---- ELF objects ---- */

struct vp_elf_opts {
	const char *symfs;		/* prefix for every path looked up, like perf --symfs */
	const char *debug_dir;		/* default /usr/lib/debug */
	const char *buildid_dir;	/* perf's build-id cache; default SYMFS/.debug with a
					 * symfs (as perf --symfs), else $HOME/.debug */
};

struct vp_elf;

/* Open an object and load its symbols as perf's dso__load does: candidates in
 * perf's order (.gnu_debuglink targets, the build-id cache, debug_dir by path
 * and by build-id, the object itself), the first with a .symtab for symbols
 * and the first with a .dynsym for program headers and the PLT; .symtab then
 * .dynsym are loaded (STT_FUNC, STT_GNU_IFUNC, STT_OBJECT and text/data
 * labels), plus PLT entries ("foo@plt"). Candidates whose build-id differs
 * from build_id (or, when none is given, from the object's own) are skipped;
 * when that leaves nothing, fail with -ESTALE. Symbol addresses are perf's:
 * file offsets (st_value moved by its PT_LOAD's p_vaddr - p_offset). */
int vp_elf_open(const char *path, const uint8_t *build_id, size_t build_id_size,
		const struct vp_elf_opts *opts, struct vp_elf **out, struct vp_error *err);
void vp_elf_close(struct vp_elf *e);
/* vp_elf_open shared by the sessions of one process that ask for the same
 * object (path, build-id and opts alike) while one uses it or the loads are
 * held (vp_shared_hold): compare's runs name the same objects. Read-only
 * once loaded, its names demangled under a lock: threads may share it. A
 * failed open is not kept. Give it back with vp_elf_put, which also frees
 * one vp_elf_open gave. */
int vp_elf_get(const char *path, const uint8_t *build_id, size_t build_id_size,
	       const struct vp_elf_opts *opts, struct vp_elf **out, struct vp_error *err);
void vp_elf_put(struct vp_elf *e);
const struct vp_symtab *vp_elf_symtab(const struct vp_elf *e);
/* Translate a file offset (map pgoff + ip - map start) to the address space
 * of the symbol table. The table holds file offsets, as perf's does (its
 * map__map_ip is exactly pgoff + ip - start), so this is the identity; it
 * stays so callers need not know. */
int vp_elf_offset_to_addr(const struct vp_elf *e, uint64_t offset, uint64_t *addr);
/* The object's GNU build-id; 0 and *size set when it has one. */
int vp_elf_build_id(const struct vp_elf *e, uint8_t id[20], size_t *size);
/* A kernel module (.modinfo): loaded with the user-space rules but names kept
 * verbatim; perf's own module loading (section maps) is not reproduced. */
int vp_elf_is_kernel_module(const struct vp_elf *e);
/* The file the symbols were read from (the object, its debug file, a cache entry). */
const char *vp_elf_symsrc(const struct vp_elf *e);

/* Read the build-id of the file at path without loading symbols. */
int vp_elf_read_build_id(const char *path, uint8_t id[20], size_t *size);

/* ---- kernel symbols ---- */

struct vp_kallsyms;

/* Parse a kallsyms file (/proc/kallsyms or a copy) as perf does: types
 * T W D B (either case), ends fixed to the next symbol (a page past the last
 * one before a module boundary), duplicates resolved by choose_best_symbol
 * over the whole file, then module symbols ("name\t[mod]") moved to
 * per-module tables. Fails with -EACCES when every address reads as zero
 * (kptr_restrict), -ENOENT/-EIO when unreadable, -EINVAL when nothing parses. */
int vp_kallsyms_load(const char *path, struct vp_kallsyms **out, struct vp_error *err);
void vp_kallsyms_free(struct vp_kallsyms *k);
/* vp_kallsyms_load, shared by the sessions of one process that ask for the
 * same path while one uses it or the loads are held (vp_shared_hold:
 * compare's sides and runs read /proc/kallsyms once); a second caller
 * waits for the first's read. Read-only once loaded. Give it back with
 * vp_kallsyms_put. */
int vp_kallsyms_get(const char *path, struct vp_kallsyms **out, struct vp_error *err);
void vp_kallsyms_put(struct vp_kallsyms *k);
/* Core kernel symbols (absolute addresses in the loaded file's boot). */
const struct vp_symtab *vp_kallsyms_kernel(const struct vp_kallsyms *k);
/* A module's symbols by name ("xfs"), NULL if none. */
const struct vp_symtab *vp_kallsyms_module(const struct vp_kallsyms *k, const char *module);
/* Find the symbol and module (bare name, "xfs"; NULL for the core) of an address.
 * Core symbols are looked up first, then each module's table. */
const struct vp_sym *vp_kallsyms_find(const struct vp_kallsyms *k, uint64_t addr,
				      const char **module, const struct vp_symtab **table);
/* Address of the relocation reference symbol (_text, else _stext), 0 if absent:
 * the first function-type line of that name, before any duplicate fixup. */
uint64_t vp_kallsyms_ref_addr(const struct vp_kallsyms *k, const char **name);
/* The same for a reference name perf recorded ("_text" or "_stext", perf's
 * only two), 0 if absent or another name. */
uint64_t vp_kallsyms_addr_of(const struct vp_kallsyms *k, const char *name);
/* Modules seen, in the address order of their first symbols. */
size_t vp_kallsyms_module_count(const struct vp_kallsyms *k);
const char *vp_kallsyms_module_name(const struct vp_kallsyms *k, size_t i);

/* ---- JIT maps ---- */

/* Parse /tmp/perf-PID.map ("START SIZE NAME" in hex per line) as perf's
 * dso__load_perf_map: no end or duplicate fixups, names verbatim. Malformed
 * lines are skipped with one warning per file. */
int vp_perfmap_load(const char *path, struct vp_symtab **out, struct vp_error *err);

#endif
