// The grammar reader refuses what it used to accept (issue 19): non-finite or positive log
// probabilities, every kind of duplicate, ROOT below the root rules, text after `end`, bad
// options; and an empty training treebank is an error, not a grammar of 0 trees.
#include "core/grammar/GrammarFile.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/util/Error.h"

#include "support/TestSuite.h"

#include <limits>

using namespace prunescope;

namespace {

// A small valid grammar; line numbers are noted for the mutations below.
const char* kGood = "prunescope-grammar 1\n"                                                    // 1
                    "options {\"binarize\":{\"horizontalMarkov\":2},\"rareWordThreshold\":1}\n" // 2
                    "symbols 4\n"                                                               // 3
                    "ROOT\nS\nNP\nVP\n"     // 4-7
                    "root ROOT\n"           // 8
                    "binary 1\n"            // 9
                    "S NP VP -0.5\n"        // 10
                    "unary 1\n"             // 11
                    "VP NP -1.5\n"          // 12
                    "root-rules 1\n"        // 13
                    "S 0\n"                 // 14
                    "words 2\n"             // 15
                    "dogs NP -0.75 VP -2\n" // 16
                    "bark VP -0.125\n"      // 17
                    "unknown-fallback 1\n"  // 18
                    "NP -0.25\n"            // 19
                    "end\n";                // 20

std::string edit(std::string text,
                 const std::vector<std::pair<std::string, std::string>>& changes) {
    for (const auto& [from, to] : changes)
        text.replace(text.find(from), from.size(), to);
    return text;
}

std::string replaceLine(int line, const std::string& with) {
    std::string text = kGood;
    std::size_t pos = 0;
    for (int l = 1; l < line; ++l)
        pos = text.find('\n', pos) + 1;
    const std::size_t end = text.find('\n', pos);
    return text.substr(0, pos) + with + text.substr(end);
}

} // namespace

class TestGrammarFile : public QObject {
    Q_OBJECT
  private slots:
    void goodGrammarReads() {
        const Grammar g = grammarFromString(kGood, "good.gram");
        QCOMPARE(g.numSymbols(), 4);
        QCOMPARE(grammarToString(g), std::string(kGood));
    }
    void refused_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        auto row = [](const char* name, int line, const std::string& with, const char* msg) {
            QTest::newRow(name) << QString::fromStdString(replaceLine(line, with)) << line << msg;
        };
        row("nan", 10, "S NP VP nan", "not finite");
        row("inf", 12, "VP NP -inf", "not finite");
        row("positive", 14, "S 0.25", "is positive");
        row("overflow", 19, "NP -1e999", "out of the float range");
        row("word logprob", 17, "bark VP 3", "is positive");
        auto rows = [](const char* name, int line,
                       const std::vector<std::pair<std::string, std::string>>& changes,
                       const char* msg) {
            QTest::newRow(name) << QString::fromStdString(edit(kGood, changes)) << line << msg;
        };
        rows("duplicate binary", 11,
             {{"binary 1\n", "binary 2\n"}, {"S NP VP -0.5\n", "S NP VP -0.5\nS NP VP -0.6\n"}},
             "duplicate binary rule");
        rows("duplicate unary", 13,
             {{"unary 1\n", "unary 2\n"}, {"VP NP -1.5\n", "VP NP -1.5\nVP NP -2\n"}},
             "duplicate unary rule VP -> NP");
        rows("duplicate root", 15, {{"root-rules 1\n", "root-rules 2\n"}, {"S 0\n", "S 0\nS -1\n"}},
             "duplicate root rule");
        rows("duplicate fallback", 20,
             {{"unknown-fallback 1\n", "unknown-fallback 2\n"},
              {"NP -0.25\n", "NP -0.25\nNP -0.3\n"}},
             "duplicate fallback tag 'NP'");
        row("duplicate word", 17, "dogs VP -0.1", "duplicate word 'dogs'");
        row("duplicate tag", 17, "bark VP -0.1 VP -0.2", "lists tag 'VP' twice");
        row("root in binary", 10, "S NP ROOT -0.5", "may only appear in root-rules");
        row("root in lexicon", 17, "bark ROOT -0.1", "may only appear in root-rules");
        row("self unary", 12, "VP VP -1", "rewrites a symbol to itself");
        rows("text after end", 21, {{"end\n", "end\ntrailing words\n"}},
             "unexpected text after 'end'");
        row("bad options", 2, "options {\"binarize\":{\"horizontalMarkov\":-4}}", "bad options");
        row("options not object", 2, "options [1,2]", "must be a JSON object");
        row("deep options", 2, "options " + std::string(200, '[') + std::string(200, ']'),
            "nested deeper");
    }
    void refused() {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, message);
        try {
            grammarFromString(text.toStdString(), "bad.gram");
            QFAIL("accepted");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), std::string("bad.gram"));
            QVERIFY2(e.line() == line, e.what());
            QVERIFY2(std::string(e.what()).find(message.toStdString()) != std::string::npos,
                     e.what());
        }
    }
    // Probability 0 (log -inf, what stepwise EM with step size 1 gives a rule without expected
    // counts) is not written: the file holds finite log probabilities only, and a word left with no
    // tag is left out (the parser treats it as unknown). Everything else round-trips exactly.
    void zeroProbabilityIsLeftOutWhenWritten() {
        Grammar g = grammarFromString(kGood, "good.gram");
        const float zero = -std::numeric_limits<float>::infinity();
        QCOMPARE(zeroProbabilityEntries(g), std::size_t(0));
        QCOMPARE(grammarToString(g), std::string(kGood));
        g.unary[0].logProb = zero;
        g.lexicon[g.wordIndex.at("dogs")][1].logProb = zero; // dogs keeps NP
        g.lexicon[g.wordIndex.at("bark")][0].logProb = zero; // bark keeps nothing
        QCOMPARE(zeroProbabilityEntries(g), std::size_t(3));
        const std::string text = grammarToString(g);
        QCOMPARE(text, edit(kGood, {{"unary 1\nVP NP -1.5\n", "unary 0\n"},
                                    {"words 2\n", "words 1\n"},
                                    {"dogs NP -0.75 VP -2\n", "dogs NP -0.75\n"},
                                    {"bark VP -0.125\n", ""}}));
        const Grammar back = grammarFromString(text, "saved.gram"); // loads: no -inf in the file
        QVERIFY(back.unary.empty());
        QCOMPARE(back.wordIndex.count("bark"), std::size_t(0));
        QCOMPARE(back.binary[0].logProb, -0.5f);
    }
    void blankLinesAfterEndAreFine() {
        grammarFromString(std::string(kGood) + "\n  \n", "ok.gram");
    }
    void optionsKeepTheirSpaces() {
        const std::string text = replaceLine(2, "options {\"note\":\"a  b\"}");
        const Grammar g = grammarFromString(text, "spaces.gram");
        QCOMPARE(g.options["note"].get<std::string>(), std::string("a  b"));
        QCOMPARE(grammarToString(g), text);
    }
    void emptyTreebankIsAnError() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, estimatePcfg({}, GrammarOptions{}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 estimatePcfgFromNormalized({}, GrammarOptions{}));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestGrammarFile)
#include "test_grammar_file.moc"
