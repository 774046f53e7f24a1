// The rollout and policy reports as a user runs them (issues 4, 5): check-rollouts finds no CP or
// DP mismatch on real dev sentences under each roll-in mask; regret gives the same numbers with the
// fast and the naive engine (rCP bit for bit, rDP to 1e-9) and any thread count, and its
// probabilities are its state counts; compare's F1 and mpush are eval's for each policy and its
// reward difference is the rewards' difference; bench-rollouts' speed-ups are its own ratios;
// bench-features keeps the spans eval's policy run keeps; bad input exits non-zero with one line
// naming the file or the option.
#include "core/util/AtomicFile.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <QRegularExpression>

#include <cmath>
#include <nlohmann/json.hpp>

namespace {

using Run = prunescope::testdata::CliRun;
namespace td = prunescope::testdata;

QString str(const std::string& s) {
    return QString::fromStdString(s);
}
QString sampleGrammar() {
    return str(td::samplePath("grammar.gram"));
}
QString samplePolicy(const char* name) {
    return str(td::samplePath(std::string("policies/") + name));
}
QString ptbDev() {
    return str(td::ptbDir("dev"));
}

Run runReport(const QStringList& args) {
    td::CliRunOptions o;
    o.timeoutMs = 300000;
    return td::runCli(args, o);
}

nlohmann::json readJsonFile(const std::string& path) {
    return nlohmann::json::parse(prunescope::readFile(path));
}

// A `name   value` line of a text report.
QString reportField(const QString& out, const QString& name) {
    const auto m = QRegularExpression("^" + QRegularExpression::escape(name) + "\\s+(\\S+)",
                                      QRegularExpression::MultilineOption)
                       .match(out);
    return m.hasMatch() ? m.captured(1) : QString();
}

bool nearRel(double a, double b, double rel) {
    return std::abs(a - b) <= rel * std::max({1.0, std::abs(a), std::abs(b)});
}

} // namespace

class TestRolloutReportsCli : public QObject {
    Q_OBJECT
  private slots:
    void checkRolloutsOnDev() {
        const Run r =
            runReport({"check-rollouts", "--grammar", sampleGrammar(), "--treebank", ptbDev(),
                       "--max-len", "10", "--limit", "6", "--masks", "keep,random,gold"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QCOMPARE(reportField(r.out, "sentences"), QString("6"));
        QCOMPARE(reportField(r.out, "masks"), QString("keep,random,gold"));
        QVERIFY(reportField(r.out, "flips checked").toInt() > 100);
        QCOMPARE(reportField(r.out, "CP mismatches"), QString("0"));
        QCOMPARE(reportField(r.out, "DP mismatches"), QString("0"));
        QVERIFY(r.out.trimmed().endsWith("OK"));
        // Every CP flip recomputed past the budget (issue 45): still no mismatch.
        const Run b =
            runReport({"check-rollouts", "--grammar", sampleGrammar(), "--treebank", ptbDev(),
                       "--max-len", "12", "--limit", "4", "--no-dp", "--cp-work-budget", "0"});
        QVERIFY2(b.exitCode == 0, qPrintable(b.err + b.out));
        QCOMPARE(reportField(b.out, "CP mismatches"), QString("0"));
        QVERIFY2(b.out.contains(QRegularExpression(R"(\(([1-9]\d*) flips recomputed)")),
                 qPrintable(b.out));
        td::expectCliError(runReport({"check-rollouts", "--grammar", sampleGrammar(), "--treebank",
                                      ptbDev(), "--masks", "bogus"}),
                           "unknown mask kind 'bogus'");
        td::expectCliError(runReport({"check-rollouts", "--grammar", sampleGrammar(), "--treebank",
                                      "/nonexistent/dev"}),
                           "/nonexistent/dev");
    }

    void regretEnginesAndThreads() {
        const std::string dir = td::tempDir("regret-cli");
        auto regret = [&](const QString& surrogate, const QString& engine, const QString& threads) {
            const std::string out = dir + "/" + surrogate.toStdString() + "-" +
                                    engine.toStdString() + "-" + threads.toStdString() + ".json";
            const Run r = runReport({"regret",
                                     "--grammar",
                                     sampleGrammar(),
                                     "--policy",
                                     samplePolicy("baseline-w16.json"),
                                     "--treebank",
                                     ptbDev(),
                                     "--max-len",
                                     "10",
                                     "--limit",
                                     "8",
                                     "--lambda",
                                     "0.01",
                                     "--surrogate",
                                     surrogate,
                                     "--engine",
                                     engine,
                                     "--threads",
                                     threads,
                                     "--json",
                                     str(out)});
            if (r.exitCode != 0) qWarning("%s", qPrintable(r.err));
            return readJsonFile(out);
        };
        const auto fast = regret("rcp", "fast", "1");
        QCOMPARE(regret("rcp", "naive", "1"),
                 fast); // rCP: change propagation = reparsing, bit for bit
        QCOMPARE(regret("rcp", "fast", "2"), fast); // any thread count
        QCOMPARE(fast["sentences"].get<int>(), 8);
        const double states = fast["states"].get<double>();
        QVERIFY(states > 50);
        QCOMPARE(fast["p(gold)"].get<double>(), fast["goldStates"].get<double>() / states);
        QCOMPARE(fast["p(diff)"].get<double>(), fast["diffStates"].get<double>() / states);
        QVERIFY(nearRel(fast["eq4"].get<double>(), fast["E[regret]"].get<double>(), 1e-12));
        QVERIFY(fast["E[regret]"].get<double>() >= 0);
        const auto dpFast = regret("rdp", "fast", "1"), dpNaive = regret("rdp", "naive", "2");
        QCOMPARE(dpFast["states"], dpNaive["states"]);
        QCOMPARE(dpFast["diffStates"], dpNaive["diffStates"]);
        for (const char* k : {"E[regret]", "eq4", "E[regret|gold]", "E[regret|diff,gold]"})
            QVERIFY2(nearRel(dpFast[k].get<double>(), dpNaive[k].get<double>(), 1e-9), k);
        // the bundled policy's lambda is in F1 points per mpush, not the rCP surrogate's units
        td::expectCliError(
            runReport({"regret", "--grammar", sampleGrammar(), "--policy",
                       samplePolicy("baseline-w16.json"), "--treebank", ptbDev(), "--limit", "2"}),
            "no --lambda given");
    }

    void compareIsEvalOfEachPolicy() {
        const std::string dir = td::tempDir("compare-cli");
        auto compare = [&](const QString& a, const QString& b, const QString& threads,
                           const std::string& out) {
            const Run r =
                runReport({"compare", "--grammar", sampleGrammar(), "--treebank", ptbDev(),
                           "--baseline", a, "--lols", b, "--lambda", "2", "--max-len", "12",
                           "--permutations", "1000", "--threads", threads, "--json", str(out)});
            if (r.exitCode != 0) qWarning("%s", qPrintable(r.err));
            return readJsonFile(out);
        };
        const auto c = compare(samplePolicy("baseline-w16.json"),
                               samplePolicy("baseline-w256.json"), "2", dir + "/c.json");
        for (const auto& [side, file] : {std::pair{"baseline", "baseline-w16.json"},
                                         std::pair{"lols", "baseline-w256.json"}}) {
            const Run e = runReport({"eval", "--grammar", sampleGrammar(), "--treebank", ptbDev(),
                                     "--max-len", "12", "--policy", samplePolicy(file), "--json"});
            QVERIFY2(e.exitCode == 0, qPrintable(e.err));
            const auto ej = nlohmann::json::parse(e.out.toStdString());
            const auto& s = c[side];
            QCOMPARE(s["sentences"], ej["sentences"]);
            QCOMPARE(s["failures"], ej["failures"]);
            QVERIFY(nearRel(s["f1"].get<double>(), 100.0 * ej["f1"].get<double>(), 1e-12));
            QVERIFY(nearRel(s["mpush"].get<double>(), ej["meanMpush"].get<double>(), 1e-12));
            QVERIFY(nearRel(s["reward"].get<double>(),
                            s["f1"].get<double>() - 2.0 * s["mpush"].get<double>(), 1e-12));
        }
        QVERIFY(nearRel(c["rewardDifference"].get<double>(),
                        c["lols"]["reward"].get<double>() - c["baseline"]["reward"].get<double>(),
                        1e-12));
        QVERIFY(c["pValue"].get<double>() > 0 && c["pValue"].get<double>() <= 1);
        // one thread: the same numbers (only the speeds may differ)
        auto c1 = compare(samplePolicy("baseline-w16.json"), samplePolicy("baseline-w256.json"),
                          "1", dir + "/c1.json");
        auto c2 = c;
        for (auto* j : {&c1, &c2})
            for (const char* side : {"baseline", "lols"})
                (*j)[side].erase("wordsPerSecond");
        QCOMPARE(c1, c2);
        // a policy against itself: no difference, p = 1
        const auto same = compare(samplePolicy("baseline-w16.json"),
                                  samplePolicy("baseline-w16.json"), "2", dir + "/same.json");
        QCOMPARE(same["rewardDifference"].get<double>(), 0.0);
        QCOMPARE(same["pValue"].get<double>(), 1.0);
        prunescope::writeFileAtomically(dir + "/bad.json", "{\"a\":\n");
        td::expectCliError(runReport({"compare", "--grammar", sampleGrammar(), "--treebank",
                                      ptbDev(), "--baseline", str(dir + "/bad.json"), "--lols",
                                      samplePolicy("baseline-w16.json"), "--lambda", "1"}),
                           str(dir + "/bad.json:2"));
    }

    void benchFeaturesCountsTheSpans() {
        const QStringList base{"bench-features",
                               "--treebank",
                               ptbDev(),
                               "--max-len",
                               "15",
                               "--policy",
                               samplePolicy("baseline-w16.json")};
        const Run a = runReport(base + QStringList{"--repeat", "1"}),
                  b = runReport(base + QStringList{"--repeat", "2"});
        QVERIFY2(a.exitCode == 0 && b.exitCode == 0, qPrintable(a.err + b.err));
        const auto j = nlohmann::json::parse(a.out.toStdString()),
                   k = nlohmann::json::parse(b.out.toStdString());
        QCOMPARE(j["checksum"], k["checksum"]); // the features do not depend on the pass
        QCOMPARE(j["spansKept"], k["spansKept"]);
        const Run e =
            runReport({"eval", "--grammar", sampleGrammar(), "--treebank", ptbDev(), "--max-len",
                       "15", "--policy", samplePolicy("baseline-w16.json"), "--json"});
        QVERIFY2(e.exitCode == 0, qPrintable(e.err));
        const auto ej = nlohmann::json::parse(e.out.toStdString());
        QCOMPARE(j["sentences"], ej["sentences"]);
        // the policy keeps the spans the parser then kept; every span = the prunable ones + one per
        // word + the whole sentence
        QCOMPARE(j["spansKept"].get<double>(),
                 std::round(ej["meanSpansKept"].get<double>() * ej["sentences"].get<double>()));
        QCOMPARE(j["spans"].get<long>() - j["prunableSpans"].get<long>(),
                 ej["words"].get<long>() + ej["sentences"].get<long>());
        for (const char* rate : {"featureSpansPerSecond", "policyMaskPrunableSpansPerSecond",
                                 "featuresAndMaskPrunableSpansPerSecond"})
            QVERIFY2(j[rate].get<double>() > 0, rate);
    }

    void benchRolloutsRows() {
        const Run r = runReport({"bench-rollouts", "--grammar", sampleGrammar(), "--treebank",
                                 ptbDev(), "--buckets", "1-10,11-15", "--per-bucket", "2",
                                 "--latency-sentences", "0", "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto rows = nlohmann::json::parse(r.out.toStdString())["rows"];
        QCOMPARE(rows.size(), std::size_t(6)); // 2 buckets x {keep, random, gold}
        for (const auto& row : rows) {
            QCOMPARE(row["sentences"].get<int>(), 2);
            const double len = row["meanLength"].get<double>();
            QVERIFY(row["bucket"] == "1-10" ? len >= 1 && len <= 10 : len >= 11 && len <= 15);
            QVERIFY(row["meanT"].get<double>() > 0);
            QVERIFY(nearRel(row["cpSpeedup"].get<double>(),
                            row["naiveCpMs"].get<double>() / row["cpMs"].get<double>(), 1e-12));
            QVERIFY(nearRel(row["dpSpeedup"].get<double>(),
                            row["naiveDpMs"].get<double>() / row["dpMs"].get<double>(), 1e-12));
        }
        for (const char* bad : {"10-1", "0-5", "a-b", "5", "3-", "1-2-3"})
            td::expectCliError(runReport({"bench-rollouts", "--grammar", sampleGrammar(),
                                          "--treebank", ptbDev(), "--buckets", bad}),
                               QString("bucket '%1' is not lo-hi").arg(bad));
        td::expectCliError(runReport({"bench-rollouts", "--grammar", sampleGrammar(), "--treebank",
                                      ptbDev(), "--masks", "keep,bogus"}),
                           "unknown mask kind 'bogus'");
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestRolloutReportsCli)
#include "test_rollout_reports_cli.moc"
