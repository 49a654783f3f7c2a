/* Symbol tables: sorted arrays of [start, end) -> name with binary search,
 * filled from ELF files (libelf), /proc/kallsyms, perf-PID.map files, or
 * vmprof's portable symbol section. Names are kept as found (mangled) and
 * demangled on first use. */
#ifndef VP_SYMBOLS_H
#define VP_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct vp_sym {
	uint64_t start, end;	/* [start, end) in the table's address space */
	const char *name;	/* verbatim (mangled) name */
	const char *demangled;	/* filled lazily by vp_sym_name(); NULL until then */
	uint8_t bind, type;	/* ELF STB_* / STT_* (kallsyms: from the type letter) */
};

struct vp_symtab;

struct vp_symtab *vp_symtab_new(void);
void vp_symtab_free(struct vp_symtab *t);
/* size 0 means unknown: the end is fixed up to the next symbol by finish(). */
int vp_symtab_add(struct vp_symtab *t, uint64_t start, uint64_t size, const char *name,
		  uint8_t bind, uint8_t type);
/* Sort, drop duplicates at one address keeping the one perf keeps
 * (choose_best_symbol), fix ends as perf's symbols__fixup_end. */
void vp_symtab_finish(struct vp_symtab *t, int is_kallsyms);
const struct vp_sym *vp_symtab_find(const struct vp_symtab *t, uint64_t addr);
size_t vp_symtab_count(const struct vp_symtab *t);
const struct vp_sym *vp_symtab_at(const struct vp_symtab *t, size_t i);

enum vp_demangle_mode {
	VP_DEMANGLE_NONE = 0,	/* verbatim names */
	VP_DEMANGLE_SHORT,	/* as perf report prints: C++ without parameter lists, Rust without hash */
	VP_DEMANGLE_FULL,	/* with parameter lists */
};
/* Name of a symbol in a mode; the result lives as long as the table. */
const char *vp_sym_name(const struct vp_symtab *t, const struct vp_sym *s, enum vp_demangle_mode m);
/* Demangle one name (C++ Itanium, Rust legacy and v0); malloc'd, or NULL if not mangled. */
char *vp_demangle(const char *name, enum vp_demangle_mode m);

/* ---- ELF objects ---- */

struct vp_elf_opts {
	const char *symfs;		/* prefix for every path looked up, like perf --symfs */
	const char *debug_dir;		/* default /usr/lib/debug */
};

struct vp_elf;

/* Open an object and load its symbols: .symtab of the object or of its
 * separate debug file (build-id under debug_dir/.build-id, .gnu_debuglink),
 * else .dynsym; plus PLT entries as perf names them ("foo@plt"). When
 * build_id is given and the file's differs, fail with -ESTALE. */
int vp_elf_open(const char *path, const uint8_t *build_id, size_t build_id_size,
		const struct vp_elf_opts *opts, struct vp_elf **out, struct vp_error *err);
void vp_elf_close(struct vp_elf *e);
const struct vp_symtab *vp_elf_symtab(const struct vp_elf *e);
/* Translate a file offset (map pgoff + ip - map start) to the address space
 * of the symbol table, through the PT_LOAD segment holding it. */
int vp_elf_offset_to_addr(const struct vp_elf *e, uint64_t offset, uint64_t *addr);
/* The object's GNU build-id; 0 and *size set when it has one. */
int vp_elf_build_id(const struct vp_elf *e, uint8_t id[20], size_t *size);
int vp_elf_is_kernel_module(const struct vp_elf *e);

/* Read the build-id of the file at path without loading symbols. */
int vp_elf_read_build_id(const char *path, uint8_t id[20], size_t *size);

/* ---- kernel symbols ---- */

struct vp_kallsyms;

/* Parse a kallsyms file (/proc/kallsyms or a copy). Module symbols
 * ("name [mod]") go to per-module tables. Fails with -EACCES-style codes when
 * every address reads as zero (kptr_restrict). */
int vp_kallsyms_load(const char *path, struct vp_kallsyms **out, struct vp_error *err);
void vp_kallsyms_free(struct vp_kallsyms *k);
/* Core kernel symbols (absolute addresses in the loaded file's boot). */
const struct vp_symtab *vp_kallsyms_kernel(const struct vp_kallsyms *k);
/* A module's symbols by name ("xfs"), NULL if none. */
const struct vp_symtab *vp_kallsyms_module(const struct vp_kallsyms *k, const char *module);
/* Find the symbol and module ("[xfs]" style name, NULL for the core) of an address. */
const struct vp_sym *vp_kallsyms_find(const struct vp_kallsyms *k, uint64_t addr,
				      const char **module, const struct vp_symtab **table);
/* Address of the relocation reference symbol (_text, else _stext), 0 if absent. */
uint64_t vp_kallsyms_ref_addr(const struct vp_kallsyms *k, const char **name);

/* ---- JIT maps ---- */

/* Parse /tmp/perf-PID.map ("START SIZE NAME" in hex per line). */
int vp_perfmap_load(const char *path, struct vp_symtab **out, struct vp_error *err);

#endif
