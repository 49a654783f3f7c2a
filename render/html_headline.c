/* The HTML report's headline: each side's wall time against the
 * baseline's, and the gap. */
#include "html_internal.h"

#include <stdio.h>

int vp_html_headline(xmlNodePtr main, const struct vp_comparison *c, const struct vp_chart_opts *o)
{
	xmlNodePtr sec = vp_h_el(main, "section", "headline"), p;
	const struct vp_profile_meta *b = vp_hm_meta(c, 0);
	size_t k = vp_hm_nsides(c);

	vp_h_attr(sec, "id", "headline");
	vp_h_attr(sec, "aria-labelledby", "headline-h");
	vp_h_attr(vp_h_text(sec, "h2", NULL, "Headline: wall time"), "id", "headline-h");
	for (size_t s = 1; s < k; s++) {
		const struct vp_profile_meta *m = vp_hm_meta(c, s);
		p = vp_h_el(sec, "p", "lede");
		if (b->duration > 0 && m->duration >= 0)
			vp_h_addf(p, "%s took %.3f s of wall time, %s %.3f s: %+.3f s (%+.1f%%).",
				  vp_hm_label(c, s), m->duration, vp_hm_label(c, 0), b->duration,
				  m->duration - b->duration, 100 * (m->duration - b->duration) / b->duration);
		else
			vp_h_addf(p, "The recordings of %s and %s do not both say how long they took "
				  "(perf record does not store it; vmprof record does).", vp_hm_label(c, 0),
				  vp_hm_label(c, s));
	}
	vp_h_text(sec, "p", "note", "Where the gap goes (user and kernel CPU, steal, waiting, blocked) "
		  "is not split here: this vmprof's comparisons do not carry the time split yet.");
	(void)o;
	return 0;
}
