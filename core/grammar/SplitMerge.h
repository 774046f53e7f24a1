#pragma once
// Split-merge latent-variable PCFGs (Petrov, Barrett, Thibaux & Klein 2006, sec. 2-3): the "fine"
// grammar of Vieira & Eisner (2017) sec. 6. Starting from the binarized X-bar (Markov order 0)
// treebank grammar, each cycle splits every symbol but ROOT in two, runs EM with inside-outside
// constrained to the gold trees, merges back the half of the splits whose merge loses least
// likelihood (the paper's approximation) and smooths each refinement toward its base symbol.
//
// Contract against the naive computation (tests/grammar/test_split_merge.cpp): the scaled
// inside pass gives the likelihood of a tree that summing P over every refinement of every node
// gives; a split with zero perturbation and a merge of every split right after a split leave
// every tree's likelihood unchanged; an EM iteration without smoothing never lowers the training
// likelihood; any thread count gives bit-identical grammars (fixed chunks, summed in order).
#include "core/grammar/Grammar.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/treebank/Tree.h"
#include "core/util/Progress.h"

#include <cstdint>
#include <string>
#include <vector>

namespace prunescope {

// The base rules of a binarized treebank grammar and the probabilities of their refinements.
// A base symbol b has subs[b] refinements b^0 .. b^(subs[b]-1) (ROOT always 1). Every base rule
// owns a dense block of prob, starting at `at`: binary A -> B C holds P(A^x -> B^y C^z) at
// at + (x * subs[B] + y) * subs[C] + z; unary A -> B at at + x * subs[B] + y; a root rule
// ROOT -> B at at + y; a lexical entry A -> w at at + x.
struct LatentGrammar {
    struct Binary {
        SymbolId parent, left, right;
        std::size_t at;
    };
    struct Unary {
        SymbolId parent, child;
        std::size_t at;
    };
    struct Lexical {
        SymbolId tag;
        WordId word;
        std::size_t at;
    };
    std::vector<std::string> symbols; // base symbols (ids as in the X-bar Grammar)
    SymbolId root = 0;
    std::vector<int> subs;              // per base symbol
    std::vector<std::size_t> subOffset; // per base symbol: first refined index (prefix sums)
    std::vector<Binary> binary;
    std::vector<Unary> unary;
    std::vector<Unary> rootRules; // parent == root
    std::vector<std::string> words;
    std::vector<Lexical> lexical;
    std::vector<double> prob;     // every refined rule probability (blocks above)
    std::vector<double> fallback; // per refined symbol: P(word with an unseen signature | symbol)
    nlohmann::json options;       // the X-bar grammar's options

    std::size_t refinedSymbols() const { return subOffset.empty() ? 0 : subOffset.back(); }
    // Recomputes subOffset and every block's `at` from subs; resizes prob and fallback.
    void layout();
};

// The most binary rules a Grammar holds plus one (Grammar::finalize refuses 2^20 or more: the
// parser's witnesses keep a rule index in 20 bits).
inline constexpr std::size_t kMaxBinaryRules = std::size_t{1} << 20;

// The latent grammar with one refinement per symbol: exactly the Grammar's probabilities.
LatentGrammar latentFromBase(const Grammar& base);
// The fine Grammar: ROOT, then b^0 .. b^(k-1) for every other base symbol b in base order; its
// baseLabel projects each refined symbol to b. Refinements of probability 0 are left out.
// Throws std::invalid_argument when more than kMaxBinaryRules - 1 binary refinements remain.
Grammar fineGrammar(const LatentGrammar& g, const nlohmann::json& extraOptions = {});
// Reads the refinement probabilities of `fine` (a fineGrammar file) into base's base rules: the
// resume path. Throws std::invalid_argument naming the first symbol or rule that does not fit.
LatentGrammar latentFromFine(const LatentGrammar& base, const Grammar& fine);

// Gold trees compiled against the base rules (binarized as the base grammar says). A tree
// using a base rule or a (tag, word) pair the grammar lacks cannot be scored: it is skipped and
// counted (dev trees; never a training tree).
struct LatentTrees {
    struct Node {
        enum Kind : std::uint8_t { Lexical, Fallback, Unary, Binary, Root } kind;
        bool rare = false; // a training word seen at most rareWordThreshold times
        SymbolId symbol = 0;
        std::uint32_t rule = 0; // index into binary / unary / rootRules / lexical
        std::int32_t left = -1, right = -1;
    };
    std::vector<std::vector<Node>> trees; // nodes in postorder, the root last
    std::size_t skipped = 0;
};
// normalized: trees from readNormalizedTreebank. Word lookup is the parser's: the word if the
// grammar knows it, else its unknown-word signature, else the fallback.
LatentTrees compileLatentTrees(const Grammar& base, const LatentGrammar& g,
                               const std::vector<Tree>& normalized);

struct EmStep {
    double logLikelihood = 0; // of the trees under the grammar the E-step used
    LatentGrammar next;       // after the M-step (and smoothing)
};
struct SmoothingOptions {
    double phrasal = 0.01; // alpha for binary and unary rules (Petrov et al. 2006, sec. 2.3)
    double lexical = 0.1;  // alpha for lexical entries
};
// Total log likelihood of the trees (natural log). threads <= 0: all cores.
double latentLogLikelihood(const LatentGrammar& g, const LatentTrees& trees, int threads = 1,
                           const Progress& progress = {});
// One EM iteration: E-step over fixed chunks of the trees, per-chunk sums added in chunk order.
EmStep emIteration(const LatentGrammar& g, const LatentTrees& trees, const SmoothingOptions& smooth,
                   int threads = 1, const Progress& progress = {});
// Every symbol but ROOT in two: b^x becomes b^(2x) and b^(2x+1), each rule's probability shared
// evenly among the children's refinements, then every probability times (1 + perturbation * u),
// u uniform in [-1, 1) from the seeded stream, and renormalized per refined parent.
LatentGrammar splitLatent(const LatentGrammar& g, double perturbation, std::uint64_t seed);
// Per split pair (b, j) = (b^(2j), b^(2j+1)): the approximate log likelihood lost by merging it
// (Petrov et al. 2006, sec. 2.2), in pair order (base symbol, then j).
struct SplitPair {
    SymbolId symbol;
    int pair;
    double loss;
};
std::vector<SplitPair> mergeLosses(const LatentGrammar& g, const LatentTrees& trees,
                                   int threads = 1);
// Merges the fraction of pairs with least loss (ties by symbol, pair) back into one refinement:
// a parent's rules averaged by the refinements' expected counts, a child's summed.
LatentGrammar mergeLatent(const LatentGrammar& g, const LatentTrees& trees, double fraction,
                          int threads = 1, int* merged = nullptr);

struct SplitMergeOptions {
    int cycles = 1;         // N: 0..8
    GrammarOptions grammar; // binarization (Markov order 0 by default) and rare words
    std::uint64_t seed = 1;
    double perturbation = 0.01;
    double mergeFraction = 0.5;
    SmoothingOptions smoothing;
    int splitIterations = 50; // EM iterations after a split, at most
    int mergeIterations = 20; // after a merge, at most
    // EM keeps the iterate of best held-out likelihood (at least the first) and stops after this
    // many iterations without a better one.
    int patience = 2;
    int threads = 0;
    // Non-empty: after every finished cycle k the fine grammar is written atomically to
    // checkpointPrefix + ".sm<k>", and a run finding such a file of the same settings resumes
    // after the highest k below N.
    std::string checkpointPrefix;
};
struct SplitMergeCycle {
    int cycle = 0;
    double seconds = 0;
    int splitIterations = 0, mergeIterations = 0; // the EM iterates kept (best held-out)
    int merged = 0;                               // split pairs merged back
    double trainLogLikelihood = 0, devLogLikelihood = 0;
    std::size_t refinedSymbols = 0, binaryRules = 0, unaryRules = 0, lexicalEntries = 0;
    bool resumed = false; // read from a checkpoint, not trained in this run
};
struct SplitMergeReport {
    std::size_t trainTrees = 0, devTrees = 0, devSkipped = 0;
    bool heldOut = false; // dev = every 20th training tree (no dev trees given)
    std::vector<SplitMergeCycle> cycles;
};
// train, dev: normalized trees; dev empty: every 20th training tree (index % 20 == 19) is held out.
// Progress: per EM iteration a phase "split-merge EM (split)" or "(merge)" of one item per chunk,
// and "merge" (total unknown); step = cycle; a log line per finished cycle. Cancel throws
// Cancelled; finished cycles stay in their checkpoints.
Grammar trainSplitMerge(const std::vector<Tree>& train, const std::vector<Tree>& dev,
                        const SplitMergeOptions& opt, const Progress& progress = {},
                        SplitMergeReport* report = nullptr);

} // namespace prunescope
