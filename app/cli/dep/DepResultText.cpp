#include "app/cli/dep/DepResultText.h"

#include <algorithm>
#include <iomanip>

namespace prunescope::cli {

void printAttachmentRows(std::ostream& out, const AttachmentScore& total) {
    out << std::fixed << std::setprecision(2) << "UAS (no punct)       " << total.uas() << "\n"
        << "UAS (with punct)     " << total.uasWithPunct() << "\n"
        << "root accuracy        " << total.rootAccuracy() << "\n"
        << "complete match       " << total.completeMatch() << "\n";
}

void printParseCostRows(std::ostream& out, const DepCorpusResult& r) {
    out << std::fixed << std::setprecision(0) << "pushes/sentence      "
        << static_cast<double>(r.pushes) / std::max<std::size_t>(1, r.sentences.size()) << "\n"
        << "tokens/second        " << r.tokensPerSecond() << "\n";
}

} // namespace prunescope::cli
