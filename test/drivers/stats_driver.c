/* Drives lib/compare/stats from text, for test/integration/stats_oracle.sh,
 * on 4 threads (as compare shares an event's rows among its CPUs):
 * cases in (format in test/stats_oracle.py), one line per row out, every
 * number with 17 significant digits, so the oracle can check them exactly. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compare/stats.h"

static int word(const char *want)
{
	char w[16];

	return scanf("%15s", w) == 1 && !strcmp(w, want);
}

static int nums(double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (scanf("%lf", &v[i]) != 1)
			return 0;
	return 1;
}

static void put(double v)
{
	if (isnan(v))
		printf(" nan");
	else
		printf(" %.17g", v);
}

int main(void)
{
	double alpha;
	size_t nrows, na, nb;

	while (word("case") && scanf("%zu %zu %zu %lf", &nrows, &na, &nb, &alpha) == 4) {
		double *ta = calloc(na, sizeof(double)), *tca = calloc(na, sizeof(double));
		double *tb = calloc(nb, sizeof(double)), *tcb = calloc(nb, sizeof(double));
		double *xa = calloc(nrows * na + 1, sizeof(double)), *ca = calloc(nrows * na + 1, sizeof(double));
		double *xb = calloc(nrows * nb + 1, sizeof(double)), *cb = calloc(nrows * nb + 1, sizeof(double));
		struct vp_stat_result *res = calloc(nrows + 1, sizeof(*res));
		struct vp_stat_runs a = { nrows, na, 0, xa, ca, ta, tca }, b = { nrows, nb, 0, xb, cb, tb, tcb };
		size_t flagged;
		int rc;

		if (!ta || !tca || !tb || !tcb || !xa || !ca || !xb || !cb || !res)
			return 3;
		if (!word("tA") || !nums(ta, na) || !word("tcA") || !nums(tca, na) ||
		    !word("tB") || !nums(tb, nb) || !word("tcB") || !nums(tcb, nb))
			return 2;
		for (size_t r = 0; r < nrows; r++)
			if (!word("r") || !nums(xa + r * na, na) || !nums(ca + r * na, na) ||
			    !nums(xb + r * nb, nb) || !nums(cb + r * nb, nb))
				return 2;
		rc = vp_stat_event(&a, &b, alpha, 4, res);
		if (rc < 0) {
			printf("error %d\n", rc);
		} else {
			for (size_t r = 0; r < nrows; r++) {
				printf("row");
				put(res[r].ratio);
				put(res[r].ratio_lo);
				put(res[r].ratio_hi);
				put(res[r].delta_pp);
				put(res[r].delta_lo);
				put(res[r].delta_hi);
				put(res[r].p);
				put(res[r].q);
				printf(" %d %s\n", res[r].significant,
				       res[r].basis == VP_STAT_RUNS ? "runs" : "sampling");
			}
			rc = vp_stat_aa_floor(&a, alpha, 4, &flagged);
			if (rc == 0)
				printf("floor %zu\n", flagged);
			else
				printf("floor - %d\n", rc);
		}
		free(ta), free(tca), free(tb), free(tcb), free(xa), free(ca), free(xb), free(cb), free(res);
	}
	return ferror(stdout) ? 1 : 0;
}
