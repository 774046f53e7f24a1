// GUI test (offscreen) of the explorer's cell labels (issue 18, "labels a class can read"): by
// default a cell shows its best-scoring built symbol under its unbinarized name (NP, not
// @NP|DT_NN); View ▸ Show Binarized Symbols shows the grammar's symbols; the tooltip keeps both;
// the toggle is remembered.
#include "app/gui/window/MainWindow.h"
#include "core/treebank/Binarize.h"

#include "support/TestSuite.h"
#include <QAction>
#include <QSettings>
#include <QStandardPaths>

using namespace prunescope;
using namespace prunescope::gui;

class TestExplorerLabels : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> win_;
    ExplorerPanel* ex() { return win_->explorer(); }

    // The grammar symbol with the best post-layer score of cell (i,k), or "" if none was built.
    std::string bestSymbol(int i, int k) {
        const SentenceSession& s = *ex()->session();
        const float* row = s.chart().postRow(i, k);
        int arg = -1;
        for (int x = 0; x < s.chart().numSymbols; ++x)
            if (row[x] != kNegInf && (arg < 0 || row[x] > row[arg])) arg = x;
        return arg < 0 ? std::string() : s.grammar().symbols[static_cast<std::size_t>(arg)];
    }

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        win_ = std::make_unique<MainWindow>(MainWindowOptions{false, false});
        win_->resize(1400, 900);
        win_->show();
        QVERIFY(win_->loadSampleSync());
        QVERIFY(win_->sentenceCount() >= 5);
    }

    void cellsShowUnbinarizedLabelsByDefault() {
        QVERIFY(!win_->showBinarizedSymbolsAction()->isChecked());
        int intermediates = 0, annotated = 0, cells = 0;
        for (int sent = 0; sent < win_->sentenceCount(); ++sent) {
            win_->selectSentence(sent);
            int n = ex()->session()->length();
            for (int w = 1; w <= n; ++w)
                for (int i = 0; i + w <= n; ++i) {
                    const std::string sym = bestSymbol(i, i + w);
                    const QString shown = ex()->heatMap()->cell(i, i + w).label;
                    QCOMPARE(shown, QString::fromStdString(unbinarizedLabel(sym)));
                    if (sym.empty()) continue;
                    ++cells;
                    QVERIFY2(!shown.contains('@') && !shown.contains('|') && !shown.contains('^') &&
                                 !shown.contains('+'),
                             qPrintable(shown));
                    if (sym[0] == '@') ++intermediates;
                    if (QString::fromStdString(sym) != shown) ++annotated;
                }
        }
        // The sample's grammar is binarized: many cells' best symbol is an intermediate.
        QVERIFY2(intermediates > 0, "no intermediate symbol was best in any cell");
        QVERIFY(annotated >= intermediates);
        QVERIFY(cells > 100);
    }

    void toggleShowsBinarizedSymbolsAndTooltipKeepsThem() {
        win_->selectSentence(0);
        int n = ex()->session()->length();
        int checked = 0;
        win_->showBinarizedSymbolsAction()->setChecked(true);
        QVERIFY(ex()->showBinarizedSymbols());
        std::pair<int, int> intermediate{-1, -1};
        for (int w = 1; w <= n; ++w)
            for (int i = 0; i + w <= n; ++i) {
                const std::string sym = bestSymbol(i, i + w);
                QCOMPARE(ex()->heatMap()->cell(i, i + w).label, QString::fromStdString(sym));
                if (!sym.empty() && sym[0] == '@') intermediate = {i, i + w};
                ++checked;
            }
        QVERIFY(checked > 0);
        win_->showBinarizedSymbolsAction()->setChecked(false);
        QVERIFY(!ex()->showBinarizedSymbols());
        if (intermediate.first < 0) QSKIP("sentence 1 has no intermediate best symbol");
        auto [i, k] = intermediate;
        const std::string sym = bestSymbol(i, k);
        QCOMPARE(ex()->heatMap()->cell(i, k).label, QString::fromStdString(unbinarizedLabel(sym)));
        const QString tip = cellTooltip(*ex()->session(), i, k);
        QVERIFY2(tip.contains(QString::fromStdString(sym).toHtmlEscaped()), qPrintable(tip));
    }

    void toggleIsRemembered() {
        {
            MainWindow w(MainWindowOptions{true, false});
            QVERIFY(!w.showBinarizedSymbolsAction()->isChecked());
            w.show();
            w.showBinarizedSymbolsAction()->setChecked(true);
            w.close(); // saves the settings
        }
        MainWindow again(MainWindowOptions{true, false});
        QVERIFY(again.showBinarizedSymbolsAction()->isChecked());
        QVERIFY(again.explorer()->showBinarizedSymbols());
        QSettings().clear();
    }
};

PRUNESCOPE_QTEST_MAIN(TestExplorerLabels)
#include "test_explorer_labels.moc"
