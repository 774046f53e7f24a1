// Rollouts (paper sec. 4-5, Alg. 2 line 10): the naive reference reparses with each bit flipped.
#include "core/rollout/Rollout.h"

#include "core/eval/Evalb.h"
#include "core/parse/Parser.h"
#include "core/parse/SpanBracketing.h"
#include "core/rollout/ChangePropagator.h"
#include "core/rollout/InsideOutside.h"
#include "core/util/Progress.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace prunescope {

const char* surrogateName(Surrogate s) {
    return s == Surrogate::CP ? "rcp" : "rdp";
}

Surrogate surrogateFromName(const std::string& name) {
    if (name == "rcp" || name == "CP" || name == "cp") return Surrogate::CP;
    if (name == "rdp" || name == "DP" || name == "dp") return Surrogate::DP;
    throw std::invalid_argument("unknown reward surrogate '" + name + "' (expected rcp or rdp)");
}

std::vector<std::pair<int, int>> rolloutSpans(const RolloutRequest& req) {
    if (!req.grammar) throw std::invalid_argument("rollout request without a grammar");
    const int n = static_cast<int>(req.words.size());
    if (req.rollIn.n != n)
        throw std::invalid_argument("roll-in mask is for " + std::to_string(req.rollIn.n) +
                                    " words, sentence has " + std::to_string(n));
    if (!req.spans.empty()) {
        for (const auto& [i, k] : req.spans)
            if (!PruningMask::prunable(n, i, k))
                throw std::invalid_argument("rollout span (" + std::to_string(i) + "," +
                                            std::to_string(k) + ") is not prunable");
        return req.spans;
    }
    std::vector<std::pair<int, int>> spans;
    spans.reserve(PruningMask::prunableCount(n));
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i)
            spans.emplace_back(i, i + w);
    return spans;
}

namespace {
// A content fingerprint of a grammar's rules (every `stride`-th rule), so that per-thread engines
// (which keep derived tables and large reusable buffers) are only reused for their grammar.
std::uint64_t fingerprint(const Grammar& g, std::size_t stride) {
    std::uint64_t h = 1469598103934665603ull ^ static_cast<std::uint64_t>(g.numSymbols());
    auto mix = [&h](const void* data, std::size_t bytes) {
        const auto* p = static_cast<const unsigned char*>(data);
        for (std::size_t b = 0; b < bytes; ++b)
            h = (h ^ p[b]) * 1099511628211ull;
    };
    auto rules = [&](const auto& v) {
        mix(&stride, 0);
        const std::size_t size = v.size();
        mix(&size, sizeof size);
        for (std::size_t r = 0; r < v.size(); r += stride)
            mix(&v[r], sizeof v[r]);
    };
    rules(g.binary);
    rules(g.unary);
    rules(g.rootRules);
    return h;
}

// One engine of type T per thread (and Slot), rebuilt when the grammar changes: a full fingerprint
// when the grammar's address or rule arrays moved, a sampled one otherwise.
template <class T, int Slot = 0> T& engineFor(const Grammar& g) {
    thread_local std::unique_ptr<T> engine;
    thread_local const void* owner[3] = {nullptr, nullptr, nullptr};
    thread_local std::uint64_t full = 0, sampled = 0;
    const void* where[3] = {&g, g.binary.data(), g.unary.data()};
    const bool moved = !std::equal(where, where + 3, owner);
    if (!engine || moved || fingerprint(g, 61) != sampled) {
        const std::uint64_t f = fingerprint(g, 1);
        if (!engine || f != full) engine = std::make_unique<T>(g);
        full = f, sampled = fingerprint(g, 61);
        std::copy(where, where + 3, owner);
    }
    return *engine;
}

// Sets the keep/prune halves of r from the roll-in state's (acc, run) and the flipped state's.
void assign(SpanRollout& r, double accRollIn, double runRollIn, double accFlip, double runFlip) {
    if (r.rollInKeep) {
        r.accuracyKeep = accRollIn, r.runtimeKeep = runRollIn;
        r.accuracyPrune = accFlip, r.runtimePrune = runFlip;
    } else {
        r.accuracyPrune = accRollIn, r.runtimePrune = runRollIn;
        r.accuracyKeep = accFlip, r.runtimeKeep = runFlip;
    }
}
} // namespace

std::vector<SpanRollout> naiveRollouts(const RolloutRequest& req, Surrogate s) {
    const auto spans = rolloutSpans(req);
    const Grammar& g = *req.grammar;
    std::vector<SpanRollout> out;
    out.reserve(spans.size());
    PruningMask mask = req.rollIn;
    if (s == Surrogate::CP) {
        Parser& parser = engineFor<Parser>(g);
        auto measure = [&](double& acc, double& run) {
            const ParseStats st = parser.parse(req.words, &mask);
            acc = sentenceF1(req.gold, bestTree(g, parser.chart(), req.words));
            run = static_cast<double>(st.constituents);
        };
        double acc0 = 0, run0 = 0;
        measure(acc0, run0);
        for (const auto& [i, k] : spans) {
            if (req.cancel && req.cancel->load(std::memory_order_relaxed)) throw Cancelled();
            SpanRollout r{i, k, mask.keep(i, k)};
            mask.flip(i, k);
            double acc = 0, run = 0;
            measure(acc, run);
            mask.flip(i, k);
            assign(r, acc0, run0, acc, run);
            out.push_back(r);
        }
        return out;
    }
    const RecallGold gold = recallGold(g, req.gold);
    InsideOutside& io = engineFor<InsideOutside>(g);
    const double acc0 = io.inside(req.words, mask, gold).recall;
    const double run0 = mask.keptCount();
    for (const auto& [i, k] : spans) {
        if (req.cancel && req.cancel->load(std::memory_order_relaxed)) throw Cancelled();
        SpanRollout r{i, k, mask.keep(i, k)};
        mask.flip(i, k);
        const double acc = io.inside(req.words, mask, gold).recall;
        mask.flip(i, k);
        assign(r, acc0, run0, acc, r.rollInKeep ? run0 - 1 : run0 + 1);
        out.push_back(r);
    }
    return out;
}

std::vector<SpanRollout> changePropagationRollouts(const RolloutRequest& req) {
    const auto spans = rolloutSpans(req);
    ChangePropagator& cp = engineFor<ChangePropagator>(*req.grammar);
    cp.setExactChartSize(false);
    cp.setWorkBudget(req.cpWorkBudget.value_or(ChangePropagator::kDefaultRolloutWorkBudget));
    cp.reset(req.words, req.rollIn);
    cp.setTrackPushes(false);
    cp.setGold(req.gold);
    const double acc0 = cp.currentF1();
    const double run0 = static_cast<double>(cp.constituents());
    std::vector<SpanRollout> out;
    out.reserve(spans.size());
    for (const auto& [i, k] : spans) {
        SpanRollout r{i, k, req.rollIn.keep(i, k)};
        const ChangePropagator::Probe p = cp.probeFlip(i, k);
        assign(r, acc0, run0, p.f1, static_cast<double>(p.constituents));
        out.push_back(r);
    }
    return out;
}

std::vector<SpanRollout> dpRollouts(const RolloutRequest& req, DpRolloutStats* stats) {
    const auto spans = rolloutSpans(req);
    const Grammar& g = *req.grammar;
    const RecallGold gold = recallGold(g, req.gold);
    InsideOutside& io = engineFor<InsideOutside>(g);
    io.run(req.words, req.rollIn, gold);
    const double acc0 = io.current().recall;
    const double run0 = req.rollIn.keptCount();
    std::vector<SpanRollout> out;
    out.reserve(spans.size());
    InsideOutside* exact = nullptr; // for ill-conditioned flips (eq. 3 would cancel digits)
    SpanBracketing bracketing;      // ... unless the flip leaves no bracketing, hence no parse
    PruningMask mask;
    for (const auto& [i, k] : spans) {
        SpanRollout r{i, k, req.rollIn.keep(i, k)};
        double acc;
        if (r.rollInKeep && io.gradient(i, k).illConditioned) {
            if (!exact) exact = &engineFor<InsideOutside, 1>(g), mask = req.rollIn;
            mask.flip(i, k);
            if (!bracketing.exists(
                    mask)) { // no derivation at all: Z' = 0, r̄ = 0, as the inside pass says
                acc = 0.0;
                if (stats) ++stats->noBracketing;
            } else {
                acc = exact->inside(req.words, mask, gold).recall;
                if (stats) ++stats->recomputed;
            }
            mask.flip(i, k);
        } else {
            acc = io.flipped(i, k).recall;
        }
        assign(r, acc0, run0, acc, r.rollInKeep ? run0 - 1 : run0 + 1);
        out.push_back(r);
    }
    return out;
}

std::vector<SpanRollout> dpRollouts(const RolloutRequest& req) {
    return dpRollouts(req, nullptr);
}

} // namespace prunescope
