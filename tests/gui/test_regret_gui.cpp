// GUI tests of the regret window (offscreen; Vieira & Eisner 2017, sec. 7.3, eq. 4): it computes
// in the background what core's regretAnalysis computes, with a progress bar, shows every quantity
// of the result in a table (value, unit, tooltip; copied as tab-separated text with exact values),
// and its Cancel button stops a long computation within 1 s (showing "Cancelling…", then
// "Cancelled.").
#include "app/gui/explorer/RegretWindow.h"
#include "app/gui/explorer/ShownPath.h"
#include "core/grammar/GrammarFile.h"
#include "core/policy/Policy.h"
#include "core/treebank/Normalize.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>

using namespace prunescope;
using namespace prunescope::gui;

namespace {

QString samples(const QString& f) {
    return QString::fromStdString(testdata::sourceDir()) + "/samples/" + f;
}

QPushButton* button(QWidget* w, const QString& text) {
    for (auto* b : w->findChildren<QPushButton*>())
        if (b->text() == text) return b;
    return nullptr;
}

RegretRequest request(const QString& treebank, int sentences) {
    RegretRequest r;
    r.grammar = samples("grammar.gram");
    r.policy = samples("policies/baseline-w128.json");
    r.treebank = treebank;
    r.lambda = 0.002;
    r.surrogate = Surrogate::CP;
    r.sentences = sentences;
    r.threads = 2;
    return r;
}

} // namespace

class TestRegretGui : public QObject {
    Q_OBJECT
  private slots:
    void computeShowsProgressAndMatchesCore() {
        RegretWindow w;
        w.show();
        // Before the first computation: no empty axes, a note instead.
        QVERIFY(!w.bars()->isVisible());
        QVERIFY(!w.table()->isVisible());
        QVERIFY(w.findChild<QLabel*>("placeholder")->isVisible());
        const RegretRequest r = request(samples("sentences.mrg"), 5);
        w.setRequest(r);
        std::vector<ProgressUpdate> seen;
        connect(w.task(), &BackgroundTask::progressChanged, &w,
                [&](const ProgressUpdate& u) { seen.push_back(u); });
        QSignalSpy finished(&w, &RegretWindow::finished);
        w.compute();
        QVERIFY(w.isComputing());
        QVERIFY(w.findChild<QProgressBar*>("progress")->isVisible());
        QVERIFY(!button(&w, "Compute")->isEnabled());
        QVERIFY(button(&w, "Cancel")->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(!w.findChild<QProgressBar*>("progress")->isVisible());
        QVERIFY(button(&w, "Compute")->isEnabled());
        QVERIFY(!button(&w, "Cancel")->isEnabled());
        // The last progress update arrived: every sentence rolled out.
        QVERIFY(!seen.empty());
        QCOMPARE(seen.back().phase, std::string("rollouts"));
        QCOMPARE(seen.back().done, seen.back().total);
        // The same numbers as core's regretAnalysis.
        const Grammar g = loadGrammar(r.grammar.toStdString());
        const Policy p = loadPolicy(r.policy.toStdString());
        auto sentences =
            lolsSentences(readNormalizedTreebank(r.treebank.toStdString()), r.maxLength);
        if (static_cast<int>(sentences.size()) > r.sentences)
            sentences.resize(static_cast<std::size_t>(r.sentences));
        QCOMPARE(seen.back().total, static_cast<long>(sentences.size()));
        RegretOptions opt;
        opt.surrogate = r.surrogate;
        opt.lambda = r.lambda;
        const RegretStats s = regretAnalysis(g, sentences, p, opt);
        QCOMPARE(w.stats().states, s.states);
        QCOMPARE(w.stats().regret, s.regret);
        QCOMPARE(w.stats().diffGold, s.diffGold);
        QVERIFY(w.bars()->isVisible());
        QVERIFY(!w.findChild<QLabel*>("placeholder")->isVisible());
        // The table: one row per quantity of core's result, holding its value.
        RegretTable* t = w.table();
        QVERIFY(t->isVisible());
        const nlohmann::json j = s.toJson();
        QCOMPARE(t->rowCount(), static_cast<int>(j.size()));
        for (const auto& [key, value] : j.items()) {
            const int row = t->rowOf(QString::fromStdString(key));
            QVERIFY2(row >= 0, key.c_str());
            const double want = value.get<double>();
            QCOMPARE(t->item(row, RegretTable::Value)->data(RegretTable::kValueRole).toDouble(),
                     want);
            // The shown text is that value rounded (counts may carry group separators).
            const double shown = QLocale().toDouble(t->item(row, RegretTable::Value)->text());
            QVERIFY2(std::abs(shown - want) <= 5e-4 * std::max(1.0, std::abs(want)),
                     qPrintable(QString("%1: %2 vs %3")
                                    .arg(key.c_str(), t->item(row, RegretTable::Value)->text())
                                    .arg(want)));
            QVERIFY(!t->item(row, RegretTable::Unit)->text().isEmpty());
            QVERIFY(!t->item(row, RegretTable::Name)->toolTip().isEmpty());
        }
        QCOMPARE(t->item(t->rowOf("E[regret]"), RegretTable::Unit)->text(),
                 QString::fromUtf8("F1 − λ·constituents"));
        QCOMPARE(t->item(t->rowOf("p(diff)"), RegretTable::Name)->text(), QString("p(diff)"));
        // Ctrl+C on the selected row copies it as tab-separated text with the exact value.
        t->setFocus();
        t->selectRow(t->rowOf("E[regret]"));
        QTest::keySequence(t, QKeySequence::Copy);
        QCOMPARE(
            QApplication::clipboard()->text(),
            QString::fromUtf8("Quantity\tValue\tUnit\nE[regret] (eq. 4)\t%1\tF1 − λ·constituents\n")
                .arg(s.meanRegret(), 0, 'g', 17));
        // The Copy button copies every row.
        t->clearSelection();
        button(&w, "Copy table")->click();
        QCOMPARE(QApplication::clipboard()->text().count('\n'), static_cast<int>(j.size()) + 1);
        // The sample has more sentences than the 5 asked for: the status says the count is capped.
        const auto all =
            lolsSentences(readNormalizedTreebank(r.treebank.toStdString()), r.maxLength);
        QVERIFY2(static_cast<int>(all.size()) > 5, qPrintable(QString::number(all.size())));
        QCOMPARE(w.findChild<QLabel*>("status")->text(),
                 QString("Done: 5 of the %1 sentences of at most %2 words (capped by Sentences).")
                     .arg(all.size())
                     .arg(r.maxLength));
    }

    void cancelStopsWithinOneSecond() {
        RegretWindow w;
        w.show();
        w.setRequest(request(QString::fromStdString(testdata::ptbDir("dev")),
                             300)); // tens of seconds of rollouts
        QSignalSpy finished(&w, &RegretWindow::finished);
        w.compute();
        QTRY_VERIFY_WITH_TIMEOUT(w.task()->lastProgress().phase == "rollouts" &&
                                     w.task()->lastProgress().done >= 1,
                                 120000);
        QElapsedTimer t;
        t.start();
        button(&w, "Cancel")->click();
        QCOMPARE(w.task()->state(), BackgroundTask::State::Cancelling);
        QVERIFY(!button(&w, "Cancel")->isEnabled());
        QCOMPARE(w.findChild<QLabel*>("status")->text(), QString::fromUtf8("Cancelling\u2026"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
        const qint64 ms = t.elapsed();
        qInfo("regret computation cancelled after %lld ms", static_cast<long long>(ms));
        QVERIFY2(ms < 1000, qPrintable(QString("%1 ms").arg(ms)));
        QCOMPARE(finished.first().first().toBool(), false);
        QCOMPARE(w.task()->state(), BackgroundTask::State::Cancelled);
        QCOMPARE(w.findChild<QLabel*>("status")->text(), QString("Cancelled."));
        QVERIFY(button(&w, "Compute")->isEnabled());
        QCOMPARE(w.stats().states, 0.0); // nothing of the cut sample is shown
    }
    // Paths under the working directory are shown relative to it (no machine's folder names in the
    // field), keep the absolute path in the tooltip, and still open; others stay absolute.
    void pathsAreShownRelativeToTheWorkingDirectory() {
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(QString::fromStdString(testdata::sourceDir())));
        RegretWindow w;
        RegretRequest r = request(samples("sentences.mrg"), 2);
        w.setRequest(r);
        auto* policy = w.findChild<QLineEdit*>("policy");
        QVERIFY(policy);
        QCOMPARE(policy->text(), QString("samples/policies/baseline-w128.json"));
        QCOMPARE(policy->toolTip(),
                 QFileInfo(samples("policies/baseline-w128.json")).absoluteFilePath());
        QCOMPARE(w.request().treebank, QString("samples/sentences.mrg"));
        QSignalSpy finished(&w, &RegretWindow::finished);
        w.compute();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QCOMPARE(finished.first().first().toBool(), true);
        QCOMPARE(shownPath(QDir::rootPath() + "usr/share"), QString("/usr/share"));
        QCOMPARE(shownPath(QString()), QString());
        QCOMPARE(shownPath(QDir::currentPath()), QDir::currentPath());
        QVERIFY(QDir::setCurrent(before));
    }
};

PRUNESCOPE_QTEST_MAIN(TestRegretGui)
#include "test_regret_gui.moc"
