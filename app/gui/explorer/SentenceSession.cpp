#include "app/gui/explorer/SentenceSession.h"

#include "core/eval/Evalb.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/parse/Parser.h"
#include "core/policy/GoldSpans.h"
#include "core/rollout/InsideOutside.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace prunescope::gui {

std::vector<LabeledSpan> scoredBrackets(const Tree& t) {
    std::vector<LabeledSpan> out;
    auto walk = [&](auto&& self, const Tree& n, int begin) -> int {
        if (n.isLeaf()) return begin + 1;
        int end = begin;
        for (const Tree& c : n.children)
            end = self(self, c, end);
        if (!n.isPreterminal() && n.label != "ROOT") out.push_back({n.label, begin, end});
        return end;
    };
    walk(walk, t, 0);
    return out;
}

// Bytes per (cell, symbol) of the change propagator's dense arrays, both layers (pre and post):
// score and witness (8), the exact-probe stamp and first-user index (8), the best-derivation flag
// and the dirty list (~5), rounded up.
constexpr std::size_t kPropagatorBytesPerEntry = 2 * 24;

namespace {
std::size_t sessionBytes(const Parser& parser, const Grammar& g, int n) {
    const std::size_t cells = static_cast<std::size_t>(n) * (static_cast<std::size_t>(n) + 1) / 2;
    return parser.denseBytes(n) +
           cells * static_cast<std::size_t>(g.numSymbols()) * kPropagatorBytesPerEntry;
}
} // namespace

std::size_t sessionBytes(const Grammar& g, int n) {
    return sessionBytes(Parser(g), g, n);
}

void checkSessionFits(const Grammar& g, int n, std::size_t budget) {
    Parser parser(g);
    parser.setMemoryBudget(std::numeric_limits<std::size_t>::max());
    parser.checkFits(n); // the length limit and 32-bit chart indices; the budget is checked below
    const std::size_t need = sessionBytes(parser, g, n);
    if (need <= budget) return;
    int fits = 1; // the longest sentence within the budget (need grows with n)
    for (int step = 1 << 12; step > 0; step >>= 1)
        if (fits + step < n && sessionBytes(parser, g, fits + step) <= budget) fits += step;
    throw SentenceTooLarge("a sentence of " + std::to_string(n) + " words needs about " +
                           std::to_string((need + (1u << 20) - 1) >> 20) +
                           " MiB to explore, more than the memory budget of " +
                           std::to_string(budget >> 20) +
                           " MiB (the CLI's parser budget); with "
                           "this grammar the explorer takes sentences of up to " +
                           std::to_string(fits) + " words");
}

SentenceSession::SentenceSession(std::shared_ptr<const Grammar> g,
                                 std::shared_ptr<const Policy> policy, SentenceItem item)
    : g_(std::move(g)), policy_(std::move(policy)), item_(std::move(item)), features_(item_.words) {
    int n = length();
    checkSessionFits(*g_, n, kDefaultParserMemoryBudget); // before anything of size n² is made
    policyMask_ = PruningMask::allKeep(n);
    if (policy_)
        for (int w = 2; w < n; ++w)
            for (int i = 0; i + w <= n; ++i)
                policyMask_.set(i, i + w, policy_->keep(features_.features(i, i + w)));
    if (item_.gold) {
        try {
            binarizedGold_ = binarizeLike(*g_, *item_.gold);
            goldInd_ = spanIndicator(*binarizedGold_);
        } catch (const std::exception&) {
            binarizedGold_.reset(); // gold not binarizable with this grammar: no outlines
        }
    }
    setMask(policyMask_);
}

PruningMask SentenceSession::goldMask() const {
    return binarizedGold_ ? spanMask(*binarizedGold_) : PruningMask::allKeep(length());
}

void SentenceSession::refresh() {
    afterChange(prop_->current());
}

void SentenceSession::afterChange(FlipResult r) {
    // r.tree is the CLI's tree: Parser's bestTree over the current chart (its fallback if failed).
    result_ = std::move(r);
    result_.events.clear();
    try {
        f1_ = item_.gold ? sentenceF1(*item_.gold, result_.tree) : std::nan("");
    } catch (const std::exception&) {
        f1_ = std::nan(""); // a pair EVALB cannot score (different words): shown as "—"
    }
    recallDelta_.clear();
    int n = length();
    bestInd_.assign(static_cast<std::size_t>(n + 1) * (n + 1), 0);
    if (result_.success) {
        Tree bin = bestBinarizedTree(*g_, chart(), words());
        for (const LabeledSpan& s : labeledSpans(bin))
            if (s.end > s.begin && s.end <= n) bestInd_[idx(s.begin, s.end)] = 1;
    }
}

void SentenceSession::setMask(const PruningMask& m) {
    prop_ = std::make_unique<ChangePropagator>(*g_, item_.words, m);
    if (item_.gold) prop_->setGold(*item_.gold);
    propFlips_.clear();
    lastEvents_.clear();
    refresh();
}

void SentenceSession::flip(int i, int k) {
    FlipResult r = prop_->flip(i, k);
    propFlips_.push_back({i, k});
    lastEvents_ = std::move(r.events);
    afterChange(std::move(r));
}

void SentenceSession::undoFlip(int i, int k) {
    if (prop_->canUndo() && !propFlips_.empty() && propFlips_.back() == std::pair{i, k}) {
        prop_->undo();
        propFlips_.pop_back();
        lastEvents_.clear();
        refresh();
    } else {
        flip(i, k);
        lastEvents_.clear();
    }
}

double SentenceSession::keepProbability(int i, int k) const {
    if (!policy_ || k - i < 1) return std::nan("");
    return policy_->keepProbability(features_.features(i, k));
}

float SentenceSession::bestScore(int i, int k) const {
    const float* row = chart().postRow(i, k);
    return *std::max_element(row, row + chart().numSymbols);
}

int SentenceSession::constituents(int i, int k) const {
    const float* row = chart().postRow(i, k);
    return static_cast<int>(
        std::count_if(row, row + chart().numSymbols, [](float v) { return v != kNegInf; }));
}

std::vector<std::pair<std::string, float>> SentenceSession::topLabels(int i, int k,
                                                                      int count) const {
    const float* row = chart().postRow(i, k);
    std::vector<std::pair<std::string, float>> out;
    for (int s = 0; s < chart().numSymbols; ++s)
        if (row[s] != kNegInf) out.push_back({g_->symbols[s], row[s]});
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    if (static_cast<int>(out.size()) > count) out.resize(count);
    return out;
}

std::vector<std::string> SentenceSession::featureStrings(int i, int k) const {
    return spanFeatureStrings(item_.words, i, k);
}

void SentenceSession::computeRecall() const {
    int n = length();
    recallDelta_.assign(static_cast<std::size_t>(n + 1) * (n + 1), std::nan(""));
    expectedRecall_ = std::nan("");
    if (!item_.gold) return;
    try {
        RecallGold rg = recallGold(*g_, *item_.gold);
        InsideOutside io(*g_), exact(*g_);
        io.run(words(), mask(), rg);
        expectedRecall_ = io.current().recall;
        for (int w = 2; w < n; ++w)
            for (int i = 0; i + w <= n; ++i) {
                int k = i + w;
                double other;
                if (io.gradient(i, k)
                        .illConditioned) { // eq. 3 would cancel: recompute this flip exactly
                    PruningMask m = mask();
                    m.flip(i, k);
                    other = exact.inside(words(), m, rg).recall;
                } else {
                    other = io.flipped(i, k).recall;
                }
                recallDelta_[idx(i, k)] =
                    mask().keep(i, k) ? expectedRecall_ - other : other - expectedRecall_;
            }
    } catch (const std::exception&) {
        recallDelta_.assign(recallDelta_.size(), std::nan("")); // gold not usable with this grammar
    }
}

double SentenceSession::recallContribution(int i, int k) const {
    if (recallDelta_.empty()) computeRecall();
    return recallDelta_[idx(i, k)];
}

double SentenceSession::expectedRecall() const {
    if (recallDelta_.empty()) computeRecall();
    return expectedRecall_;
}

std::vector<LabeledSpan> SentenceSession::predictedBrackets() const {
    return scoredBrackets(result_.tree);
}

std::vector<LabeledSpan> SentenceSession::goldBrackets() const {
    return item_.gold ? scoredBrackets(*item_.gold) : std::vector<LabeledSpan>{};
}

} // namespace prunescope::gui
