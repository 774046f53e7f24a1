#pragma once
// The rows dep-eval and cube-eval share in their text report: attachment scores and parse cost.
#include "core/dep/DepCorpus.h"

#include <ostream>

namespace prunescope::cli {

// "UAS (no punct)", "UAS (with punct)", "root accuracy", "complete match": fixed, 2 decimals.
void printAttachmentRows(std::ostream& out, const AttachmentScore& total);
// "pushes/sentence" and "tokens/second": fixed, no decimals (the stream keeps that precision).
void printParseCostRows(std::ostream& out, const DepCorpusResult& r);

} // namespace prunescope::cli
