#pragma once
// Clocks for benchmarks and decoders' cpuSeconds (docs/benchmarks.md: every speed figure is thread
// CPU time unless it says wall time).
namespace prunescope {

// CPU time of the calling thread, in seconds (CLOCK_THREAD_CPUTIME_ID): unaffected by other
// processes on a shared machine, so benchmarks compare code, not load.
double threadCpuSeconds();

// Monotonic wall-clock time in seconds (std::chrono::steady_clock), for latency and parallel
// speed-ups.
double wallSeconds();

} // namespace prunescope
