// Writing parses back (core/dep/DepWriter.h, issue 41): on UD English EWT dev, a CoNLL-U file
// written with the gold heads is the input file line for line (comments, multiword tokens and empty
// nodes kept) except DEPREL and DEPS, which become `_`; written with other heads, only HEAD
// changes; both formats read back to the same words, tags and heads; sentences from a .dp file get
// minimal CoNLL-U lines; a wrong name or wrong heads is refused.
#include "core/dep/DepReader.h"
#include "core/dep/DepWriter.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <filesystem>
#include <stdexcept>

using namespace prunescope;

namespace {

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string::npos) nl = text.size();
        out.push_back(text.substr(pos, nl - pos));
        pos = nl + 1;
    }
    return out;
}

std::vector<std::string> columns(const std::string& line) {
    std::vector<std::string> f;
    std::size_t start = 0;
    for (std::size_t t; (t = line.find('\t', start)) != std::string::npos; start = t + 1)
        f.push_back(line.substr(start, t - start));
    f.push_back(line.substr(start));
    return f;
}

bool isTokenId(const std::string& id) {
    return !id.empty() && id.find_first_not_of("0123456789") == std::string::npos;
}

// Every token attached to its right neighbour, the last one to the root (a tree unlike gold).
std::vector<int> chainHeads(int n) {
    std::vector<int> h(static_cast<std::size_t>(n) + 1);
    h[0] = -1;
    for (int m = 1; m <= n; ++m)
        h[static_cast<std::size_t>(m)] = m == n ? 0 : m + 1;
    return h;
}

void compareSentences(const std::vector<DepSentence>& a, const std::vector<DepSentence>& b,
                      bool withHeads) {
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].words, b[i].words);
        QCOMPARE(a[i].tags, b[i].tags);
        QCOMPARE(a[i].upos, b[i].upos);
        if (withHeads) QCOMPARE(a[i].heads, b[i].heads);
    }
}

} // namespace

class TestDepWriter : public QObject {
    Q_OBJECT
    std::string devPath_ = testdata::dataDir() + "/ewt-ud/dev/en_ewt-ud-dev.conllu";
    std::vector<DepSentence> dev_;

  private slots:
    void initTestCase() { dev_ = readDepTreebank(devPath_); }

    void conlluWithGoldHeadsIsTheInputButLabels() {
        QVERIFY(dev_.size() > 2000);
        std::vector<std::vector<int>> heads;
        for (const auto& s : dev_)
            heads.push_back(s.heads);
        const std::string out = testdata::tempDir("dep-writer") + "/gold.conllu";
        writeDepParses(out, dev_, heads);
        const auto in = lines(readFile(devPath_)), written = lines(readFile(out));
        QCOMPARE(written.size(), in.size());
        int tokens = 0, multiword = 0, empty = 0, comments = 0;
        for (std::size_t i = 0; i < in.size(); ++i) {
            const auto a = columns(in[i]), b = columns(written[i]);
            if (a.size() != 10 || !isTokenId(a[0])) {
                QCOMPARE(written[i], in[i]); // comments, blank lines, "3-4", "8.1" as read
                comments += !in[i].empty() && in[i][0] == '#';
                multiword += a.size() == 10 && a[0].find('-') != std::string::npos;
                empty += a.size() == 10 && a[0].find('.') != std::string::npos;
                continue;
            }
            ++tokens;
            QCOMPARE(b.size(), std::size_t(10));
            for (int c = 0; c < 10; ++c)
                QCOMPARE(b[static_cast<std::size_t>(c)],
                         c == 7 || c == 8 ? std::string("_") : a[static_cast<std::size_t>(c)]);
        }
        QVERIFY(tokens > 25000);
        QVERIFY(multiword > 100); // the file has 359 multiword tokens and 4 empty nodes
        QVERIFY(empty > 0);
        QVERIFY(comments > 2 * static_cast<int>(dev_.size()));
        compareSentences(readDepTreebank(out), dev_, true);
    }

    void conlluWithOtherHeadsChangesOnlyHead() {
        std::vector<std::vector<int>> heads;
        for (const auto& s : dev_)
            heads.push_back(chainHeads(s.size()));
        const std::string out = testdata::tempDir("dep-writer") + "/chain.conllu";
        writeDepParses(out, dev_, heads);
        const auto back = readDepTreebank(out);
        compareSentences(back, dev_, false);
        for (std::size_t i = 0; i < back.size(); ++i)
            QCOMPARE(back[i].heads, heads[i]);
    }

    void depSampleRoundTrip() {
        std::vector<std::vector<int>> heads;
        for (const auto& s : dev_)
            heads.push_back(chainHeads(s.size()));
        const std::string out = testdata::tempDir("dep-writer") + "/chain.dp";
        writeDepParses(out, dev_, heads);
        const auto back = readDepTreebank(out);
        QCOMPARE(back.size(), dev_.size());
        for (std::size_t i = 0; i < back.size(); ++i) {
            QCOMPARE(back[i].words, dev_[i].words);
            QCOMPARE(back[i].tags, dev_[i].tags);
            QCOMPARE(back[i].heads, heads[i]);
        }
    }

    void sentencesFromDpGetMinimalConllu() {
        const auto wsj = readDepTreebank(testdata::depDir("dev") + "/wsj_0131.dp");
        QVERIFY(!wsj.empty());
        QVERIFY(wsj[0].conllu.empty());
        std::vector<std::vector<int>> heads;
        for (const auto& s : wsj)
            heads.push_back(s.heads);
        const std::string out = testdata::tempDir("dep-writer") + "/wsj.conllu";
        writeDepParses(out, wsj, heads);
        const auto back = readDepTreebank(out);
        QCOMPARE(back.size(), wsj.size());
        for (std::size_t i = 0; i < back.size(); ++i) {
            QCOMPARE(back[i].words, wsj[i].words);
            QCOMPARE(back[i].tags, wsj[i].tags);
            QCOMPARE(back[i].heads, wsj[i].heads);
        }
        QCOMPARE(conlluText(wsj[0], heads[0]).substr(0, 2), std::string("1\t"));
    }

    void refusals() {
        const std::string dir = testdata::tempDir("dep-writer-bad");
        try {
            writeDepParses(dir + "/out.txt", {dev_[0]}, {dev_[0].heads});
            QFAIL("an unknown extension was accepted");
        } catch (const InputError& e) {
            QVERIFY(std::string(e.what()).find(".conllu") != std::string::npos);
        }
        std::vector<int> shortHeads(dev_[0].heads.begin(), dev_[0].heads.end() - 1);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, conlluText(dev_[0], shortHeads));
        std::vector<int> unknown = dev_[0].heads;
        unknown[1] = -1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, depSampleText(dev_[0], unknown));
        std::vector<int> self = dev_[0].heads;
        self[1] = 1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, conlluText(dev_[0], self));
        QVERIFY(!std::filesystem::exists(dir + "/out.txt"));
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestDepWriter)
#include "test_dep_writer.moc"
