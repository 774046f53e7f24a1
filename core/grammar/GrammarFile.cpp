#include "core/grammar/GrammarFile.h"

#include "core/treebank/Binarize.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <sstream>
#include <tuple>

namespace prunescope {
namespace {

std::string fmt(float v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v)); // 9 digits round-trip a float
    return buf;
}

// Reads the text line by line, tracking line numbers for errors.
class LineReader {
  public:
    LineReader(const std::string& text, const std::string& file) : in_(text), file_(file) {}
    std::vector<std::string> next(const char* what) {
        std::string& line = raw_;
        while (std::getline(in_, line)) {
            ++line_;
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (line.empty()) continue;
            std::vector<std::string> f;
            std::istringstream ls(line);
            for (std::string tok; ls >> tok;)
                f.push_back(tok);
            if (!f.empty()) return f;
        }
        fail(std::string("unexpected end of file, expected ") + what);
    }
    [[noreturn]] void fail(const std::string& msg) const { throw InputError(file_, line_, 0, msg); }
    int line() const { return line_; }
    const std::string& raw() const { return raw_; } // the text of the last line next() read
    // Whether a non-blank line follows (line() then names it).
    bool hasMore() {
        std::string line;
        while (std::getline(in_, line)) {
            ++line_;
            if (line.find_first_not_of(" \t\r\f\v") != std::string::npos) return true;
        }
        return false;
    }

  private:
    std::istringstream in_;
    std::string raw_;
    std::string file_;
    int line_ = 0;
};

// A log probability: a finite float <= 0 (log of a probability in (0, 1]).
float parseLogProb(const LineReader& r, const std::string& s) {
    float v = 0;
    auto res = std::from_chars(s.data(), s.data() + s.size(), v);
    if (res.ec == std::errc::result_out_of_range)
        r.fail("log probability '" + s + "' is out of the float range");
    if (res.ec != std::errc() || res.ptr != s.data() + s.size())
        r.fail("not a number: '" + s + "'");
    if (!std::isfinite(v)) r.fail("log probability '" + s + "' is not finite");
    if (v > 0) r.fail("log probability '" + s + "' is positive (a probability above 1)");
    return v;
}
long parseCount(const LineReader& r, const std::vector<std::string>& f,
                const std::string& keyword) {
    if (f.size() != 2 || f[0] != keyword) r.fail("expected '" + keyword + " <count>'");
    long v = -1;
    auto res = std::from_chars(f[1].data(), f[1].data() + f[1].size(), v);
    if (res.ec != std::errc() || v < 0) r.fail("bad count '" + f[1] + "'");
    return v;
}

// Probability 0 (log -inf): what stepwise EM with step size 1 gives a rule without expected counts.
bool zeroProbability(float logProb) {
    return logProb == -std::numeric_limits<float>::infinity();
}
template <class Entries> std::size_t zeroCount(const Entries& entries) {
    return static_cast<std::size_t>(std::count_if(
        entries.begin(), entries.end(), [](const auto& e) { return zeroProbability(e.logProb); }));
}

// The sections of a grammar file, in the order they appear (grammarFromString).
void readGrammarHeader(LineReader& r) {
    auto head = r.next("header");
    if (head.size() != 2 || head[0] != "prunescope-grammar")
        r.fail("not a PruneScope grammar file (expected 'prunescope-grammar <version>')");
    if (head[1] != std::to_string(kGrammarFormatVersion))
        r.fail("unsupported grammar format version " + head[1] + " (this build reads version " +
               std::to_string(kGrammarFormatVersion) + ")");
}

void readGrammarOptions(LineReader& r, Grammar& g) {
    auto f = r.next("options");
    if (f.empty() || f[0] != "options") r.fail("expected 'options <json>'");
    // The JSON is the rest of the line, verbatim (strings in it may hold runs of spaces).
    const std::string& raw = r.raw();
    const std::string js = raw.substr(raw.find("options") + 7);
    try {
        g.options = parseJsonDocument(js, "options");
    } catch (const std::exception& e) {
        r.fail(std::string("bad options JSON: ") + e.what());
    }
    if (!g.options.is_object()) r.fail("options must be a JSON object");
    if (g.options.contains("binarize")) {
        try {
            binarizeOptionsFromJson(g.options["binarize"]);
        } catch (const std::exception& e) {
            r.fail(std::string("bad options: ") + e.what());
        }
    }
}

void readGrammarSymbols(LineReader& r, Grammar& g) {
    long ns = parseCount(r, r.next("symbols"), "symbols");
    for (long i = 0; i < ns; ++i) {
        auto f = r.next("symbol");
        // A fine grammar (SplitMerge.h) names the base symbol of each refined one: "NP^3 NP".
        if (f.size() != 1 && f.size() != 2)
            r.fail("expected one symbol name per line (and, in a fine grammar, its base symbol)");
        if (i > 0 && (f.size() == 2) != !g.baseLabel.empty())
            r.fail("either every symbol line names a base symbol or none does");
        if (!g.symbolIndex.emplace(f[0], static_cast<SymbolId>(g.symbols.size())).second)
            r.fail("duplicate symbol '" + f[0] + "'");
        g.symbols.push_back(f[0]);
        if (f.size() == 2) g.baseLabel.push_back(f[1]);
    }
}

SymbolId grammarSymbol(const LineReader& r, const Grammar& g, const std::string& s) {
    auto it = g.symbolIndex.find(s);
    if (it == g.symbolIndex.end()) r.fail("unknown symbol '" + s + "'");
    return it->second;
}

// Every rule and entry may appear once; ROOT only as the parent of a root rule.
SymbolId notRootSymbol(const LineReader& r, const Grammar& g, const std::string& name) {
    const SymbolId s = grammarSymbol(r, g, name);
    if (s == g.root) r.fail("the root symbol '" + name + "' may only appear in root-rules");
    return s;
}

void readGrammarRoot(LineReader& r, Grammar& g) {
    auto f = r.next("root");
    if (f.size() != 2 || f[0] != "root") r.fail("expected 'root <symbol>'");
    g.root = grammarSymbol(r, g, f[1]);
}

void readBinaryRules(LineReader& r, Grammar& g) {
    std::set<std::tuple<SymbolId, SymbolId, SymbolId>> seenBinary;
    long nb = parseCount(r, r.next("binary"), "binary");
    for (long i = 0; i < nb; ++i) {
        auto f = r.next("binary rule");
        if (f.size() != 4) r.fail("binary rule needs 'parent left right logprob'");
        const BinaryRule b{notRootSymbol(r, g, f[0]), notRootSymbol(r, g, f[1]),
                           notRootSymbol(r, g, f[2]), parseLogProb(r, f[3])};
        if (!seenBinary.emplace(b.parent, b.left, b.right).second)
            r.fail("duplicate binary rule " + f[0] + " -> " + f[1] + " " + f[2]);
        g.binary.push_back(b);
    }
}

void readUnaryRules(LineReader& r, Grammar& g) {
    std::set<std::pair<SymbolId, SymbolId>> seenUnary;
    long nu = parseCount(r, r.next("unary"), "unary");
    for (long i = 0; i < nu; ++i) {
        auto f = r.next("unary rule");
        if (f.size() != 3) r.fail("unary rule needs 'parent child logprob'");
        const UnaryRule u{notRootSymbol(r, g, f[0]), notRootSymbol(r, g, f[1]),
                          parseLogProb(r, f[2])};
        if (u.parent == u.child)
            r.fail("unary rule " + f[0] + " -> " + f[1] + " rewrites a symbol to itself");
        if (!seenUnary.emplace(u.parent, u.child).second)
            r.fail("duplicate unary rule " + f[0] + " -> " + f[1]);
        g.unary.push_back(u);
    }
}

void readRootRules(LineReader& r, Grammar& g) {
    std::set<SymbolId> seenRoot;
    long nr = parseCount(r, r.next("root-rules"), "root-rules");
    for (long i = 0; i < nr; ++i) {
        auto f = r.next("root rule");
        if (f.size() != 2) r.fail("root rule needs 'child logprob'");
        const SymbolId child = notRootSymbol(r, g, f[0]);
        if (!seenRoot.insert(child).second) r.fail("duplicate root rule -> " + f[0]);
        g.rootRules.push_back({g.root, child, parseLogProb(r, f[1])});
    }
}

void readLexicon(LineReader& r, Grammar& g) {
    std::set<std::string> seenWords;
    long nw = parseCount(r, r.next("words"), "words");
    for (long i = 0; i < nw; ++i) {
        auto f = r.next("word");
        if (f.size() < 3 || f.size() % 2 != 1)
            r.fail("word line needs 'word tag logprob [tag logprob ...]'");
        if (!seenWords.insert(f[0]).second) r.fail("duplicate word '" + f[0] + "'");
        g.words.push_back(f[0]);
        g.lexicon.emplace_back();
        std::set<SymbolId> tags;
        for (std::size_t j = 1; j < f.size(); j += 2) {
            const SymbolId tag = notRootSymbol(r, g, f[j]);
            if (!tags.insert(tag).second)
                r.fail("word '" + f[0] + "' lists tag '" + f[j] + "' twice");
            g.lexicon.back().push_back({tag, parseLogProb(r, f[j + 1])});
        }
    }
}

void readUnknownFallback(LineReader& r, Grammar& g) {
    std::set<SymbolId> seenFallback;
    long nf = parseCount(r, r.next("unknown-fallback"), "unknown-fallback");
    for (long i = 0; i < nf; ++i) {
        auto f = r.next("fallback entry");
        if (f.size() != 2) r.fail("fallback entry needs 'tag logprob'");
        const SymbolId tag = notRootSymbol(r, g, f[0]);
        if (!seenFallback.insert(tag).second) r.fail("duplicate fallback tag '" + f[0] + "'");
        g.unknownFallback.push_back({tag, parseLogProb(r, f[1])});
    }
}

void readGrammarEnd(LineReader& r) {
    auto end = r.next("end");
    if (end.size() != 1 || end[0] != "end") r.fail("expected 'end'");
    if (r.hasMore()) r.fail("unexpected text after 'end'");
}

} // namespace

// Rules and lexical entries of probability 0 (log -inf: stepwise EM with step size 1 gives them to
// rules without expected counts) are left out: they are in no parse, and the file holds finite log
// probabilities only. A word left with no tag is left out too, so the parser treats it as unknown.
std::string grammarToString(const Grammar& g) {
    auto kept = [](float logProb) { return !zeroProbability(logProb); };
    auto countKept = [](const auto& entries) { return entries.size() - zeroCount(entries); };
    std::ostringstream o;
    o << "prunescope-grammar " << kGrammarFormatVersion << "\n";
    o << "options " << g.options.dump() << "\n";
    o << "symbols " << g.symbols.size() << "\n";
    for (std::size_t x = 0; x < g.symbols.size(); ++x) {
        o << g.symbols[x];
        if (!g.baseLabel.empty()) o << ' ' << g.baseLabel[x]; // a fine grammar's projection
        o << "\n";
    }
    o << "root " << g.symbols[g.root] << "\n";
    const auto& S = g.symbols;
    o << "binary " << countKept(g.binary) << "\n";
    for (const auto& r : g.binary)
        if (kept(r.logProb))
            o << S[r.parent] << ' ' << S[r.left] << ' ' << S[r.right] << ' ' << fmt(r.logProb)
              << "\n";
    o << "unary " << countKept(g.unary) << "\n";
    for (const auto& r : g.unary)
        if (kept(r.logProb)) o << S[r.parent] << ' ' << S[r.child] << ' ' << fmt(r.logProb) << "\n";
    o << "root-rules " << countKept(g.rootRules) << "\n";
    for (const auto& r : g.rootRules)
        if (kept(r.logProb)) o << S[r.child] << ' ' << fmt(r.logProb) << "\n";
    std::vector<std::size_t> written; // the words that keep a tag
    for (std::size_t w = 0; w < g.words.size(); ++w)
        if (countKept(g.lexicon[w]) > 0) written.push_back(w);
    o << "words " << written.size() << "\n";
    for (const std::size_t w : written) {
        o << g.words[w];
        for (const auto& e : g.lexicon[w])
            if (kept(e.logProb)) o << ' ' << S[e.tag] << ' ' << fmt(e.logProb);
        o << "\n";
    }
    o << "unknown-fallback " << countKept(g.unknownFallback) << "\n";
    for (const auto& e : g.unknownFallback)
        if (kept(e.logProb)) o << S[e.tag] << ' ' << fmt(e.logProb) << "\n";
    o << "end\n";
    return o.str();
}

std::size_t zeroProbabilityEntries(const Grammar& g) {
    std::size_t n = zeroCount(g.binary) + zeroCount(g.unary) + zeroCount(g.rootRules) +
                    zeroCount(g.unknownFallback);
    for (const auto& row : g.lexicon)
        n += zeroCount(row);
    return n;
}

Grammar grammarFromString(const std::string& text, const std::string& fileName) {
    LineReader r(text, fileName);
    Grammar g;
    readGrammarHeader(r);
    readGrammarOptions(r, g);
    readGrammarSymbols(r, g);
    readGrammarRoot(r, g);
    readBinaryRules(r, g);
    readUnaryRules(r, g);
    readRootRules(r, g);
    readLexicon(r, g);
    readUnknownFallback(r, g);
    readGrammarEnd(r);
    try {
        g.finalize();
    } catch (const std::exception& e) {
        r.fail(std::string("invalid grammar: ") + e.what());
    }
    return g;
}

void saveGrammar(const Grammar& g, const std::string& path) {
    writeFileAtomically(path, grammarToString(g));
}

Grammar loadGrammar(const std::string& path) {
    return grammarFromString(readFile(path), path);
}

} // namespace prunescope
