// Fuzz target: a LOLS run's log.jsonl -> validated iteration records -> their JSON again.
#include "FuzzTarget.h"

#include "core/lols/RunConfig.h"
#include "core/util/Error.h"

namespace {
void fuzzOne(const std::string& text) {
    using namespace prunescope;
    std::vector<LolsIterationRecord> records;
    bool truncated = false;
    try {
        records = logRecordsFromText(text, "log.jsonl", &truncated);
    } catch (const InputError&) {
        return;
    }
    std::string again;
    for (const LolsIterationRecord& r : records)
        again += r.toJson().dump() + "\n";
    // What we write, we read back to the same records.
    const auto back = logRecordsFromText(again, "again.jsonl");
    if (back.size() != records.size()) __builtin_trap();
}
} // namespace

PRUNESCOPE_FUZZ_INPUT(text)
