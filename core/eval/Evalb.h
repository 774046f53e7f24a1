#pragma once
// Labeled bracket scoring exactly as EVALB (Sekine & Collins 1997) with COLLINS.prm; the paper's
// test-time accuracy (§7 "labeled F1 ... from the official EVALB script") and the per-sentence
// F1 of the rCP reward surrogate (§7). See docs/evaluation.md for what is scored.
#include "core/treebank/Tree.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace prunescope {

// Matched / gold / test bracket counts of one sentence or a corpus (EVALB's "Matched Bracket",
// "Bracket gold", "Bracket test" columns).
struct BracketCounts {
    long matched = 0, gold = 0, test = 0;
    // As EVALB: precision = matched/test, 0 if test == 0; recall = matched/gold, 0 if gold == 0.
    double precision() const;
    double recall() const;
    // 2PR/(P+R); 0 when P+R == 0 (EVALB itself would print nan there).
    double f1() const;
    // EVALB's "complete match": gold == test == matched (also true for 0/0/0).
    bool exactMatch() const { return gold == test && test == matched; }
    BracketCounts& operator+=(const BracketCounts& o);
    bool operator==(const BracketCounts& o) const = default;
};

struct EvalbOptions { // defaults = COLLINS.prm
    // DELETE_LABEL: a preterminal with one of these (exact) tags removes its word; a phrase whose
    // function-tag-stripped label is one of these is not scored. COLLINS.prm plus our roots.
    std::vector<std::string> deleteLabels; // TOP ROOT "" -NONE- , : `` '' .
    // DELETE_LABEL_FOR_LENGTH: tags not counted in the sentence length used for the len<=40 cut.
    std::vector<std::string> deleteLabelsForLength; // -NONE-
    // EQ_LABEL: non-directional label equivalences for matching.
    std::vector<std::pair<std::string, std::string>> equivalentLabels; // ADVP PRT
    static EvalbOptions collins();
};

// Thrown when two trees cannot be scored against each other; EVALB reports such a pair as an
// "error sentence" and leaves it out of all totals.
class EvalbMismatch : public std::invalid_argument {
  public:
    enum class Kind { Length, Word, Malformed };
    EvalbMismatch(Kind kind, const std::string& what) : std::invalid_argument(what), kind_(kind) {}
    Kind kind() const { return kind_; }

  private:
    Kind kind_;
};

// gold and test are n-ary trees (debinarized) over the same words. Each tree's own preterminal
// tags decide which words are deleted (as evalb.c). Throws EvalbMismatch (a std::invalid_argument)
// if the remaining word counts or words differ, or a tree mixes words and phrases as siblings.
BracketCounts evalbSentence(const Tree& gold, const Tree& test,
                            const EvalbOptions& opt = EvalbOptions::collins());
// Non-throwing form: nullopt for a pair EVALB would report as an error sentence (message in *why).
std::optional<BracketCounts> tryEvalbSentence(const Tree& gold, const Tree& test,
                                              const EvalbOptions& opt = EvalbOptions::collins(),
                                              std::string* why = nullptr);
// Bracket counts for rewards: evalbSentence, except that a pair EVALB would reject only because
// the two trees tag a word differently as punctuation is scored with gold's tags deciding which
// words are punctuation (brackets unchanged). Throws EvalbMismatch only for different words or a
// malformed tree. Used by sentenceF1(gold, test), so rewards are defined for every parse.
BracketCounts rewardBracketCounts(const Tree& gold, const Tree& test,
                                  const EvalbOptions& opt = EvalbOptions::collins());
// Per-sentence F1 for rewards (paper's rCP accuracy), in [0,1], via rewardBracketCounts. A sentence
// with no scored brackets in either tree (e.g. one word) is a complete match and gets 1.
double sentenceF1(const Tree& gold, const Tree& test,
                  const EvalbOptions& opt = EvalbOptions::collins());
double sentenceF1(const BracketCounts& c);
// The brackets EVALB would score for a tree (after deletions), as (label, begin, end) over
// non-deleted word positions, in preorder; labels have function tags stripped.
std::vector<LabeledSpan> evalbBrackets(const Tree& t,
                                       const EvalbOptions& opt = EvalbOptions::collins());
// The words EVALB keeps (preterminals whose tag is not a delete label), left to right.
std::vector<std::string> evalbWords(const Tree& t,
                                    const EvalbOptions& opt = EvalbOptions::collins());
// EVALB's sentence length for the CUTOFF_LEN statistics: words whose tag is not in
// deleteLabelsForLength (punctuation counts, traces do not).
int evalbLength(const Tree& t, const EvalbOptions& opt = EvalbOptions::collins());
// EVALB's label normalization: cut at the first '-' or '=' ("NP-SBJ-1" -> "NP", "NP=2" -> "NP").
std::string evalbLabel(const std::string& label);

struct CorpusEvaluation { // accumulates sentences; corpus P/R/F1 = from summed counts (as EVALB)
    BracketCounts total;
    int sentences = 0; // valid (scored) sentences
    double sumSentenceF1 = 0;
    int exactMatches = 0;
    int errorSentences = 0; // pairs EVALB would report as errors (see addPair)

    void add(const BracketCounts& c);
    // Scores one pair; on EvalbMismatch counts an error sentence and returns false.
    bool addPair(const Tree& gold, const Tree& test,
                 const EvalbOptions& opt = EvalbOptions::collins());
    double averageSentenceF1() const;
    double exactMatchRate() const; // exactMatches / sentences, 0 if none
};

} // namespace prunescope
