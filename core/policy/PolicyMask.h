#pragma once
// The test-time pruning mask of a policy (Vieira & Eisner 2017, Alg. 1 line 14): span (i,k) with
// 1 < k-i < n is kept iff the policy says keep; width-1 spans and the whole sentence are kept.
#include "core/eval/CorpusEvaluator.h"
#include "core/parse/PruningMask.h"
#include "core/policy/Policy.h"
#include "core/policy/SpanFeatures.h"

namespace prunescope {

// Writes the policy's decisions for every prunable span of the sentence into `out` (its storage
// is reused: no allocation when out already has room for n). Agrees with Policy::keep per span.
void policyMaskInto(const Policy& p, const SentenceFeatures& f, PruningMask& out);
PruningMask policyMask(const Policy& p, const SentenceFeatures& f);

// A MaskFunction for evaluateCorpus: hashes the sentence's features (SentenceFeatures) and applies
// the policy. The policy is held by reference and must outlive the returned function.
MaskFunction policyMaskFunction(const Policy& p);

} // namespace prunescope
