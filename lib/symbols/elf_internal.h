/* The ELF reader's two halves share these: elffind.c finds the files perf
 * would read for an object (its candidates in perf's order, each checked
 * against the build-id), elfsyms.c reads the symbols from what was found.
 * Internal to lib/symbols/. */
#ifndef VP_ELF_INTERNAL_H
#define VP_ELF_INTERNAL_H

#include <gelf.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "symbols.h"

#define BUILD_ID_SIZE 20

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
struct elf_target {
	const char *path;
	uint8_t bid[BUILD_ID_SIZE];
	size_t bid_size;
	int has_bid;
	const char *symfs;
	const char *debug_dir;
	char buildid_dir[PATH_MAX];
	int stale;		/* a candidate was rejected for its build-id */
};

/* perf's elf_section_by_name: the first section of that name, in file order. */
Elf_Scn *vp_elf_section_by_name(Elf *elf, const GElf_Ehdr *eh, GElf_Shdr *shp, const char *name,
				size_t *idx);
/* perf's elf_read_build_id: the GNU build-id note; its size, or -1. */
int vp_elf_note_build_id(Elf *elf, uint8_t *bf, size_t size);
/* The object to look for: its path, the build-id to insist on (given, or
 * the object's own) and where perf would look (symfs, debug and cache dirs). */
void vp_elf_target_init(struct elf_target *d, const char *path, const uint8_t *build_id,
			size_t build_id_size, const struct vp_elf_opts *opts);
/* perf's loop over binary_type_symtab: *syms the first candidate with a
 * .symtab, *run the first with a .dynsym (or .opd); either may be NULL.
 * Returns how many entries of ss hold an open file. */
int vp_elf_find(struct elf_target *d, struct symsrc ss[2], struct symsrc **syms,
		struct symsrc **run);
void vp_symsrc_destroy(struct symsrc *ss);

#endif
