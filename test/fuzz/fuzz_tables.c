/* vmprof's CSV and XML tables and saved comparisons, and perf report text. */
#include "fuzz.h"

#include "converters/formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vp_profile *p = NULL;
	struct vp_comparison *c = NULL;
	struct vp_error err = { 0 };
	const char *s = (const char *)data;

	vp_fuzz_quiet();
	if (vp_profile_read_csv("in", s, size, &p, &err) == 0)
		vp_profile_free(p);
	if (vp_profile_read_xml("in", s, size, &p, &err) == 0)
		vp_profile_free(p);
	if (vp_profile_read_perf_text("in", s, size, &p, &err) == 0)
		vp_profile_free(p);
	if (vp_cmp_read_xml("in", s, size, &c, &err) == 0)
		vp_comparison_free(c);
	if (vp_cmp_read_csv("in", s, size, &c, &err) == 0)
		vp_comparison_free(c);
	(void)vp_input_detect(s, size);
	return 0;
}
