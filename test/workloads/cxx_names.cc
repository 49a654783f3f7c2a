// C++ names of every kind perf must demangle: templates, std::map<int, int>::find,
// operators, overloads, a lambda, a constructor, a const method, a namespace.
// Usage: cxx_names [ROUNDS]
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace vp_fixture {

template <typename T, int N> struct Box {
	T v[N];
	__attribute__((noinline)) T sum() const
	{
		T s = T();
		for (int r = 0; r < 2000; r++)
			for (int i = 0; i < N; i++)
				s += v[i] * (T)(r + 1);
		return s;
	}
};

struct Acc {
	long total = 0;
	__attribute__((noinline)) Acc &operator+=(long x)
	{
		for (int i = 0; i < 300; i++)
			total += (x ^ i) & 0xff;
		return *this;
	}
	__attribute__((noinline)) long scale(int x) const { return total * x + 1; }
	__attribute__((noinline)) double scale(double x) const
	{
		double r = 0;
		for (int i = 0; i < 200; i++)
			r += x * i;
		return r;
	}
};

__attribute__((noinline)) long lookups(const std::map<int, int> &m, int rounds)
{
	long hits = 0;
	for (int r = 0; r < rounds; r++)
		for (int k = 0; k < 4096; k++) {
			auto it = m.find(k * 7);
			if (it != m.end())
				hits += it->second;
		}
	return hits;
}

} // namespace vp_fixture

volatile long sink;

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? std::atoi(argv[1]) : 150;
	std::map<int, int> m;
	for (int i = 0; i < 20000; i++)
		m[i * 3] = i;
	vp_fixture::Box<double, 64> bd{};
	vp_fixture::Box<int, 32> bi{};
	for (int i = 0; i < 64; i++)
		bd.v[i] = i * 0.5;
	for (int i = 0; i < 32; i++)
		bi.v[i] = i;
	vp_fixture::Acc acc;
	auto spin = [&](int n) __attribute__((noinline)) {
		long s = 0;
		for (int i = 0; i < n * 1000; i++)
			s += i % 13;
		return s;
	};
	for (int r = 0; r < rounds; r++) {
		sink += vp_fixture::lookups(m, 1);
		sink += (long)bd.sum() + bi.sum();
		acc += r;
		sink += acc.scale(r) + (long)acc.scale(0.5 * r);
		sink += spin(20);
	}
	return 0;
}
