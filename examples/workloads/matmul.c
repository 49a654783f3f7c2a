/* Naive matrix multiply (the PAPI-V timing experiment): C = A * B on N x N
 * doubles with the textbook i-j-k loop, which strides through B column-wise.
 * Usage: matmul [N] [REPEAT]    Prints a checksum so the work is not elided. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void fill(double *m, int n, unsigned seed)
{
	for (int i = 0; i < n * n; i++) {
		seed = seed * 1103515245u + 12345u;
		m[i] = (double)(seed >> 16 & 0x7fff) / 32768.0;
	}
}

__attribute__((noinline)) static void multiply(const double *a, const double *b, double *c, int n)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double sum = 0;
			for (int k = 0; k < n; k++)
				sum += a[i * n + k] * b[k * n + j];
			c[i * n + j] = sum;
		}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 300;
	int repeat = argc > 2 ? atoi(argv[2]) : 1;
	if (n < 1 || n > 4096 || repeat < 1) {
		fprintf(stderr, "usage: matmul [N (1-4096)] [REPEAT]\n");
		return 2;
	}
	double *a = malloc(sizeof(double) * n * n), *b = malloc(sizeof(double) * n * n);
	double *c = malloc(sizeof(double) * n * n);
	if (!a || !b || !c) {
		fprintf(stderr, "matmul: out of memory\n");
		return 1;
	}
	fill(a, n, 1);
	fill(b, n, 2);
	double check = 0;
	for (int r = 0; r < repeat; r++) {
		multiply(a, b, c, n);
		check += c[(r * 7) % (n * n)];
	}
	printf("matmul: n=%d repeat=%d checksum=%.6f\n", n, repeat, check);
	free(a);
	free(b);
	free(c);
	return 0;
}
