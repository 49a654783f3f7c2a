/* A naive matrix multiply (the PAPI-V timing experiment): CPU-bound, its
 * time in one function, so host and guest compare on pure computation.
 * Usage: matmul [N]  (default 300) */
#include <stdio.h>
#include <stdlib.h>

static double *alloc_matrix(size_t n)
{
	double *m = malloc(n * n * sizeof(*m));
	if (!m) {
		perror("matmul");
		exit(1);
	}
	return m;
}

__attribute__((noinline)) static void fill(double *m, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n * n; i++) {
		seed = seed * 1103515245u + 12345u;
		m[i] = (double)(seed >> 16) / 65536.0;
	}
}

/* i-j-k order on purpose: the column walk of b is what makes it naive. */
__attribute__((noinline)) static void multiply(const double *a, const double *b, double *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			double s = 0;
			for (size_t k = 0; k < n; k++)
				s += a[i * n + k] * b[k * n + j];
			c[i * n + j] = s;
		}
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 300;
	double *a = alloc_matrix(n), *b = alloc_matrix(n), *c = alloc_matrix(n), trace = 0;

	fill(a, n, 1);
	fill(b, n, 2);
	multiply(a, b, c, n);
	for (size_t i = 0; i < n; i++)
		trace += c[i * n + i];
	printf("matmul %zux%zu: trace %.3f\n", n, n, trace);
	free(a);
	free(b);
	free(c);
	return 0;
}
