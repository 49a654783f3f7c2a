/* What a recording says about the machine it ran on: the hypervisor it runs
 * under (CPUID leaf 0x40000000, /sys/hypervisor, DMI), its clocksource,
 * steal time from /proc/stat, the CPUs online. */
#ifndef VP_MACHINE_H
#define VP_MACHINE_H

#include <stddef.h>

/* "none" on bare metal, else e.g. "KVM (QEMU Standard PC ...)", "QEMU TCG". */
void vp_hypervisor(char *buf, size_t size);
/* The kernel's clocksource ("tsc", "kvm-clock"...), "" when unknown: in a
 * guest it says how time itself is kept. */
void vp_clocksource(char *buf, size_t size);
/* Seconds of steal time summed over all CPUs since boot; negative if unknown. */
double vp_steal_seconds(void);
/* Per CPU: steal[cpu] seconds since boot, for CPUs below max (others 0);
 * the number of CPU lines read, 0 when /proc/stat is unreadable. */
size_t vp_steal_per_cpu(double *steal, size_t max);
/* Online CPU numbers (from /sys/devices/system/cpu/online); count returned. */
size_t vp_online_cpus(int *cpus, size_t max);
/* Parse a CPU list like "0-3,6"; -1 on a malformed list. */
int vp_cpu_list_parse(const char *s, int *cpus, size_t max, size_t *n);

#endif
