// GUI test (offscreen) of View ▸ Compare Masks (issue 18, NLTK's chart comparer): on real dev
// sentences the panel's sets, F1 and pushes equal core/policy/MaskComparison.h called directly,
// the overlay marks exactly those spans (three classes, a legend), the current mask's row agrees
// with the explorer's own statistics, a saved mask file is a source, a typed sentence has no gold
// mask; and File ▸ Print… to a PDF file prints the chart and the trees, one page each.
#include "app/gui/explorer/MaskComparisonPanel.h"
#include "app/gui/window/MainWindow.h"
#include "support/TestData.h"
#include "widgets/ChartOverlay.h"
#include "widgets/FigurePrint.h"

#include "support/TestSuite.h"
#include <QLabel>
#include <QPageSize>
#include <QPrinter>
#include <QTableWidget>

using namespace prunescope;
using namespace prunescope::gui;

class TestExplorerComparison : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> win_;
    QString dir_;
    ExplorerPanel* ex() { return win_->explorer(); }
    MaskComparisonPanel* panel() { return win_->maskComparison(); }

    // The panel against a direct computation for the session's sentence.
    void checkAgainstCore(const PruningMask& a, const PruningMask& b) {
        const SentenceSession* s = ex()->session();
        QVERIFY(panel()->comparison().has_value());
        QCOMPARE(panel()->mask(0), a);
        QCOMPARE(panel()->mask(1), b);
        const MaskComparison direct = compareMasks(s->grammar(), s->words(), s->gold(), a, b);
        const MaskComparison& shown = *panel()->comparison();
        QCOMPARE(shown.spans.intersection, direct.spans.intersection);
        QCOMPARE(shown.spans.onlyA, direct.spans.onlyA);
        QCOMPARE(shown.spans.onlyB, direct.spans.onlyB);
        QCOMPARE(shown.a.stats.pushes, direct.a.stats.pushes);
        QCOMPARE(shown.b.stats.pushes, direct.b.stats.pushes);
        // The overlay marks exactly the three sets.
        const widgets::ChartOverlay* o = panel()->overlay();
        QVERIFY(o->isVisible());
        QCOMPARE(o->classes().size(), std::size_t{3});
        QCOMPARE(o->count(0), static_cast<int>(direct.spans.intersection.size()));
        QCOMPARE(o->count(1), static_cast<int>(direct.spans.onlyA.size()));
        QCOMPARE(o->count(2), static_cast<int>(direct.spans.onlyB.size()));
        for (const widgets::OverlayCell& c : o->cells()) {
            const bool ka = a.keep(c.i, c.k), kb = b.keep(c.i, c.k);
            QCOMPARE(c.cls, ka && kb ? 0 : ka ? 1 : 2);
        }
        // The table: F1 (percent), pushes, spans kept of A and B.
        const QTableWidget* t = panel()->table();
        const MaskParse* sides[] = {&direct.a, &direct.b};
        for (int row = 0; row < 2; ++row) {
            QCOMPARE(t->item(row, 1)->text(), QString::number(sides[row]->stats.pushes));
            QCOMPARE(t->item(row, 2)->text(), QString::number(sides[row]->stats.spansKept));
            if (!std::isnan(sides[row]->f1))
                QCOMPARE(t->item(row, 0)->text(), QString::number(100 * sides[row]->f1, 'f', 2));
        }
    }

  private slots:
    void initTestCase() {
        dir_ = QString::fromStdString(testdata::tempDir("explorer-comparison"));
        win_ = std::make_unique<MainWindow>(MainWindowOptions{false, false});
        win_->resize(1400, 1000);
        win_->show();
        QVERIFY(QTest::qWaitForWindowExposed(win_.get()));
        QVERIFY(win_->loadSampleSync());
        QVERIFY(win_->policy());
        QVERIFY(win_->openFileSync(QString::fromStdString(testdata::ptbDir("dev"))));
        QVERIFY(!panel()->isVisible());
        win_->findChild<QAction*>(); // the menus exist
    }

    void hiddenPanelComputesNothing() {
        win_->selectSentence(0);
        QVERIFY(!panel()->comparison().has_value());
        QVERIFY(!panel()->overlay()->isVisible());
    }

    // Current (after hand edits) vs gold, and policy vs keep-all, on real dev sentences.
    void setsEqualTheCoreOnDevSentences() {
        panel()->show();
        QCoreApplication::processEvents();
        int checked = 0;
        for (int s = 0; s < win_->sentenceCount() && checked < 4; ++s) {
            const int n = win_->sentenceLength(s);
            if (n < 8 || n > 25) continue;
            ++checked;
            win_->selectSentence(s);
            QVERIFY(panel()->setSource(0, MaskSourceKind::Current));
            QVERIFY(panel()->setSource(1, MaskSourceKind::Gold));
            // Hand edits: flip three spans; the panel follows each edit.
            for (auto [i, k] : {std::pair{0, 2}, std::pair{1, n - 1}, std::pair{2, 5}})
                QVERIFY(ex()->requestFlip(i, k));
            const SentenceSession* session = ex()->session();
            QVERIFY(session->mask() != session->policyMask());
            checkAgainstCore(session->mask(), session->goldMask());
            // A's row is the explorer's own parse of the current mask (change propagation vs the
            // parser).
            QCOMPARE(panel()->table()->item(0, 1)->text(),
                     QString::number(session->result().pushes));
            QCOMPARE(panel()->table()->item(0, 0)->text(), ex()->f1Text());
            QVERIFY(panel()->setSource(0, MaskSourceKind::Policy));
            QVERIFY(panel()->setSource(1, MaskSourceKind::KeepAll));
            checkAgainstCore(session->policyMask(), PruningMask::allKeep(n));
            QVERIFY(panel()->comparison()->spans.onlyA.empty());
            QCOMPARE(static_cast<int>(panel()->comparison()->spans.onlyB.size()),
                     PruningMask::prunableCount(n) - session->policyMask().keptCount());
        }
        QCOMPARE(checked, 4);
    }

    void savedMaskFileIsASource() {
        const SentenceSession* s = ex()->session();
        const QString path = dir_ + "/mask.json";
        QString err;
        QVERIFY2(ex()->exportMask(path, &err), qPrintable(err));
        const PruningMask saved = s->mask();
        QVERIFY(panel()->setSource(0, MaskSourceKind::File, path, &err));
        QVERIFY(panel()->setSource(1, MaskSourceKind::Current));
        QVERIFY(panel()->comparison()->spans.onlyA.empty() &&
                panel()->comparison()->spans.onlyB.empty());
        QVERIFY(ex()->requestFlip(0, 3));
        checkAgainstCore(saved, s->mask());
        QCOMPARE(panel()->comparison()->spans.onlyA.size() +
                     panel()->comparison()->spans.onlyB.size(),
                 std::size_t{1});
        // A file that is not a mask: refused with its name, the source unchanged.
        QVERIFY(!panel()->setSource(0, MaskSourceKind::File, dir_ + "/missing.json", &err));
        QVERIFY2(err.contains("missing.json"), qPrintable(err));
        QCOMPARE(panel()->source(0), MaskSourceKind::File);
        // Overlay off: the table stays, the chart is unmarked.
        panel()->setOverlayVisible(false);
        QVERIFY(!panel()->overlay()->isVisible());
        QVERIFY(panel()->comparison().has_value());
        panel()->setOverlayVisible(true);
        QVERIFY(panel()->overlay()->isVisible());
    }

    void typedSentenceHasNoGoldMask() {
        win_->parseTypedSentence("the market fell sharply on friday afternoon");
        QVERIFY(panel()->setSource(0, MaskSourceKind::Policy));
        QVERIFY(panel()->setSource(1, MaskSourceKind::Gold));
        QVERIFY(!panel()->comparison().has_value());
        QVERIFY(!panel()->overlay()->isVisible());
        QVERIFY(panel()->findChild<QLabel*>("comparisonStatus")->text().contains("no gold"));
        QVERIFY(panel()->setSource(1, MaskSourceKind::KeepAll));
        QVERIFY(panel()->comparison().has_value());
        QVERIFY(std::isnan(panel()->comparison()->b.f1));
        QCOMPARE(panel()->table()->item(1, 0)->text(), QStringLiteral("—"));
    }

    // File ▸ Print… to a PDF file: the chart, the predicted and the gold tree, one page each.
    void printsChartAndTreesToPdf() {
        win_->selectSentence(1);
        QCoreApplication::processEvents();
        const QString path = dir_ + "/print.pdf";
        QPrinter printer(QPrinter::HighResolution);
        printer.setOutputFormat(QPrinter::PdfFormat);
        printer.setOutputFileName(path);
        QString err;
        QVERIFY2(win_->printViews(printer, true, true, true, &err), qPrintable(err));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray pdf = f.readAll();
        QVERIFY(pdf.startsWith("%PDF-"));
        QVERIFY(pdf.trimmed().endsWith("%%EOF"));
        const QRegularExpression page(QStringLiteral("/Type\\s*/Page[^s]"));
        QCOMPARE(QString::fromLatin1(pdf).count(page), 3);
        QRegularExpressionMatch count =
            QRegularExpression(QStringLiteral("/Count\\s+(\\d+)")).match(QString::fromLatin1(pdf));
        QVERIFY(count.hasMatch());
        QCOMPARE(count.captured(1).toInt(), 3);
        // The chart alone: one page. Nothing: an error, no file.
        QVERIFY(win_->printViews(printer, true, false, false, &err));
        QVERIFY(!win_->printViews(printer, false, false, false, &err));
        QVERIFY(!err.isEmpty());
    }

    // A wide figure (a long tree or chart) prints on landscape paper and, where fitting it on one
    // page would print it smaller than on screen, at its screen size over several pages (a 40-word
    // tree came out in 3-pt text on one A4 portrait page).
    void aWideFigurePrintsReadably() {
        QLabel wide(QString("the dog ").repeated(200));
        wide.resize(3000, 300);
        const QString path = dir_ + "/wide.pdf";
        QPrinter printer(QPrinter::HighResolution);
        printer.setOutputFormat(QPrinter::PdfFormat);
        printer.setOutputFileName(path);
        printer.setPageSize(QPageSize(QPageSize::A4));
        QString err;
        QVERIFY2(widgets::printFigures(printer, {{&wide, QString()}}, &err), qPrintable(err));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString pdf = QString::fromLatin1(f.readAll());
        // 3000 px at its screen size: three landscape A4 pages.
        const int pages = pdf.count(QRegularExpression(QStringLiteral("/Type\\s*/Page[^s]")));
        QVERIFY2(pages >= 3, qPrintable(QString::number(pages)));
        QVERIFY2(pdf.contains(QRegularExpression(QStringLiteral("/MediaBox\\s*\\[0 0 84[12]"))),
                 qPrintable(pdf.left(2000)));
    }
};

PRUNESCOPE_QTEST_MAIN(TestExplorerComparison)
#include "test_explorer_comparison.moc"
