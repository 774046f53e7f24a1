// Tests for core/util/BinarySection: weight blocks after a JSON header round-trip bit for bit
// (-0.0, subnormals, the smallest and largest floats), the writer stores the smaller encoding, and
// every damaged file (a flipped byte, a cut or extended section, a header without its section, a
// bad descriptor, indices out of order, a NaN) is refused with the file and the header's line.
#include "core/util/BinarySection.h"
#include "core/util/ContentHash.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"

#include "support/InputErrors.h"
#include "support/TestSuite.h"

#include <bit>
#include <cstring>
#include <limits>

using namespace prunescope;
using nlohmann::json;

namespace {

// A file with one block holding w: {"format": "test", "weights": descriptor}.
std::string fileWith(std::span<const float> w) {
    BinarySectionWriter bin;
    json header = {{"format", "test"}, {"weights", bin.add(w)}};
    return bin.file(header);
}

std::vector<float> readBack(const std::string& text, std::size_t n) {
    const JsonDocument doc(text, "w.json", "", 1, JsonDocument::Binary::Allowed);
    std::vector<float> out(n, 0.0f);
    readWeightBlock(doc, doc.member(doc.root(), "weights"), out);
    return out;
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), 4 * a.size()) == 0;
}

// The error reading text (Binary::Allowed, then the block of "weights"), or "" if none.
std::string errorOf(const std::string& text, std::size_t n = 8) {
    const InputError e = testdata::inputErrorOf([&] { readBack(text, n); });
    return e.line() == -1 ? std::string() : std::string(e.what());
}

// text with its binary section replaced by section, and the header's length and checksum made to
// match (so only the descriptor's own checks can refuse it).
std::string withSection(const std::string& text, const std::string& section) {
    const std::size_t nul = text.find('\0');
    json header = json::parse(text.substr(0, nul));
    header[kBinarySectionKey] = {{"bytes", section.size()}, {"checksum", contentHash(section)}};
    return header.dump() + "\n" + '\0' + section;
}

std::string words(std::initializer_list<std::uint32_t> ws) {
    std::string s;
    for (std::uint32_t w : ws) {
        char b[4];
        std::memcpy(b, &w, 4); // the test machine is little-endian, as the format
        s.append(b, 4);
    }
    return s;
}

} // namespace

class TestBinarySection : public QObject {
    Q_OBJECT
  private slots:
    void roundTripIsBitForBit_data() {
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("every"); // a non-zero entry every this many
        QTest::newRow("all zero") << 1000 << 0;
        QTest::newRow("sparse") << 4096 << 37;
        QTest::newRow("dense") << 4096 << 1;
        QTest::newRow("half") << 64 << 2;
        QTest::newRow("one entry") << 1 << 1;
    }
    void roundTripIsBitForBit() {
        QFETCH(int, size);
        QFETCH(int, every);
        const float special[] = {-0.0f,
                                 std::numeric_limits<float>::denorm_min(),
                                 -std::numeric_limits<float>::max(),
                                 std::numeric_limits<float>::min(),
                                 0.1f,
                                 -3.5e-20f};
        std::vector<float> w(size, 0.0f);
        for (int i = 0, k = 0; every > 0 && i < size; i += every, ++k)
            w[i] = special[k % 6];
        const std::string text = fileWith(w);
        QVERIFY(sameBits(readBack(text, w.size()), w));
        // The header is plain JSON before the NUL; the block is the smaller encoding.
        const json header = json::parse(text.substr(0, text.find('\0')));
        const std::size_t stored =
            std::count_if(w.begin(), w.end(), [](float f) { return std::bit_cast<int>(f) != 0; });
        const bool sparse = 2 * stored < w.size();
        QCOMPARE(header["weights"]["encoding"].get<std::string>(),
                 std::string(sparse ? "sparse-f32le" : "dense-f32le"));
        QCOMPARE(header[kBinarySectionKey]["bytes"].get<std::size_t>(),
                 sparse ? 8 * stored : 4 * w.size());
    }

    void nonFiniteWeightsAreNotWritten() {
        BinarySectionWriter bin;
        const std::vector<float> w{1.0f, std::numeric_limits<float>::infinity()};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bin.add(w));
    }

    // The section is checked whole before any block is read.
    void damagedSectionsAreRefused() {
        std::vector<float> w(8, 0.0f);
        w[3] = 2.5f;
        const std::string good = fileWith(w);
        QCOMPARE(errorOf(good), std::string());
        std::string flipped = good;
        flipped.back() ^= 0x01;
        QVERIFY(errorOf(flipped).find("checksum does not match") != std::string::npos);
        const std::string cut = good.substr(0, good.size() - 1);
        QVERIFY(errorOf(cut).find("the header says 8 (file truncated?)") != std::string::npos);
        const std::string headerOnly = good.substr(0, good.find('\0'));
        QVERIFY(errorOf(headerOnly).find("file ends after the JSON") != std::string::npos);
        QVERIFY(errorOf(good + "xyz").find("has 11 bytes, the header says 8") != std::string::npos);
        // Every refusal names the file and the header's line (1: the header is one line).
        QVERIFY(errorOf(flipped).rfind("w.json:1:", 0) == 0);
        // Binary data after a header that does not announce it.
        json plain = {{"format", "test"}};
        QVERIFY(errorOf(plain.dump() + "\n" + '\0' + "abcd").find("has no 'binarySection'") !=
                std::string::npos);
        // A reader that takes no binary section sees a NUL where JSON must end.
        const InputError e =
            testdata::inputErrorOf([&] { JsonDocument(good, "w.json", "policy: "); });
        QVERIFY2(std::string(e.what()).find("invalid JSON") != std::string::npos, e.what());
    }

    void badDescriptorsAndEntriesAreRefused_data() {
        QTest::addColumn<QString>("descriptor"); // the weights object, as JSON
        QTest::addColumn<QByteArray>("section");
        QTest::addColumn<QString>("message");
        const auto sec = [](std::initializer_list<std::uint32_t> ws) {
            const std::string s = words(ws);
            return QByteArray(s.data(), static_cast<int>(s.size()));
        };
        const std::uint32_t one = std::bit_cast<std::uint32_t>(1.0f);
        const std::uint32_t nan = std::bit_cast<std::uint32_t>(std::nanf(""));
        QTest::newRow("encoding") << R"({"encoding":"f16","offset":0,"count":1})" << sec({1, one})
                                  << "unknown encoding \"f16\"";
        QTest::newRow("outside") << R"({"encoding":"sparse-f32le","offset":4,"count":1})"
                                 << sec({1, one}) << "lies outside the 8-byte binary section";
        QTest::newRow("count > size") << R"({"encoding":"sparse-f32le","offset":0,"count":9})"
                                      << sec({1, one}) << "count 9 exceeds the 8 entries";
        QTest::newRow("dense count") << R"({"encoding":"dense-f32le","offset":0,"count":2})"
                                     << sec({one, one}) << "count must be 8, not 2";
        QTest::newRow("index range") << R"({"encoding":"sparse-f32le","offset":0,"count":1})"
                                     << sec({8, one}) << "index 8 is out of range (entry 0, byte 0";
        QTest::newRow("not ascending")
            << R"({"encoding":"sparse-f32le","offset":0,"count":2})" << sec({5, 5, one, one})
            << "index 5 is not ascending (entry 1, byte 4";
        QTest::newRow("nan") << R"({"encoding":"dense-f32le","offset":0,"count":8})"
                             << sec({0, 0, nan, 0, 0, 0, 0, 0})
                             << "a weight is not finite (entry 2, byte 8";
        QTest::newRow("negative offset") << R"({"encoding":"dense-f32le","offset":-4,"count":8})"
                                         << sec({0, 0, 0, 0, 0, 0, 0, 0}) << "non-negative";
    }
    void badDescriptorsAndEntriesAreRefused() {
        QFETCH(QString, descriptor);
        QFETCH(QByteArray, section);
        QFETCH(QString, message);
        std::vector<float> w(8, 0.0f);
        json header = json::parse(fileWith(w).substr(0, fileWith(w).find('\0')));
        header["weights"] = json::parse(descriptor.toStdString());
        const std::string text = withSection(header.dump() + "\n" + '\0', section.toStdString());
        const std::string err = errorOf(text);
        QVERIFY2(err.find(message.toStdString()) != std::string::npos, err.c_str());
        QVERIFY2(err.rfind("w.json:1:", 0) == 0, err.c_str());
    }
};

PRUNESCOPE_QTEST_MAIN(TestBinarySection)
#include "test_binary_section.moc"
