// Dependency treebank readers (core/dep/DepReader.h): the dep-sample format, CoNLL-X, CoNLL-U,
// tagged text, every documented error case with its file:line, and the shared data sample.
#include "core/dep/DepEval.h"
#include "core/dep/DepReader.h"
#include "core/util/Error.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <filesystem>
#include <fstream>

using namespace prunescope;

namespace {
// Expects an InputError at `line` whose message contains `what`.
void expectError(const std::string& text, DepFormat f, int line, const std::string& what) {
    try {
        readDepTreebankString(text, f, "t.x");
        QFAIL(("no error for: " + what).c_str());
    } catch (const InputError& e) {
        QCOMPARE(e.file(), std::string("t.x"));
        QCOMPARE(e.line(), line);
        if (std::string(e.what()).find(what) == std::string::npos)
            QFAIL((std::string("message '") + e.what() + "' lacks '" + what + "'").c_str());
    }
}
} // namespace

class TestDepReader : public QObject {
    Q_OBJECT
  private slots:
    void depSampleFormat() {
        const auto s =
            readDepTreebankString("The\tDT\t2\ndog\tNN\t3\nbarks\tVBZ\t0\n.\t.\t3\n\nHi\tUH\t0\n",
                                  DepFormat::DepSample, "a.dp");
        QCOMPARE(s.size(), std::size_t(2));
        QCOMPARE(s[0].size(), 4);
        QCOMPARE(s[0].words[1], std::string("The"));
        QCOMPARE(s[0].words[0], std::string(kRootSymbol));
        QCOMPARE(s[0].tags[3], std::string("VBZ"));
        QCOMPARE(s[0].heads, (std::vector<int>{-1, 2, 3, 0, 3}));
        QCOMPARE(s[0].line, 1);
        QCOMPARE(s[1].line, 6);
        QCOMPARE(s[1].file, std::string("a.dp"));
        QVERIFY(s[0].hasTree());
    }

    void depSampleTrailingBlankLinesAndNoFinalNewline() {
        QCOMPARE(readDepTreebankString("\n\nA\tDT\t0", DepFormat::DepSample, "x").size(),
                 std::size_t(1));
        QCOMPARE(readDepTreebankString("A\tDT\t0\n\n\n\n", DepFormat::DepSample, "x").size(),
                 std::size_t(1));
        QCOMPARE(readDepTreebankString("", DepFormat::DepSample, "x").size(), std::size_t(0));
    }

    void depSampleErrors() {
        expectError("a\tDT\t0\nb\tNN\n", DepFormat::DepSample, 2,
                    "expected 3 tab-separated columns");
        expectError("a\tDT\t0\tx\n", DepFormat::DepSample, 1, "found 4");
        expectError("a\tDT\tx\n", DepFormat::DepSample, 1, "not a non-negative integer");
        expectError("a\tDT\t-1\n", DepFormat::DepSample, 1, "not a non-negative integer");
        expectError("a\tDT\t0\nb\tNN\t5\n", DepFormat::DepSample, 2, "out of range");
        expectError("a\tDT\t1\n", DepFormat::DepSample, 1, "its own head");
        expectError("a\tDT\t0\nb\tNN\t0\n", DepFormat::DepSample, 2, "second root");
        expectError("a\tDT\t2\nb\tNN\t1\n", DepFormat::DepSample, 1, "no root");
        expectError("x\tX\t0\n\na\tDT\t3\nb\tNN\t0\nc\tNN\t1\n", DepFormat::DepSample, 3,
                    "cycle through tokens");
        expectError("a\tDT\t0\r\n", DepFormat::DepSample, 1, "CRLF");
        expectError("x\tX\t0\n\nca\xff\tNN\t0\n", DepFormat::DepSample, 3, "invalid UTF-8");
        expectError("ca\xc3\tNN\t0\n", DepFormat::DepSample, 1,
                    "invalid UTF-8"); // truncated sequence
        expectError("\xc0\xaf\tNN\t0\n", DepFormat::DepSample, 1, "invalid UTF-8");     // overlong
        expectError("\xed\xa0\x80\tNN\t0\n", DepFormat::DepSample, 1, "invalid UTF-8"); // surrogate
        expectError("\tNN\t0\n", DepFormat::DepSample, 1, "empty word");
        expectError("a\t\t0\n", DepFormat::DepSample, 1, "empty POS");
        // valid UTF-8 is fine
        QCOMPARE(
            readDepTreebankString("caf\xc3\xa9\tNN\t0\n", DepFormat::DepSample, "x")[0].words[1],
            std::string("caf\xc3\xa9"));
    }

    void conllX() {
        const std::string text = "1\tThe\tthe\tDT\tDT\t_\t2\tNMOD\t_\t_\n"
                                 "2\tdog\tdog\tNN\tNN\t_\t3\tSBJ\t_\t_\n"
                                 "3\tbarks\tbark\tVB\tVBZ\t_\t0\tROOT\t_\t_\n"
                                 "4\tloudly\tloudly\tRB\t_\t_\t3\tADV\t_\t_\n"
                                 "5\t!\t!\tPUNCT\t.\t_\t0\tP\t_\t_\n"
                                 "\n";
        const auto s = readDepTreebankString(text, DepFormat::ConllX, "a.conll");
        QCOMPARE(s.size(), std::size_t(1));
        QCOMPARE(s[0].tags[3], std::string("VBZ")); // POSTAG preferred
        QCOMPARE(s[0].tags[4], std::string("RB"));  // CPOSTAG when POSTAG is '_'
        QCOMPARE(s[0].upos[1], std::string("DT"));
        QCOMPARE(s[0].heads, (std::vector<int>{-1, 2, 3, 0, 3, 0})); // CoNLL-X allows several roots
        QVERIFY(isPunctuationToken(s[0], 5));
        QCOMPARE(depFormatOf("x/y.conll"), DepFormat::ConllX);
        QCOMPARE(depFormatOf("y.conllx"), DepFormat::ConllX);
        QCOMPARE(depFormatOf("y.conllu"), DepFormat::ConllU);
        QCOMPARE(depFormatOf("y.dp"), DepFormat::DepSample);
    }

    void conllXErrors() {
        expectError("1\ta\ta\tDT\tDT\t_\t0\t_\t_\n", DepFormat::ConllX, 1,
                    "expected 10 tab-separated columns");
        expectError("1\ta\ta\tDT\tDT\t_\t0\t_\t_\t_\n3\tb\tb\tNN\tNN\t_\t1\t_\t_\t_\n",
                    DepFormat::ConllX, 2, "where 2 was expected");
        expectError("1\ta\ta\tDT\tDT\t_\t_\t_\t_\t_\n", DepFormat::ConllX, 1, "HEAD (column 7)");
        expectError("1\ta\ta\t_\t_\t_\t0\t_\t_\t_\n", DepFormat::ConllX, 1, "no POS tag");
        expectError("1\ta\ta\tDT\tDT\t_\t0\t_\t_\t_\n2\tb\tb\tNN\tNN\t_\t7\t_\t_\t_\n",
                    DepFormat::ConllX, 2, "out of range");
        expectError("x\ta\ta\tDT\tDT\t_\t0\t_\t_\t_\n", DepFormat::ConllX, 1, "is not an integer");
    }

    void conllUSkipsMultiwordTokensEmptyNodesAndComments() {
        const std::string text = "# sent_id = 1\n"
                                 "# text = Vámonos al mar\n"
                                 "1-2\tVámonos\t_\t_\t_\t_\t_\t_\t_\t_\n"
                                 "1\tVamos\tir\tVERB\t_\t_\t0\troot\t_\t_\n"
                                 "2\tnos\tnosotros\tPRON\t_\t_\t1\tobj\t_\t_\n"
                                 "3-4\tal\t_\t_\t_\t_\t_\t_\t_\t_\n"
                                 "3\ta\ta\tADP\t_\t_\t5\tcase\t_\t_\n"
                                 "4\tel\tel\tDET\t_\t_\t5\tdet\t_\t_\n"
                                 "4.1\tvoy\tir\tVERB\t_\t_\t_\t_\t1:conj\t_\n"
                                 "5\tmar\tmar\tNOUN\tNN\t_\t1\tobl\t_\t_\n"
                                 "6\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\t_\n"
                                 "\n";
        const auto s = readDepTreebankString(text, DepFormat::ConllU, "a.conllu");
        QCOMPARE(s.size(), std::size_t(1));
        QCOMPARE(s[0].size(), 6);
        QCOMPARE(s[0].words[3], std::string("a"));
        QCOMPARE(s[0].tags[5], std::string("NN"));   // XPOS when present
        QCOMPARE(s[0].tags[1], std::string("VERB")); // else UPOS
        QCOMPARE(s[0].heads, (std::vector<int>{-1, 0, 1, 5, 5, 1, 1}));
        QCOMPARE(s[0].line, 4);
        QVERIFY(isPunctuationToken(s[0], 6));
        QVERIFY(!isPunctuationToken(s[0], 5));
    }

    // Issue 41: in CoNLL-U, punctuation is exactly UPOS PUNCT (the UD convention), whatever XPOS
    // says: a SYM with the PTB punctuation XPOS ":" is scored, a PUNCT with XPOS -LRB- is not.
    // CoNLL-X keeps the PTB tags.
    void conllUPunctuationIsUposPunct() {
        const std::string text = "1\tPrice\tprice\tNOUN\tNN\t_\t0\troot\t_\t_\n"
                                 "2\t:\t:\tSYM\t:\t_\t1\tpunct\t_\t_\n"
                                 "3\t(\t(\tPUNCT\t-LRB-\t_\t4\tpunct\t_\t_\n"
                                 "4\t5\t5\tNUM\tCD\t_\t1\tnummod\t_\t_\n"
                                 "\n";
        const auto u = readDepTreebankString(text, DepFormat::ConllU, "a.conllu");
        QVERIFY(u[0].universalTags);
        QVERIFY(!isPunctuationToken(u[0], 2)); // SYM, although XPOS ":" is PTB punctuation
        QVERIFY(isPunctuationToken(u[0], 3));  // PUNCT, although XPOS -LRB- is not
        const AttachmentScore a = scoreAttachment(u[0], {-1, 0, 1, 1, 1});
        QCOMPARE(a.tokens, 4);
        QCOMPARE(a.correct, 3);       // "(" is attached wrongly
        QCOMPARE(a.scoredTokens, 3);  // all but "("
        QCOMPARE(a.scoredCorrect, 3); // the wrong "(" is not scored
        const auto x = readDepTreebankString(text, DepFormat::ConllX, "a.conll");
        QVERIFY(!x[0].universalTags);
        QVERIFY(isPunctuationToken(x[0], 2)); // CoNLL-X: the PTB tag ":" is punctuation
    }

    // Multiword ranges and empty-node ids are checked, not skipped blindly (issue 46: "2-1" and
    // "1-99999999999" were accepted); a sentence beyond the parsers' length limit is refused
    // while reading, naming its line.
    void conllURangesAndLengthAreChecked() {
        const std::string tok = "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n"
                                "2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n";
        expectError("2-1\tab\t_\t_\t_\t_\t_\t_\t_\t_\n" + tok, DepFormat::ConllU, 1,
                    "multiword token range");
        expectError("1-99999999999\tab\t_\t_\t_\t_\t_\t_\t_\t_\n" + tok, DepFormat::ConllU, 1,
                    "multiword token range");
        expectError("1-1\tab\t_\t_\t_\t_\t_\t_\t_\t_\n" + tok, DepFormat::ConllU, 1, "b > a");
        expectError(tok + "2-3\tab\t_\t_\t_\t_\t_\t_\t_\t_\n", DepFormat::ConllU, 3,
                    "the next token id (3)");
        expectError(tok + "1.1\tab\t_\t_\t_\t_\t_\t_\t_\t_\n", DepFormat::ConllU, 3,
                    "empty node id");
        expectError("x-y\tab\t_\t_\t_\t_\t_\t_\t_\t_\n" + tok, DepFormat::ConllU, 1,
                    "not two integers");
        std::string longSentence = "# a long one\n";
        for (int i = 1; i <= 4096; ++i)
            longSentence +=
                std::to_string(i) + "\tw\tw\tX\t_\t_\t" + (i == 1 ? "0" : "1") + "\tdep\t_\t_\n";
        expectError(longSentence, DepFormat::ConllU, 4097, "more than 4095 tokens");
    }

    void conllUPromisesOneRoot() {
        expectError("1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t0\troot\t_\t_\n",
                    DepFormat::ConllU, 2, "second root");
    }

    void taggedText() {
        const auto s =
            readTaggedText("The/DT dog/NN barks/VBZ ./.\n\n# comment\n1\\/2/CD  a/DT\n", "in");
        QCOMPARE(s.size(), std::size_t(2));
        QCOMPARE(s[0].size(), 4);
        QCOMPARE(s[0].tags[4], std::string("."));
        QCOMPARE(s[1].words[1], std::string("1\\/2"));
        QCOMPARE(s[1].tags[1], std::string("CD"));
        QVERIFY(!s[0].hasTree());
        QCOMPARE(s[1].line, 4);
        try {
            readTaggedText("good/JJ bad\n", "in");
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(e.line(), 1);
            QCOMPARE(e.column(), 9);
        }
    }

    void directoriesAndMissingPaths() {
        const std::string dir = testdata::tempDir("depreader");
        std::ofstream(dir + "/b.conll") << "1\tx\tx\tNN\tNN\t_\t0\t_\t_\t_\n";
        std::ofstream(dir + "/a.dp") << "y\tNN\t0\n";
        std::ofstream(dir + "/ignored.txt") << "not a treebank";
        const auto s = readDepTreebank(dir);
        QCOMPARE(s.size(), std::size_t(2));
        QCOMPARE(s[0].words[1], std::string("y")); // sorted by file name
        QCOMPARE(s[1].words[1], std::string("x"));
        QVERIFY_THROWS_EXCEPTION(InputError, readDepTreebank(dir + "/missing"));
        const std::string empty = testdata::tempDir("depreader-empty");
        QVERIFY_THROWS_EXCEPTION(InputError, readDepTreebank(empty));
    }

    void sharedSample() {
        const auto train = readDepTreebank(testdata::depDir("train"));
        const auto dev = readDepTreebank(testdata::depDir("dev"));
        QCOMPARE(train.size(), std::size_t(2934));
        QCOMPARE(dev.size(), std::size_t(319));
        long tokens = 0;
        for (const auto& s : dev) {
            tokens += s.size();
            QCOMPARE(rootCount(s.heads), 1);
            QVERIFY(isProjective(s.heads));
        }
        QCOMPARE(tokens, 7605L);
    }

    void treeChecks() {
        QCOMPARE(treeProblem({-1, 2, 0, 2}), std::string());
        QVERIFY(treeProblem({-1, 2, 1}).find("cycle") != std::string::npos);
        QVERIFY(isProjective({-1, 2, 0, 2}));
        QVERIFY(!isProjective({-1, 3, 0, 2, 2})); // 1<-3 crosses 2->4
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestDepReader)
#include "test_dep_reader.moc"
