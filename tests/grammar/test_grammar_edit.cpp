// A grammar as editable rule lines (core/grammar/GrammarEdit, the explorer's Edit Grammar window):
// the lines rebuild the same grammar file byte for byte (the classroom sample and the bundled
// treebank grammar); a changed weight moves a PP attachment; an added lexical rule is used; bad
// lines are refused with what is wrong.
#include "core/grammar/GrammarEdit.h"
#include "core/grammar/GrammarFile.h"
#include "core/parse/Parser.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <sstream>

using namespace prunescope;

namespace {
std::vector<std::string> words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> w;
    for (std::string t; in >> t;)
        w.push_back(t);
    return w;
}
std::string bestTreeOf(const Grammar& g, const std::string& sentence) {
    Parser p(g);
    const auto w = words(sentence);
    p.parse(w, nullptr);
    return bestTree(g, p.chart(), w).toString();
}
std::vector<RuleLine>::iterator find(std::vector<RuleLine>& lines, const std::string& text) {
    for (auto it = lines.begin(); it != lines.end(); ++it)
        if (it->text() == text) return it;
    return lines.end();
}
} // namespace

class TestGrammarEdit : public QObject {
    Q_OBJECT
    Grammar classroom_;

  private slots:
    void initTestCase() {
        classroom_ = loadGrammar(testdata::sourceDir() + "/samples/classroom/grammar.gram");
    }

    void linesRebuildTheSameGrammar() {
        for (const std::string file :
             {"/samples/classroom/grammar.gram", "/samples/grammar.gram"}) {
            const Grammar g = loadGrammar(testdata::sourceDir() + file);
            const std::vector<RuleLine> lines = grammarRuleLines(g);
            const GrammarStats st = grammarStats(g);
            QCOMPARE(static_cast<int>(lines.size()),
                     st.binaryRules + st.unaryRules + st.rootRules + st.lexicalEntries +
                         static_cast<int>(g.unknownFallback.size()));
            QVERIFY(grammarToString(grammarFromRuleLines(g, lines)) == grammarToString(g));
            for (const RuleLine& l : lines) // the text form parses back to the same line
                QCOMPARE(parseRuleLine(l.text(), l.probability).text(), l.text());
        }
    }

    void aWeightMovesTheAttachment() {
        const std::string s = "the girl saw the man with a telescope .";
        const std::string before = bestTreeOf(classroom_, s);
        QVERIFY2(before.find("(VP (VBD saw) (NP (DT the) (NN man)) (PP") != std::string::npos,
                 before.c_str());
        std::vector<RuleLine> lines = grammarRuleLines(classroom_);
        auto vp = find(lines, "VP -> @VP|VBD_NP PP");
        QVERIFY(vp != lines.end());
        vp->probability = 1e-6; // VP attachment nearly impossible: the PP goes to the NP
        const std::string after = bestTreeOf(grammarFromRuleLines(classroom_, lines), s);
        QVERIFY2(after.find("(NP (NP (DT the) (NN man)) (PP (IN with)") != std::string::npos,
                 after.c_str());
    }

    void anAddedWordIsUsed() {
        std::vector<RuleLine> lines = grammarRuleLines(classroom_);
        lines.push_back(parseRuleLine("JJ -> 'big'", 0.3));
        lines.push_back(parseRuleLine("ADJP -> JJ", 0.5)); // a new symbol too
        const Grammar g = grammarFromRuleLines(classroom_, lines);
        QVERIFY(g.hasSymbol("ADJP"));
        QCOMPARE(g.numSymbols(), classroom_.numSymbols() + 1);
        const std::string t = bestTreeOf(g, "the big dog slept .");
        QVERIFY2(t.find("(JJ big)") != std::string::npos, t.c_str());
    }

    void badLinesAreRefused() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseRuleLine("NP DT NN", 0.5));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseRuleLine("NP -> A B C", 0.5));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseRuleLine("NP ->", 0.5));
        QCOMPARE(parseRuleLine("NP -> DT ''", 0.5).kind, RuleKind::Binary); // PTB's '' symbol
        QCOMPARE(parseRuleLine("ROOT -> S", 1).kind, RuleKind::Root);
        QCOMPARE(parseRuleLine("NN -> 'dog'", 1).kind, RuleKind::Lexical);
        std::vector<RuleLine> lines = grammarRuleLines(classroom_);
        auto withLine = [&](const std::string& text, double p) {
            std::vector<RuleLine> l = lines;
            l.push_back(parseRuleLine(text, p));
            return grammarFromRuleLines(classroom_, l);
        };
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, withLine("NP -> DT JJ", 0.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, withLine("NP -> DT JJ", 1.5));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, withLine("NP -> DT NN", 0.5)); // twice
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, withLine("NP -> ROOT", 0.5));
        try {
            withLine("NP -> DT NN", 0.5);
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("listed twice") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("rule " + std::to_string(lines.size() + 1)) == 0,
                     e.what());
        }
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestGrammarEdit)
#include "test_grammar_edit.moc"
