// Known weights in Go, profiled by Go's own runtime/pprof: h1, h2 and h4 run
// the same loop 1, 2 and 4 times as long, so their CPU profile shares should
// be about 1/7, 2/7 and 4/7 (the Go twin of weights.c).
// Usage: go_weights OUT.pb.gz [ITERATIONS [R1 R2 R4]]  (default 20000000 per
// unit of weight; R1, R2, R4: how many times each function runs, default 5)
// so two runs can differ by known factors.
package main

import (
	"os"
	"runtime/pprof"
	"strconv"
)

var sink uint64

// The same body in each function, never inlined: samples land in the
// function itself.
//
//go:noinline
func h1(n uint64) {
	acc := uint64(0)
	for i := uint64(0); i < n; i++ {
		acc += (i * 2654435761) ^ (acc >> 7)
	}
	sink += acc
}

//go:noinline
func h2(n uint64) {
	acc := uint64(0)
	for i := uint64(0); i < 2*n; i++ {
		acc += (i * 2654435761) ^ (acc >> 7)
	}
	sink += acc
}

//go:noinline
func h4(n uint64) {
	acc := uint64(0)
	for i := uint64(0); i < 4*n; i++ {
		acc += (i * 2654435761) ^ (acc >> 7)
	}
	sink += acc
}

func main() {
	n, r := uint64(20000000), [3]int{5, 5, 5}
	if len(os.Args) > 2 {
		n, _ = strconv.ParseUint(os.Args[2], 10, 64)
	}
	if len(os.Args) > 5 {
		for i := range r {
			r[i], _ = strconv.Atoi(os.Args[3+i])
		}
	}
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		panic(err)
	}
	// interleaved, so a slow moment of the machine falls on all three alike
	for i := 0; i < r[0] || i < r[1] || i < r[2]; i++ {
		if i < r[0] {
			h1(n)
		}
		if i < r[1] {
			h2(n)
		}
		if i < r[2] {
			h4(n)
		}
	}
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		panic(err)
	}
}
