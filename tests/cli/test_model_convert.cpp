// `prunescope-cli model convert` and the binary weight blocks every writer now writes (issue 45):
// the bundled policy, dependency and cube models (trained on WSJ by our tools) go to binary and
// back to the same bytes; a binary model parses the same trees and the same UAS as its JSON twin;
// a vine cascade moved to another folder still finds its final model; a damaged binary file is
// refused in one line naming file:line.
#include "core/dep/DepModel.h"
#include "core/util/AtomicFile.h"
#include "core/vine/VineCascade.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <filesystem>

namespace {

namespace td = prunescope::testdata;
using namespace prunescope;

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

td::CliRun convert(const std::string& in, const std::string& out, const char* weights) {
    return td::runCli(
        {"model", "convert", "--input", q(in), "--out", q(out), "--weights", weights});
}

} // namespace

class TestModelConvert : public QObject {
    Q_OBJECT
  private slots:
    void samplesGoToBinaryAndBackByteForByte_data() {
        QTest::addColumn<QString>("sample");
        QTest::newRow("policy") << "policies/baseline-w16.json";
        QTest::newRow("dependency model") << "dep/model.json";
        QTest::newRow("cube model") << "cube/model.json";
    }
    void samplesGoToBinaryAndBackByteForByte() {
        QFETCH(QString, sample);
        const std::string dir = td::tempDir("model-convert");
        const std::string in = td::samplePath(sample.toStdString());
        const td::CliRun b = convert(in, dir + "/bin.json", "binary");
        QVERIFY2(b.exitCode == 0, qPrintable(b.err));
        QVERIFY(b.out.startsWith("wrote "));
        const std::string bin = readFile(dir + "/bin.json");
        QVERIFY(bin.find('\0') != std::string::npos);
        QVERIFY2(bin.size() * 2 < readFile(in).size(), qPrintable(QString::number(bin.size())));
        const td::CliRun j = convert(dir + "/bin.json", dir + "/back.json", "json");
        QVERIFY2(j.exitCode == 0, qPrintable(j.err));
        QVERIFY(readFile(dir + "/back.json") == readFile(in));
    }

    // The binary model is the same model: same heads and UAS on the sample sentences.
    void binaryModelParsesTheSame() {
        const std::string dir = td::tempDir("model-convert-parse");
        QCOMPARE(convert(td::samplePath("dep/model.json"), dir + "/m.json", "binary").exitCode, 0);
        const QString sentences = q(td::samplePath("dep/sentences.dp"));
        const td::CliRun a =
            td::runCli({"dep", "eval", "--model", q(td::samplePath("dep/model.json")), "--treebank",
                        sentences, "--json", "--per-sentence", "--quiet"});
        const td::CliRun b = td::runCli({"dep", "eval", "--model", q(dir + "/m.json"), "--treebank",
                                         sentences, "--json", "--per-sentence", "--quiet"});
        QCOMPARE(a.exitCode, 0);
        QCOMPARE(b.exitCode, 0);
        const auto ja = nlohmann::json::parse(a.out.toStdString());
        const auto jb = nlohmann::json::parse(b.out.toStdString());
        QCOMPARE(ja["uas"].get<double>(), jb["uas"].get<double>());
        QVERIFY(ja["perSentence"].size() > 0);
        for (std::size_t s = 0; s < ja["perSentence"].size(); ++s)
            QVERIFY(ja["perSentence"][s]["heads"] == jb["perSentence"][s]["heads"]);
    }

    // A cascade names its final model relative to its own folder; the copy elsewhere still finds
    // the same file.
    void cascadeKeepsItsFinalModel() {
        const std::string dir = td::tempDir("model-convert-cascade");
        std::filesystem::create_directories(dir + "/a");
        std::filesystem::create_directories(dir + "/b/c");
        writeFileAtomically(dir + "/a/model.json", readFile(td::samplePath("dep/model.json")));
        VineCascade c;
        c.finalModel = "model.json";
        c.alphas = {0.5};
        VineCascadeStage s;
        s.name = "vine";
        s.kind = CascadeStageKind::Vine;
        s.band = 3;
        s.weights = HashedWeights::zeros(12);
        s.weights.w[7] = -1.5f;
        c.stages.push_back(s);
        saveVineCascade(c, dir + "/a/cascade.json", WeightsForm::Json);
        const td::CliRun r = convert(dir + "/a/cascade.json", dir + "/b/c/cascade.json", "binary");
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const VineCascade back = loadVineCascade(dir + "/b/c/cascade.json");
        QCOMPARE(back.finalModel, std::string("../../a/model.json"));
        QVERIFY(std::filesystem::equivalent(back.finalModelResolved, dir + "/a/model.json"));
        QVERIFY(back.stages[0].weights.w == c.stages[0].weights.w);
    }

    void damagedOrForeignFilesAreRefusedInOneLine() {
        const std::string dir = td::tempDir("model-convert-bad");
        QCOMPARE(convert(td::samplePath("dep/model.json"), dir + "/m.json", "binary").exitCode, 0);
        std::string bin = readFile(dir + "/m.json");
        bin[bin.size() - 5] ^= 0x40;
        writeFileAtomically(dir + "/damaged.json", bin);
        const td::CliRun d = td::runCli({"dep", "eval", "--model", q(dir + "/damaged.json"),
                                         "--treebank", q(td::samplePath("dep/sentences.dp"))});
        td::expectCliError(d, q(dir + "/damaged.json:1:"));
        QVERIFY(d.err.contains("checksum does not match"));
        const td::CliRun f =
            convert(td::samplePath("policies/frontier.json"), dir + "/x.json", "json");
        td::expectCliError(f, q(td::samplePath("policies/frontier.json")));
        QVERIFY(f.err.contains("not a model, cascade, filter or policy file"));
        QVERIFY(!std::filesystem::exists(dir + "/x.json"));
        // The output guard: the input is never the output.
        const std::string copy = dir + "/m.json";
        const std::string before = readFile(copy);
        const td::CliRun same = convert(copy, copy, "json");
        QVERIFY(same.exitCode != 0);
        QVERIFY(readFile(copy) == before);
    }
};

PRUNESCOPE_QTEST_MAIN(TestModelConvert)
#include "test_model_convert.moc"
