// Span features (paper sec. 6): shapes, the 16 templates on hand-worked spans, hash stability,
// and the fast per-sentence extractor against the string templates on real treebank sentences.
#include "core/policy/SpanFeatures.h"
#include "core/treebank/Normalize.h"
#include "core/treebank/TreebankReader.h"
#include "support/TestData.h"

#include <murmurhash.h>

#include "support/TestSuite.h"

#include <chrono>
#include <cstring>
#include <set>

using namespace prunescope;

namespace {
std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}
std::vector<uint32_t> hashed(const std::vector<std::string>& strings) {
    std::vector<uint32_t> out;
    for (const auto& s : strings)
        out.push_back(hashFeature(s));
    return out;
}
} // namespace

class TestFeatures : public QObject {
    Q_OBJECT
  private slots:
    void wordShapes_data() {
        QTest::addColumn<QString>("word");
        QTest::addColumn<QString>("shape");
        QTest::newRow("McDonald's") << "McDonald's"
                                    << "XxXxx'x"; // runs truncated to two
        QTest::newRow("number") << "1,234.5"
                                << "d,dd.d";
        QTest::newRow("The") << "The"
                             << "Xxx"; // a run of two is kept
        QTest::newRow("cat") << "cat"
                             << "xx";
        QTest::newRow("a") << "a"
                           << "x";
        QTest::newRow("acronym") << "U.S."
                                 << "X.X.";
        QTest::newRow("LRB") << "-LRB-"
                             << "-XX-";
        QTest::newRow("1990s") << "1990s"
                               << "ddx";
        QTest::newRow("mixed") << "ABCdef123"
                               << "XXxxdd";
        QTest::newRow("ellipsis") << "..."
                                  << "..."; // punctuation never truncated
        QTest::newRow("quotes") << "``"
                                << "``";
        QTest::newRow("fraction") << "3\\/4"
                                  << "d\\/d";
        QTest::newRow("space") << "New  York"
                               << "Xxx  Xxx"; // space is a class: run of 2 kept
        QTest::newRow("spaces") << "a   b"
                                << "x  x";
        QTest::newRow("empty") << ""
                               << "";
        QTest::newRow("hyphen") << "mid-1990s"
                                << "xx-ddx";
    }
    void wordShapes() {
        QFETCH(QString, word);
        QFETCH(QString, shape);
        QCOMPARE(QString::fromStdString(wordShape(word.toStdString())), shape);
    }
    void nonAsciiBytesUnchanged() {
        // UTF-8 bytes of 'ï' are not letters to the shape function: copied unchanged.
        QCOMPARE(wordShape("na\xC3\xAFve"), std::string("xx\xC3\xAFxx"));
    }
    void widthBuckets() {
        const std::vector<std::pair<int, std::string>> cases = {
            {2, "2"},     {3, "3"},      {4, "4"},      {5, "5"},    {6, "6-10"},
            {10, "6-10"}, {11, "11-20"}, {20, "11-20"}, {21, "21+"}, {100, "21+"}};
        for (const auto& [w, b] : cases)
            QCOMPARE(std::string(widthBucket(w)), b);
    }
    void handWorkedSpanInside() {
        const auto w = split("The cat sat on the mat .");
        const std::vector<std::string> expected = {
            "0:bias",        "1:len=7",      "2:L=The",       "3:F=cat",
            "4:E=sat",       "5:R=on",       "6:LF=The cat",  "7:ER=sat on",
            "8:LR=The on",   "9:FE=cat sat", "10:sLF=Xxx xx", "11:sER=xx xx",
            "12:sLR=Xxx xx", "13:sFE=xx xx", "14:span=xx xx", "15:width=2"};
        QCOMPARE(spanFeatureStrings(w, 1, 3), expected);
    }
    void handWorkedSpanAtSentenceStart() {
        const auto w = split("The cat sat on the mat .");
        const auto f = spanFeatureStrings(w, 0, 2);
        QCOMPARE(f[2], std::string("2:L=<BOS>"));
        QCOMPARE(f[6], std::string("6:LF=<BOS> The"));
        QCOMPARE(f[8], std::string("8:LR=<BOS> sat"));
        QCOMPARE(f[10], std::string("10:sLF=<BOS> Xxx"));
        QCOMPARE(f[12], std::string("12:sLR=<BOS> xx"));
        QCOMPARE(f[14], std::string("14:span=Xxx xx"));
    }
    void handWorkedSpanAtSentenceEnd() {
        const auto w = split("The cat sat on the mat .");
        const std::vector<std::string> expected = {
            "0:bias",          "1:len=7",     "2:L=on",          "3:F=the",
            "4:E=.",           "5:R=<EOS>",   "6:LF=on the",     "7:ER=. <EOS>",
            "8:LR=on <EOS>",   "9:FE=the .",  "10:sLF=xx xx",    "11:sER=. <EOS>",
            "12:sLR=xx <EOS>", "13:sFE=xx .", "14:span=xx xx .", "15:width=3"};
        QCOMPARE(spanFeatureStrings(w, 4, 7), expected);
    }
    void longSentenceCapsLengthAndWidth() {
        std::vector<std::string> w;
        for (int i = 0; i < 50; ++i)
            w.push_back(i % 2 ? "Ab" : "12");
        const auto f = spanFeatureStrings(w, 3, 28);
        QCOMPARE(f[1], std::string("1:len=40"));
        QCOMPARE(f[15], std::string("15:width=21+"));
        QCOMPARE(f[14].substr(0, 17), std::string("14:span=Xx dd Xx "));
        QCOMPARE(spanFeatureStrings(w, 3, 12)[15], std::string("15:width=6-10"));
    }
    void murmurReferenceVectors() {
        // Published MurmurHash3_x86_32 test vectors: proves lmmh_x86_32 is MurmurHash3.
        uint32_t out[1];
        lmmh_x86_32("", 0, 1, out);
        QCOMPARE(out[0], 0x514e28b7u);
        lmmh_x86_32("test", 4, 0, out);
        QCOMPARE(out[0], 0xba6bd213u);
        const char* fox = "The quick brown fox jumps over the lazy dog";
        lmmh_x86_32(fox, static_cast<unsigned>(std::strlen(fox)), 0, out);
        QCOMPARE(out[0], 0x2e4ff723u);
    }
    void hashStability() {
        // Computed once (seed 2017, 22 bits). If these change, every saved policy is invalid:
        // bump kFeatureSetVersion instead of editing these numbers.
        QCOMPARE(hashFeature("0:bias"), 31499u);
        QCOMPARE(hashFeature("3:F=cat"), 1116119u);
        QCOMPARE(hashFeature("14:span=xx xx ."), 2814737u);
        QCOMPARE(hashFeature("15:width=21+"), 3945088u);
        QCOMPARE(hashFeature(""), 2162249u);
        for (const char* s : {"0:bias", "3:F=cat", "x"})
            QVERIFY(hashFeature(s) < kFeatureDim);
    }
    void sentenceFeaturesMatchStrings() {
        const auto w = split("Mr. Smith , 45 years old , joined the board in 1990 ( briefly ) .");
        const SentenceFeatures sf(w);
        const int n = static_cast<int>(w.size());
        QCOMPARE(sf.length(), n);
        for (int i = 0; i < n; ++i)
            for (int k = i + 1; k <= n; ++k) {
                const auto f = sf.features(i, k);
                QCOMPARE(static_cast<int>(f.size()), kFeatureTemplates);
                QCOMPARE(std::vector<uint32_t>(f.begin(), f.end()),
                         hashed(spanFeatureStrings(w, i, k)));
            }
        QCOMPARE(sf.shapes()[0], std::string("Xx."));
        QCOMPARE(sf.shapes()[11], std::string("dd"));
        // Within one span the 16 templates give 16 distinct buckets (template id prefix).
        const auto f = sf.features(2, 7);
        QCOMPARE(std::set<uint32_t>(f.begin(), f.end()).size(), size_t(16));
        // Spans differing only at the right end differ exactly in the right-end templates.
        const auto a = sf.features(3, 6), b = sf.features(3, 7);
        for (int t : {0, 1, 2, 3, 6, 10})
            QCOMPARE(a[t], b[t]);
        for (int t : {4, 5, 7, 8, 9, 11, 12, 13, 14})
            QVERIFY(a[t] != b[t]);
    }
    void tinySentences() {
        const SentenceFeatures empty(std::vector<std::string>{});
        QCOMPARE(empty.length(), 0);
        const std::vector<std::string> one = {"Hi"};
        const SentenceFeatures sf(one);
        const auto f = sf.features(0, 1);
        QCOMPARE(std::vector<uint32_t>(f.begin(), f.end()), hashed(spanFeatureStrings(one, 0, 1)));
    }
    void realSentencesMatchStrings() {
        // Every span of every dev sentence: the fast extractor equals hashing the strings.
        const auto trees = readNormalizedTreebank(testdata::ptbDir("dev"));
        QVERIFY(trees.size() > 300);
        std::vector<std::vector<std::string>> sents;
        for (const auto& t : trees)
            sents.push_back(t.words());
        long spans = 0;
        std::set<uint32_t> distinct;
        for (size_t s = 0; s < sents.size(); s += 7) { // a seventh of them: string path is slow
            const auto& w = sents[s];
            const SentenceFeatures sf(w);
            const int n = sf.length();
            for (int i = 0; i < n; ++i)
                for (int k = i + 2; k <= n && k - i < n; ++k) {
                    const auto f = sf.features(i, k);
                    QCOMPARE(std::vector<uint32_t>(f.begin(), f.end()),
                             hashed(spanFeatureStrings(w, i, k)));
                    distinct.insert(f.begin(), f.end());
                    ++spans;
                }
        }
        QVERIFY(spans > 5000);
        QVERIFY(distinct.size() > 10000); // features are informative, not collapsing
        // Speed of the fast path over all dev sentences.
        const auto t0 = std::chrono::steady_clock::now();
        long total = 0;
        for (const auto& w : sents) {
            const SentenceFeatures sf(w);
            total += sf.length() > 0 ? sf.features(0, sf.length())[0] : 0;
        }
        const double sec =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        qInfo("SentenceFeatures for %zu dev sentences: %.3f s", sents.size(), sec);
        QVERIFY(total > 0);
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestFeatures)
#include "test_features.moc"
