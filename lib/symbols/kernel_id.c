/* Kernel identity: the running kernel's build-id and the decision whether a
 * recording's kernel samples may be named from this machine's kallsyms. */
#include "kernel_id.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

int vp_kernel_build_id(uint8_t id[20], size_t *size)
{
	uint8_t buf[4096];
	FILE *f = fopen("/sys/kernel/notes", "r");
	size_t n, off = 0;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	/* ELF notes: namesz, descsz, type, then name and desc, each 4-aligned */
	while (off + 12 <= n) {
		uint32_t namesz, descsz, type;
		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		size_t name_off = off + 12, desc_off = name_off + ((namesz + 3) & ~3u);
		if (namesz > n || descsz > n || desc_off + descsz > n)
			break;
		if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 && !memcmp(buf + name_off, "GNU", 4) &&
		    descsz > 0 && descsz <= 20) {
			memcpy(id, buf + desc_off, descsz);
			*size = descsz;
			return 0;
		}
		off = desc_off + ((descsz + 3) & ~3u);
	}
	return -1;
}

static void hex(char *out, const uint8_t *id, size_t size)
{
	for (size_t i = 0; i < size; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * size] = '\0';
}

/* The host kernel's entry among the file's build-ids, NULL when none. */
static const struct vp_build_id *file_kernel_build_id(const struct vp_perfdata *pd)
{
	size_t n;
	const struct vp_build_id *b = vp_perfdata_build_ids(pd, &n);

	for (size_t i = 0; i < n; i++)
		if ((b[i].misc & VP_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL && b[i].size &&
		    !strcmp(b[i].filename, "[kernel.kallsyms]"))
			return &b[i];
	return NULL;
}

enum vp_kernel_match vp_kernel_match_file(const struct vp_perfdata *pd, const char *osrelease,
					  char *why, size_t n)
{
	const struct vp_build_id *fb = file_kernel_build_id(pd);
	uint8_t id[20];
	size_t size;
	struct utsname u;

	if (fb && vp_kernel_build_id(id, &size) == 0) {
		char a[41], b[41];
		hex(a, fb->id, fb->size);
		hex(b, id, size);
		snprintf(why, n, "its kernel has build-id %s, this machine's %s", a, b);
		return fb->size == size && !memcmp(fb->id, id, size) ? VP_KERNEL_THIS : VP_KERNEL_OTHER;
	}
	if (osrelease && uname(&u) == 0) {
		snprintf(why, n, "it was recorded on kernel %s, this machine runs %s", osrelease,
			 u.release);
		return strcmp(osrelease, u.release) ? VP_KERNEL_OTHER : VP_KERNEL_THIS;
	}
	snprintf(why, n, "it does not say which kernel it was recorded on");
	return VP_KERNEL_UNKNOWN;
}
