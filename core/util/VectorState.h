#pragma once
// The x86 vector-register state that slows scalar floating point down: while the upper halves of
// the YMM registers are "dirty" (left non-zero by AVX code that did not end with VZEROUPPER), Intel
// CPUs make every legacy-SSE instruction (all of core's double arithmetic in a portable x86-64
// build, and glibc's exp/log wrappers) wait on and merge the whole register. Measured on a Xeon
// (family 6, model 207): the frontier's sigmoid fit 1.4-1.8 s instead of 90 ms, LOLS
// retraining 2.4x slower. Threads inherit the state of the thread that creates them, and
// QApplication's constructor leaves the GUI thread dirty, so the GUI's trainer threads were born
// dirty (docs/benchmarks.md, "GUI responsiveness during training"). Long core work therefore clears
// the state where it starts: parallelFor's workers, the GUI's background threads, the solvers.
namespace prunescope {

// VZEROUPPER when the CPU has AVX; nothing otherwise (and on other architectures). About a cycle.
void clearUpperVectorState() noexcept;

// Whether this thread's upper YMM state is in use (XGETBV with ECX = 1, bit 2), for tests and
// diagnostics; false where the CPU cannot tell (no XGETBV1) or on other architectures.
bool upperVectorStateDirty() noexcept;

// Whether upperVectorStateDirty() can report anything on this CPU (tests skip otherwise).
bool canReadVectorState() noexcept;

} // namespace prunescope
