// EVALB labeled bracket scoring with COLLINS.prm (Sekine & Collins 1997), used for the paper's
// labeled F1 (§7) and the rCP per-sentence F1 reward surrogate (§7). Follows evalb.c:
// read_line (word/bracket extraction), massage_data (deletions), calc_result (greedy matching).
#include "core/eval/Evalb.h"

#include <algorithm>
#include <string_view>

namespace prunescope {
namespace {

struct Bracket {
    std::string_view label; // function tags stripped (a prefix of the tree's label)
    int begin = 0;
    int end = 0;
    bool deleted = false;
};

struct View {
    std::vector<std::string_view> words;
    std::vector<Bracket> brackets; // preorder, including deleted ones
};

std::string_view stripFunctionTags(std::string_view label) {
    // evalb.c modify_label: truncate at the first '-' or '=' (so "-NONE-" becomes "").
    std::size_t cut = label.find_first_of("-=");
    return cut == std::string_view::npos ? label : label.substr(0, cut);
}

bool contains(const std::vector<std::string>& list, std::string_view s) {
    for (const auto& x : list)
        if (x == s) return true;
    return false;
}

// evalb.c label_comp: equal, or an EQ_LABEL pair in either direction.
bool labelEq(std::string_view a, std::string_view b, const EvalbOptions& opt) {
    if (a == b) return true;
    for (const auto& [s1, s2] : opt.equivalentLabels)
        if ((a == s1 && b == s2) || (a == s2 && b == s1)) return true;
    return false;
}

void collect(const Tree& t, const EvalbOptions& opt, View& v) {
    if (t.isPreterminal()) {
        // A terminal: deleted (word and all) if its raw tag is a delete label (is_deletelabel).
        if (!contains(opt.deleteLabels, t.label)) v.words.push_back(t.children[0].label);
        return;
    }
    std::size_t slot = v.brackets.size();
    v.brackets.push_back({stripFunctionTags(t.label), static_cast<int>(v.words.size()), 0, false});
    for (const auto& c : t.children) {
        if (c.isLeaf())
            throw EvalbMismatch(EvalbMismatch::Kind::Malformed,
                                "evalb: word '" + c.label + "' has siblings under '" + t.label +
                                    "' (a word must be the only child of its tag)");
        collect(c, opt, v);
    }
    Bracket& b = v.brackets[slot];
    b.end = static_cast<int>(v.words.size());
    // massage_data: a bracket that covers no remaining word is dropped ("zero element");
    // otherwise it is dropped if its stripped label equals (label_comp) a delete label.
    if (b.begin == b.end) {
        b.deleted = true;
        return;
    }
    for (const auto& d : opt.deleteLabels)
        if (labelEq(b.label, d, opt)) {
            b.deleted = true;
            break;
        }
}

View makeView(const Tree& t, const EvalbOptions& opt) {
    View v;
    if (t.isLeaf()) return v; // a childless root is an empty sentence: no words, no brackets
    collect(t, opt, v);
    return v;
}

long liveCount(const View& v) {
    long n = 0;
    for (const auto& b : v.brackets)
        n += b.deleted ? 0 : 1;
    return n;
}

bool spanLess(const Bracket& a, const Bracket& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
}

} // namespace

double BracketCounts::precision() const {
    return test == 0 ? 0.0 : static_cast<double>(matched) / static_cast<double>(test);
}
double BracketCounts::recall() const {
    return gold == 0 ? 0.0 : static_cast<double>(matched) / static_cast<double>(gold);
}
double BracketCounts::f1() const {
    double p = precision(), r = recall();
    return p + r == 0.0 ? 0.0 : 2.0 * p * r / (p + r);
}
BracketCounts& BracketCounts::operator+=(const BracketCounts& o) {
    matched += o.matched;
    gold += o.gold;
    test += o.test;
    return *this;
}

EvalbOptions EvalbOptions::collins() {
    EvalbOptions o;
    o.deleteLabels = {"TOP", "ROOT", "", "-NONE-", ",", ":", "``", "''", "."};
    o.deleteLabelsForLength = {"-NONE-"};
    o.equivalentLabels = {{"ADVP", "PRT"}};
    return o;
}

std::string evalbLabel(const std::string& label) {
    return std::string(stripFunctionTags(label));
}

BracketCounts evalbSentence(const Tree& gold, const Tree& test, const EvalbOptions& opt) {
    View g = makeView(gold, opt);
    View s = makeView(test, opt);
    // calc_result: lengths and words are compared after each tree deleted its own tagged words.
    if (g.words.size() != s.words.size())
        throw EvalbMismatch(
            EvalbMismatch::Kind::Length,
            "evalb: length mismatch (gold " + std::to_string(g.words.size()) + " words, test " +
                std::to_string(s.words.size()) +
                " words after deleting punctuation and traces by each tree's tags)");
    for (std::size_t i = 0; i < g.words.size(); ++i)
        if (g.words[i] != s.words[i])
            throw EvalbMismatch(EvalbMismatch::Kind::Word,
                                "evalb: words mismatch at position " + std::to_string(i) + " (" +
                                    std::string(g.words[i]) + "|" + std::string(s.words[i]) + ")");

    BracketCounts c;
    c.gold = liveCount(g);
    c.test = liveCount(s);
    // Drop deleted test brackets and sort the rest by span, keeping preorder within a span so the
    // greedy choice below is exactly evalb.c's (first unmatched test bracket in file order).
    std::erase_if(s.brackets, [](const Bracket& b) { return b.deleted; });
    std::stable_sort(s.brackets.begin(), s.brackets.end(), spanLess);
    std::vector<char> used(s.brackets.size(), 0);
    for (const auto& gb : g.brackets) {
        if (gb.deleted) continue;
        auto [lo, hi] = std::equal_range(s.brackets.begin(), s.brackets.end(), gb, spanLess);
        for (auto it = lo; it != hi; ++it) {
            std::size_t j = static_cast<std::size_t>(it - s.brackets.begin());
            if (!used[j] && labelEq(gb.label, it->label, opt)) {
                used[j] = 1;
                ++c.matched;
                break;
            }
        }
    }
    return c;
}

std::optional<BracketCounts> tryEvalbSentence(const Tree& gold, const Tree& test,
                                              const EvalbOptions& opt, std::string* why) {
    try {
        return evalbSentence(gold, test, opt);
    } catch (const EvalbMismatch& e) {
        if (why) *why = e.what();
        return std::nullopt;
    }
}

double sentenceF1(const BracketCounts& c) {
    if (c.gold == 0 && c.test == 0) return 1.0;
    return c.f1();
}

namespace {
// Copies `test` with its preterminal labels replaced by gold's tags, position by position.
void retag(Tree& t, const std::vector<std::string>& tags, std::size_t& pos) {
    if (t.isLeaf()) return;
    if (t.isPreterminal()) {
        t.label = tags[pos++];
        return;
    }
    for (auto& c : t.children)
        retag(c, tags, pos);
}
} // namespace

BracketCounts rewardBracketCounts(const Tree& gold, const Tree& test, const EvalbOptions& opt) {
    try {
        return evalbSentence(gold, test, opt);
    } catch (const EvalbMismatch& e) {
        // Same words, but the test tree tags a word as punctuation that gold does not (or the
        // reverse), so EVALB would drop the sentence. A reward must exist: decide punctuation
        // by the gold tags for both trees; the brackets themselves are unchanged.
        if (e.kind() == EvalbMismatch::Kind::Malformed || gold.words() != test.words()) throw;
        const std::vector<std::string> tags = gold.tags();
        if (tags.size() != gold.words().size()) throw;
        Tree retagged = test;
        std::size_t pos = 0;
        retag(retagged, tags, pos);
        return evalbSentence(gold, retagged, opt);
    }
}

double sentenceF1(const Tree& gold, const Tree& test, const EvalbOptions& opt) {
    return sentenceF1(rewardBracketCounts(gold, test, opt));
}

std::vector<LabeledSpan> evalbBrackets(const Tree& t, const EvalbOptions& opt) {
    View v = makeView(t, opt);
    std::vector<LabeledSpan> out;
    for (const auto& b : v.brackets)
        if (!b.deleted) out.push_back({std::string(b.label), b.begin, b.end});
    return out;
}

std::vector<std::string> evalbWords(const Tree& t, const EvalbOptions& opt) {
    View v = makeView(t, opt);
    return {v.words.begin(), v.words.end()};
}

int evalbLength(const Tree& t, const EvalbOptions& opt) {
    int n = 0;
    std::vector<const Tree*> stack{&t};
    while (!stack.empty()) {
        const Tree* u = stack.back();
        stack.pop_back();
        if (u->isPreterminal()) {
            n += contains(opt.deleteLabelsForLength, u->label) ? 0 : 1;
            continue;
        }
        for (const auto& c : u->children)
            stack.push_back(&c);
    }
    return n;
}

void CorpusEvaluation::add(const BracketCounts& c) {
    total += c;
    ++sentences;
    sumSentenceF1 += sentenceF1(c);
    exactMatches += c.exactMatch() ? 1 : 0;
}

bool CorpusEvaluation::addPair(const Tree& gold, const Tree& test, const EvalbOptions& opt) {
    std::optional<BracketCounts> c = tryEvalbSentence(gold, test, opt);
    if (!c) {
        ++errorSentences;
        return false;
    }
    add(*c);
    return true;
}

double CorpusEvaluation::averageSentenceF1() const {
    return sentences == 0 ? 0.0 : sumSentenceF1 / sentences;
}

double CorpusEvaluation::exactMatchRate() const {
    return sentences == 0 ? 0.0 : static_cast<double>(exactMatches) / sentences;
}

} // namespace prunescope
