/* Records of what existed before the recording (see synth.h). */
#include "synth.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/perfdata/write.h"
#include "lib/symbols/kernel_id.h"

static uint64_t kernel_text(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	unsigned long long a = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char t, name[256];
		unsigned long long v;
		if (sscanf(line, "%llx %c %255s", &v, &t, name) == 3 && !strcmp(name, "_text")) {
			a = v;
			break;
		}
	}
	fclose(f);
	return a;
}

static void synth_process(struct vp_pdw *w, pid_t pid)
{
	char path[64], comm[64] = "", line[4352];
	FILE *f;
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if ((f = fopen(path, "r"))) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	if (!comm[0])
		return;	/* gone */
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	if ((d = opendir(path))) {
		while ((de = readdir(d)))
			if (de->d_name[0] >= '0' && de->d_name[0] <= '9')
				vp_pdw_comm(w, (uint32_t)pid, (uint32_t)atoi(de->d_name), comm);
		closedir(d);
	}
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (!(f = fopen(path, "r")))
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perms[8], file[4097] = "";
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4096[^\n]", &s, &e, perms, &off, file) < 4)
			continue;
		if (perms[2] != 'x')
			continue;	/* only code is sampled */
		char *fn = file + strspn(file, " ");
		if (!*fn)
			fn = "//anon";
		uint32_t prot = (perms[0] == 'r' ? 1 : 0) | (perms[1] == 'w' ? 2 : 0) | 4;
		vp_pdw_mmap2(w, PERF_RECORD_MISC_USER, (uint32_t)pid, (uint32_t)pid, s, e - s, off, prot,
			     perms[3] == 's' ? 1 : 2, fn);
	}
	fclose(f);
}

void vp_synth_existing(struct vp_pdw *w, int command, int system_wide, const pid_t *procs,
		       size_t nprocs)
{
	uint64_t text = kernel_text();
	uint8_t kid[20];
	size_t kn;

	/* Which kernel this is, first in the data: a recording killed before
	 * its header sections were written still says it (perf reads the
	 * record anywhere in the stream). */
	if (vp_kernel_build_id(kid, &kn) == 0)
		vp_pdw_build_id(w, PERF_RECORD_MISC_KERNEL, -1, kid, kn, "[kernel.kallsyms]");

	if (text)	/* the kernel map; its pgoff locates _text (KASLR) */
		vp_pdw_mmap2(w, PERF_RECORD_MISC_KERNEL, UINT32_MAX, 0, text, ~0ull - text, text, 5, 0,
			     "[kernel.kallsyms]_text");
	if (command && !system_wide)
		return;	/* the command's own records come from the kernel after exec */
	if (system_wide) {
		DIR *d = opendir("/proc");
		struct dirent *de;
		while (d && (de = readdir(d)))
			if (de->d_name[0] >= '1' && de->d_name[0] <= '9')
				synth_process(w, atoi(de->d_name));
		if (d)
			closedir(d);
	} else {	/* per process: its threads' names and its maps, once */
		for (size_t i = 0; i < nprocs; i++)
			synth_process(w, procs[i]);
	}
}
