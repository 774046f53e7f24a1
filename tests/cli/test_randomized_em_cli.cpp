// prunescope-cli randomized-em as a user runs it (issue 15; Vieira & Eisner sec. 6 / Dyer's
// stepwise EM): results do not depend on --threads; a fixed mask at threshold 0 keeps every span,
// so its EM is exact EM; full-batch EM (step size 1) never lowers the training likelihood; every
// grammar
// --save-grammars writes loads, and evaluating a saved grammar gives the dev F1 the run reported
// (step size 0.5, where no rule reaches probability 0; with step size 1 the zero-probability rules
// are left out, with a note); bad options exit non-zero with one line. And bench-randomized: one
// row per length, an MCMC iteration pushes less than an exact inside-outside pass, a length the
// treebank lacks is an error.
#include "core/util/AtomicFile.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <QDir>

#include <nlohmann/json.hpp>

namespace {

using Run = prunescope::testdata::CliRun;
namespace td = prunescope::testdata;

QString emPath(const std::string& s) {
    return QString::fromStdString(s);
}

// randomized-em on 20 short training sentences and the dev sentences of <= 8 words; --json to a
// file.
nlohmann::json randomizedEm(const std::string& dir, const QString& tag, const QStringList& extra,
                            Run* run = nullptr) {
    const std::string out = dir + "/" + tag.toStdString() + ".json";
    td::CliRunOptions o;
    o.timeoutMs = 300000;
    const Run r = td::runCli(
        QStringList{"randomized-em", "--grammar", emPath(td::samplePath("grammar.gram")), "--train",
                    emPath(td::ptbDir("train")), "--dev", emPath(td::ptbDir("dev")),
                    "--train-max-len", "8", "--train-limit", "20", "--dev-max-len", "8",
                    "--iterations", "8", "--json", emPath(out)} +
            extra,
        o);
    if (run) *run = r;
    if (r.exitCode != 0) {
        qWarning("%s", qPrintable(r.err));
        return {};
    }
    return nlohmann::json::parse(prunescope::readFile(out));
}

nlohmann::json evalGrammar(const std::string& grammar) {
    const Run r = td::runCli({"eval", "--grammar", emPath(grammar), "--treebank",
                              emPath(td::ptbDir("dev")), "--max-len", "8", "--json"});
    if (r.exitCode != 0) qWarning("%s", qPrintable(r.err));
    return r.exitCode == 0 ? nlohmann::json::parse(r.out.toStdString()) : nlohmann::json{};
}

} // namespace

class TestRandomizedEmCli : public QObject {
    Q_OBJECT
  private slots:
    void threadsFixedMaskAndSavedGrammars() {
        const std::string dir = td::tempDir("randomized-em-cli");
        const std::string saved = dir + "/grammars";
        const auto one = randomizedEm(dir, "t1",
                                      {"--em-iterations", "2", "--fixed-threshold", "0",
                                       "--threads", "1", "--save-grammars", emPath(saved)});
        const auto two = randomizedEm(
            dir, "t2", {"--em-iterations", "2", "--fixed-threshold", "0", "--threads", "2"});
        QVERIFY(!one.is_null());
        QCOMPARE(two, one);
        QCOMPARE(one["devSentences"].get<int>(), 17);
        const auto& exact = one["methods"]["exact"]["steps"];
        const auto& fixed = one["methods"]["fixed-mask"]["steps"];
        QCOMPARE(exact.size(), std::size_t(2));
        for (std::size_t i = 0; i < exact.size(); ++i) {
            nlohmann::json f = fixed[i];
            QCOMPARE(f["distanceToExactEm"].get<double>(), 0.0); // threshold 0 keeps every span
            f.erase("distanceToExactEm");
            QCOMPARE(f, exact[i]);
            QVERIFY(one["methods"]["randomized"]["steps"][i]["distanceToExactEm"].get<double>() >
                    0);
            // the saved grammar of this step parses dev as the run reported
            const auto e = evalGrammar(saved + "/exact-" + std::to_string(i + 1) + ".gram");
            QCOMPARE(e["sentences"].get<int>(), 17);
            QCOMPARE(e["failures"].get<int>(), exact[i]["devFailures"].get<int>());
            QCOMPARE(e["f1"].get<double>(), exact[i]["devF1"].get<double>());
        }
        QCOMPARE(QDir(emPath(saved)).entryList({"*.gram"}).size(), 6); // 3 methods x 2 iterations
    }

    void fullBatchEmRaisesTheLikelihood() {
        const std::string dir = td::tempDir("randomized-em-cli-eta1");
        Run r;
        const auto j = randomizedEm(dir, "eta1",
                                    {"--em-iterations", "3", "--step-size", "1", "--methods",
                                     "exact", "--save-grammars", emPath(dir + "/g")},
                                    &r);
        QVERIFY(!j.is_null());
        double previous = j["initial"]["trainLogLikelihoodPerWord"].get<double>();
        for (const auto& s : j["methods"]["exact"]["steps"]) {
            const double ll = s["trainLogLikelihoodPerWord"].get<double>();
            QVERIFY2(ll >= previous - 1e-9,
                     qPrintable(QString("%1 after %2").arg(ll).arg(previous)));
            previous = ll;
        }
        // Rules without expected counts reach probability 0: left out of the saved files (which
        // load), with a note.
        QVERIFY2(r.err.contains("rules and lexical entries of probability 0 left out"),
                 qPrintable(r.err));
        for (int it = 1; it <= 3; ++it)
            QVERIFY(!evalGrammar(dir + "/g/exact-" + std::to_string(it) + ".gram").is_null());
    }

    void benchRandomizedRows() {
        td::CliRunOptions o;
        o.timeoutMs = 300000;
        const QStringList base{"bench-randomized",
                               "--grammar",
                               emPath(td::samplePath("grammar.gram")),
                               "--treebank",
                               emPath(td::ptbDir("dev")),
                               "--per-length",
                               "3",
                               "--iterations",
                               "4",
                               "--passes",
                               "1"};
        const Run r = td::runCli(base + QStringList{"--lengths", "10,20", "--json"}, o);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto rows = nlohmann::json::parse(r.out.toStdString())["rows"];
        QCOMPARE(rows.size(), std::size_t(2));
        for (const auto& row : rows) {
            QCOMPARE(row["sentences"].get<int>(), 3);
            for (const char* k : {"exactPushes", "iterationPushes", "exactSeconds",
                                  "iterationSeconds", "viterbiSeconds"}) {
                const auto& s = row[k];
                QVERIFY2(s["min"].get<double>() > 0, k);
                QVERIFY2(s["min"].get<double>() <= s["median"].get<double>() &&
                             s["median"].get<double>() <= s["max"].get<double>(),
                         k);
            }
            QVERIFY(row["iterationPushes"]["max"].get<double>() <
                    row["exactPushes"]["min"].get<double>());
            QVERIFY(row["iterationToExactPushes"]["max"].get<double>() < 1.0);
        }
        td::expectCliError(td::runCli(base + QStringList{"--lengths", "10,200"}, o),
                           emPath(td::ptbDir("dev")) + " has no sentence of 199 to 201 words");
    }

    void badOptions() {
        const std::string dir = td::tempDir("randomized-em-cli-bad");
        for (const auto& [extra, message] : {std::pair{QStringList{"--step-size", "0"},
                                                       QString("EM step size must lie in (0, 1]")},
                                             std::pair{QStringList{"--methods", "exact,bogus"},
                                                       QString("unknown method 'bogus'")}}) {
            Run r;
            QVERIFY(randomizedEm(dir, "bad", QStringList{"--em-iterations", "1"} + extra, &r)
                        .is_null());
            td::expectCliError(r, message);
        }
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestRandomizedEmCli)
#include "test_randomized_em_cli.moc"
