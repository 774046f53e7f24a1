// prunescope-cli dep-parse as a user runs it (issue 12): tokens from standard input in both layouts
// (word/POS lines, word TAB POS lines), a treebank file with --json (heads, max-marginal matrix,
// UAS), --mask parses under exactly the given mask (a pruned predicted arc changes the tree), and
// --out writes CoNLL-U (the input's lines, HEAD filled in) and .dp (issue 41), and bad input (stdin
// lines, mask files, a missing model, an output of unknown format) exits 2 with one line
// `error: FILE:LINE…`.
#include "core/dep/DepReader.h"
#include "core/util/AtomicFile.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace {

using Run = prunescope::testdata::CliRun;

QString model() {
    return QString::fromStdString(prunescope::testdata::sourceDir()) + "/samples/dep/model.json";
}
QString sample() {
    return QString::fromStdString(prunescope::testdata::sourceDir()) + "/samples/dep/sentences.dp";
}

// `prunescope-cli dep-parse ARGS` with `input` on its standard input.
Run depParse(const QStringList& args, const QByteArray& input = {}) {
    prunescope::testdata::CliRunOptions o;
    o.input = input;
    o.timeoutMs = 120000;
    return prunescope::testdata::runCli(QStringList{"dep-parse"} + args, o);
}

} // namespace

class TestDepParseCli : public QObject {
    Q_OBJECT
  private slots:
    void stdinLayouts() {
        const Run a =
            depParse({"--model", model()}, "The/DT committee/NN approved/VBD the/DT plan/NN ./.\n");
        QVERIFY2(a.exitCode == 0, qPrintable(a.err));
        const QStringList lines = a.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 6);
        QCOMPARE(lines[2].section('\t', 1, 2), QString("approved\tVBD"));
        const Run b = depParse({"--model", model(), "--json"},
                               "The\tDT\ncommittee\tNN\napproved\tVBD\nthe\tDT\nplan\tNN\n.\t.\n");
        QVERIFY2(b.exitCode == 0, qPrintable(b.err));
        const auto j = nlohmann::json::parse(b.out.toStdString());
        QCOMPARE(j["sentences"].size(), std::size_t(1));
        // both layouts give the same heads (the table's 4th column)
        for (int m = 0; m < 6; ++m)
            QCOMPARE(j["sentences"][0]["heads"][static_cast<std::size_t>(m)].get<int>(),
                     lines[m].section('\t', 3, 3).toInt());
        QVERIFY(!j["sentences"][0].contains("uas")); // no gold heads on stdin
    }

    void treebankJsonAndMask() {
        const Run a = depParse({"--model", model(), "--input", sample(), "--json"});
        QVERIFY2(a.exitCode == 0, qPrintable(a.err));
        const auto j = nlohmann::json::parse(a.out.toStdString());
        QCOMPARE(j["sentences"].size(), std::size_t(8));
        const auto& s = j["sentences"][4];
        const std::size_t n = s["words"].size();
        QCOMPARE(s["maxMarginals"]["value"].size(), n + 1);
        QVERIFY(s.contains("uas"));
        // prune the predicted arc of token 2 in a mask for sentence 5: the tree must avoid it
        const int h = s["heads"][1].get<int>();
        const std::string dir = prunescope::testdata::tempDir("dep-parse-cli");
        prunescope::writeFileAtomically(
            dir + "/mask.json",
            nlohmann::json{{"n", n}, {"pruned", {{h, 2}}}, {"sentence", 5}}.dump());
        const Run b = depParse({"--model", model(), "--input", sample(), "--mask-file",
                                QString::fromStdString(dir + "/mask.json"), "--json"});
        QVERIFY2(b.exitCode == 0, qPrintable(b.err));
        const auto k = nlohmann::json::parse(b.out.toStdString());
        QCOMPARE(k["sentences"].size(), std::size_t(1));
        QCOMPARE(k["sentences"][0]["words"], s["words"]);
        QVERIFY(k["sentences"][0]["heads"][1].get<int>() != h);
        QVERIFY(
            k["sentences"][0]["maxMarginals"]["value"][static_cast<std::size_t>(h)][2].is_null());
        QCOMPARE(k["sentences"][0]["arcsKept"].get<long>(), static_cast<long>(n * n - 1));
        QVERIFY(k["sentences"][0]["givenMask"].get<bool>());
    }

    // --out (issue 41): the parses as CoNLL-U and .dp. On the first EWT dev sentences (a CoNLL-U
    // file with multiword tokens), the written file is the input with HEAD = the JSON's heads and
    // DEPREL/DEPS '_', every other line unchanged; the .dp file reads back to the same heads.
    void writesConlluAndDp() {
        const std::string ewt = prunescope::readFile(prunescope::testdata::dataDir() +
                                                     "/ewt-ud/dev/en_ewt-ud-dev.conllu");
        // the first 40 sentences (blank-line separated), enough for a multiword token
        std::size_t end = 0;
        for (int k = 0; k < 40; ++k)
            end = ewt.find("\n\n", end) + 2;
        const std::string dir = prunescope::testdata::tempDir("dep-parse-cli-out");
        const QString in = QString::fromStdString(dir + "/in.conllu");
        prunescope::writeFileAtomically(in.toStdString(), ewt.substr(0, end));
        const QString conllu = QString::fromStdString(dir + "/out.conllu");
        const QString dp = QString::fromStdString(dir + "/out.dp");
        const Run r =
            depParse({"--model", model(), "--input", in, "--json", "--out", conllu, "--out", dp});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["sentences"].size(), std::size_t(40));
        const auto inLines = QString::fromStdString(ewt.substr(0, end)).split('\n');
        const auto outLines =
            QString::fromStdString(prunescope::readFile(conllu.toStdString())).split('\n');
        QCOMPARE(outLines.size(), inLines.size());
        std::size_t sentence = 0, token = 0;
        int multiword = 0;
        for (qsizetype i = 0; i < inLines.size(); ++i) {
            const QStringList a = inLines[i].split('\t'), b = outLines[i].split('\t');
            bool isToken = false;
            a[0].toInt(&isToken);
            if (a.size() != 10 || !isToken) {
                QCOMPARE(outLines[i], inLines[i]);
                multiword += a.size() == 10 && a[0].contains('-');
                if (inLines[i].isEmpty() && token > 0) ++sentence, token = 0;
                continue;
            }
            const int head = j["sentences"][sentence]["heads"][token++].get<int>();
            QCOMPARE(b[6].toInt(), head);
            QCOMPARE(b[7], QString("_"));
            QCOMPARE(b[8], QString("_"));
            for (int c : {0, 1, 2, 3, 4, 5, 9})
                QCOMPARE(b[c], a[c]);
        }
        QCOMPARE(sentence, std::size_t(40));
        QVERIFY(multiword > 0);
        const auto back = prunescope::readDepTreebank(dp.toStdString());
        QCOMPARE(back.size(), std::size_t(40));
        for (std::size_t k = 0; k < back.size(); ++k)
            for (std::size_t m = 1; m < back[k].heads.size(); ++m)
                QCOMPARE(back[k].heads[m], j["sentences"][k]["heads"][m - 1].get<int>());
        // an unknown extension is refused before parsing, naming the file
        prunescope::testdata::expectCliError(depParse({"--model", model(), "--input", in, "--out",
                                                       QString::fromStdString(dir + "/out.txt")}),
                                             QString::fromStdString(dir + "/out.txt"), 2);
        QVERIFY(!std::filesystem::exists(dir + "/out.txt"));
    }

    void badInput() {
        prunescope::testdata::expectCliError(depParse({"--model", model()}, "The\tDT\ncat NN\n"),
                                             "<stdin>:2", 2);
        prunescope::testdata::expectCliError(depParse({"--model", model()}, "The/DT cat\n"),
                                             "<stdin>:1", 2);
        prunescope::testdata::expectCliError(
            depParse({"--model", "/nonexistent/model.json"}, "a/DT\n"), "/nonexistent/model.json",
            2);
        const std::string dir = prunescope::testdata::tempDir("dep-parse-cli-bad");
        prunescope::writeFileAtomically(dir + "/m1.json", "{\"n\": 11, \"pruned\": [[0, 0]]}");
        prunescope::testdata::expectCliError(
            depParse({"--model", model(), "--input", sample(), "--mask",
                      QString::fromStdString(dir + "/m1.json")}),
            QString::fromStdString(dir + "/m1.json:1:22"), 2); // at the arc (issue 46)
        // 4294967297 is not 1 (it was read as an int and wrapped around): refused at the value.
        prunescope::writeFileAtomically(dir + "/m4.json",
                                        "{\"n\": 11,\n \"pruned\": [[4294967296, 1]]}");
        prunescope::testdata::expectCliError(
            depParse({"--model", model(), "--input", sample(), "--mask",
                      QString::fromStdString(dir + "/m4.json")}),
            QString::fromStdString(dir + "/m4.json:2:13"), 2);
        prunescope::writeFileAtomically(dir + "/m2.json", "{\"n\": 11,\n \"pruned\": [[0, 1]");
        prunescope::testdata::expectCliError(
            depParse({"--model", model(), "--input", sample(), "--mask",
                      QString::fromStdString(dir + "/m2.json")}),
            QString::fromStdString(dir + "/m2.json:2"), 2);
        prunescope::testdata::expectCliError(
            depParse({"--model", model(), "--input", sample(), "--sentence", "99"}), sample(), 2);
        // The mask's own "sentence" out of range is the mask file's error, at the value (issue
        // 46: it was blamed on --sentence).
        prunescope::writeFileAtomically(
            dir + "/m3.json", "{\n  \"n\": 3,\n  \"sentence\": 99,\n  \"pruned\": []\n}\n");
        const auto r3 = depParse({"--model", model(), "--input", sample(), "--mask",
                                  QString::fromStdString(dir + "/m3.json")});
        prunescope::testdata::expectCliError(r3, QString::fromStdString(dir + "/m3.json:3:15"), 2);
        QVERIFY2(!r3.err.contains("--sentence"), qPrintable(r3.err));
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestDepParseCli)
#include "test_dep_parse_cli.moc"
