#pragma once
// The bytes a LOLS rollout worker sends back per iteration (Vieira & Eisner 2017, Alg. 2 lines
// 6-11; footnote 15's consolidated reward vectors) and the policy it receives: plain little-endian
// buffers for any transport (core/lols_mpi sends them over MPI). Kept MPI-free so the encoding is
// tested on its own. Sizes (docs/user-guide.md "Running LOLS on a cluster"): per sentence 40 bytes
// + 24 per reward vector; per policy 12 bytes + 8 per nonzero weight.
#include "core/lols/Lols.h"
#include "core/policy/Policy.h"

#include <span>
#include <string>
#include <vector>

namespace prunescope {

// positions[x]'s result is results[x]; `rollouts` (the raw SpanRollouts) are not sent.
std::string encodeSentenceRollouts(std::span<const int> positions,
                                   std::span<const SentenceRollouts> results);
// Writes each decoded result into out[position]; throws std::runtime_error naming `source` on a
// malformed buffer or a position outside out.
void decodeSentenceRollouts(const std::string& bytes, std::vector<SentenceRollouts>& out,
                            const std::string& source);

// The roll-in part of a policy: its threshold and nonzero weights (meta is not sent).
std::string encodeRollInPolicy(const Policy& p);
Policy decodeRollInPolicy(const std::string& bytes, const std::string& source);

} // namespace prunescope
