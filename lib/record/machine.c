/* Machine facts for recordings (see machine.h). */
#include "machine.h"

#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

void vp_hypervisor(char *buf, size_t size)
{
	unsigned a, b, c, d;
	char sig[13] = "", vendor[128], product[128], xen[64];
	const char *name = NULL;
	int bit = 0;

#if defined(__x86_64__) || defined(__i386__)
	if (__get_cpuid(1, &a, &b, &c, &d))
		bit = !!(c & (1u << 31));	/* "hypervisor present" */
	if (bit) {
		__cpuid(0x40000000, a, b, c, d);
		memcpy(sig, &b, 4);
		memcpy(sig + 4, &c, 4);
		memcpy(sig + 8, &d, 4);
		sig[12] = '\0';
	}
#endif
	read_line("/sys/hypervisor/type", xen, sizeof(xen));
	read_line("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	read_line("/sys/class/dmi/id/product_name", product, sizeof(product));
	if (!strncmp(sig, "KVMKVMKVM", 9))
		name = "KVM";
	else if (!strcmp(sig, "TCGTCGTCGTCG"))
		name = "QEMU TCG";
	else if (!strcmp(sig, "VMwareVMware"))
		name = "VMware";
	else if (!strcmp(sig, "Microsoft Hv"))
		name = "Hyper-V";
	else if (!strcmp(sig, "XenVMMXenVMM") || xen[0])
		name = "Xen";
	else if (!strncmp(sig, "bhyve", 5))
		name = "bhyve";
	else if (!strncmp(sig, " lrpepyh  vr", 12) || !strncmp(sig, "prl hyperv", 10))
		name = "Parallels";
	if (!bit && !name) {
		snprintf(buf, size, "none");
		return;
	}
	if (!name)
		name = sig[0] ? sig : "unknown";
	if (vendor[0] || product[0])
		snprintf(buf, size, "%s (%s%s%s)", name, vendor, vendor[0] && product[0] ? " " : "", product);
	else
		snprintf(buf, size, "%s", name);
}

void vp_clocksource(char *buf, size_t size)
{
	read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", buf, size);
}

double vp_steal_seconds(void)
{
	FILE *f = fopen("/proc/stat", "r");
	unsigned long long v[8] = { 0 };
	char line[512];
	double r = -1;

	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f) &&
	    sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
		   &v[5], &v[6], &v[7]) == 8)
		r = (double)v[7] / (double)sysconf(_SC_CLK_TCK);
	fclose(f);
	return r;
}

size_t vp_steal_per_cpu(double *steal, size_t max)
{
	FILE *f = fopen("/proc/stat", "r");
	unsigned long long v[8];
	char line[512];
	unsigned cpu;
	size_t n = 0;

	for (size_t i = 0; i < max; i++)
		steal[i] = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu%u %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2],
			   &v[3], &v[4], &v[5], &v[6], &v[7]) == 9 && cpu < max) {
			steal[cpu] = (double)v[7] / (double)sysconf(_SC_CLK_TCK);
			n++;
		}
	fclose(f);
	return n;
}

int vp_cpu_list_parse(const char *s, int *cpus, size_t max, size_t *n)
{
	*n = 0;
	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b;
		if (end == s || a < 0 || a > 65535)
			return -1;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a || b > 65535)
				return -1;
		}
		for (long c = a; c <= b; c++) {
			if (*n == max)
				return -1;
			cpus[(*n)++] = (int)c;
		}
		s = end;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -1;
	}
	return *n ? 0 : -1;
}

size_t vp_online_cpus(int *cpus, size_t max)
{
	char buf[1024];
	size_t n = 0;

	read_line("/sys/devices/system/cpu/online", buf, sizeof(buf));
	if (vp_cpu_list_parse(buf, cpus, max, &n) < 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		for (n = 0; n < (size_t)c && n < max; n++)
			cpus[n] = (int)n;
	}
	return n;
}
