// GUI test (offscreen) of the explorer's cell labels (issue 18, "labels a class can read"; issue
// 42, "cells agree with the parse"): by default a cell on the best parse shows the predicted tree's
// label over its span (a word's cell its POS, the root cell the tree's top label), any other cell
// its best-scoring built symbol that is not a binarization intermediate, under its unbinarized
// name (NP, never @NP|DT_NN), or nothing; View ▸ Show Binarized Symbols shows the grammar's best
// symbols; the tooltip keeps both; the toggle is remembered. On bundled sentence 1, where
// intermediates of different labels tie, the chart agrees with the tree, also after a flip.
#include "app/gui/explorer/SentenceSession.h"
#include "app/gui/window/MainWindow.h"
#include "core/treebank/Binarize.h"

#include "support/TestSuite.h"
#include <QAction>
#include <QSettings>
#include <QStandardPaths>
#include <QUndoStack>

using namespace prunescope;
using namespace prunescope::gui;

class TestExplorerLabels : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> win_;
    ExplorerPanel* ex() { return win_->explorer(); }

    // The grammar symbol with the best post-layer score of cell (i,k), or "" if none was built.
    // With baseOnly, the best that is not an intermediate (@...), the lowest index among ties.
    std::string bestSymbol(int i, int k, bool baseOnly = false) {
        const SentenceSession& s = *ex()->session();
        const float* row = s.chart().postRow(i, k);
        int arg = -1;
        for (int x = 0; x < s.chart().numSymbols; ++x)
            if (row[x] != kNegInf && (arg < 0 || row[x] > row[arg]) &&
                !(baseOnly && s.grammar().symbols[static_cast<std::size_t>(x)][0] == '@'))
                arg = x;
        return arg < 0 ? std::string() : s.grammar().symbols[static_cast<std::size_t>(arg)];
    }

    // The predicted tree's nodes by span: (begin, end) -> labels from the top down.
    static void treeSpans(const Tree& t, int& pos,
                          std::map<std::pair<int, int>, std::vector<std::string>>& out) {
        if (t.isLeaf()) return void(++pos);
        const int begin = pos;
        for (const Tree& c : t.children)
            treeSpans(c, pos, out);
        if (t.label != "ROOT") out[{begin, pos}].insert(out[{begin, pos}].begin(), t.label);
    }

    // Every cell's label against the contract above; returns the cells on the tree.
    int checkLabelsAgreeWithTree() {
        const SentenceSession& s = *ex()->session();
        std::map<std::pair<int, int>, std::vector<std::string>> spans;
        int pos = 0;
        treeSpans(s.result().tree, pos, spans);
        const int n = s.length();
        int onTree = 0;
        for (int w = 1; w <= n; ++w)
            for (int i = 0; i + w <= n; ++i) {
                const QString shown = ex()->heatMap()->cell(i, i + w).label;
                [&] {
                    QVERIFY2(!shown.contains('@') && !shown.contains('|') && !shown.contains('^') &&
                                 !shown.contains('+'),
                             qPrintable(shown));
                }();
                auto it = spans.find({i, i + w});
                if (it != spans.end()) {
                    ++onTree;
                    // A word's cell: the POS (the lowest node); a wider span: its topmost node.
                    const std::string& expect = w == 1 ? it->second.back() : it->second.front();
                    [&] { QCOMPARE(shown, QString::fromStdString(expect)); }();
                } else {
                    const std::string base = bestSymbol(i, i + w, true);
                    [&] { QCOMPARE(shown, QString::fromStdString(unbinarizedLabel(base))); }();
                }
            }
        return onTree;
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
        int intermediates = 0, cells = 0, onTree = 0;
        for (int sent = 0; sent < win_->sentenceCount(); ++sent) {
            win_->selectSentence(sent);
            onTree += checkLabelsAgreeWithTree();
            if (QTest::currentTestFailed()) return;
            const int n = ex()->session()->length();
            for (int w = 1; w <= n; ++w)
                for (int i = 0; i + w <= n; ++i) {
                    const std::string sym = bestSymbol(i, i + w);
                    if (sym.empty()) continue;
                    ++cells;
                    if (sym[0] == '@') ++intermediates;
                }
        }
        // The sample's grammar is binarized: many cells' best symbol is an intermediate.
        QVERIFY2(intermediates > 0, "no intermediate symbol was best in any cell");
        QVERIFY(cells > 100 && onTree > 20);
    }

    // Issue 42: on bundled sentence 1 intermediates of different labels tie (@PRT|DT_NN,
    // @QP|DT_NN, @NP|DT_NN): the chart said PRT and QP for NPs of the tree, VBN / VB / FW for its
    // VBD / NN / NN, and SBARQ at the root after a flip while the tree said S.
    void sentenceOneAgreesWithTheTreeAlsoAfterFlips() {
        win_->selectSentence(0);
        const int n = ex()->session()->length();
        QVERIFY(checkLabelsAgreeWithTree() >= n);
        // POS cells: the predicted tree's tags, word by word.
        const std::vector<std::string> tags = ex()->session()->result().tree.tags();
        QCOMPARE(static_cast<int>(tags.size()), n);
        for (int i = 0; i < n; ++i)
            QCOMPARE(ex()->heatMap()->cell(i, i + 1).label, QString::fromStdString(tags[i]));
        // Flip every prunable span of width 2..n-1 in turn (and back): the root cell and the
        // tree agree after each.
        int flips = 0;
        for (int w = 2; w < n; ++w)
            for (int i = 0; i + w <= n; ++i) {
                if (!ex()->requestFlip(i, i + w)) continue;
                ++flips;
                checkLabelsAgreeWithTree();
                if (QTest::currentTestFailed()) return;
                const Tree& t = ex()->session()->result().tree;
                if (ex()->session()->result().success && t.label == "ROOT" &&
                    t.children.size() == 1)
                    QCOMPARE(ex()->heatMap()->cell(0, n).label,
                             QString::fromStdString(t.children[0].label));
                ex()->undoStack()->undo();
            }
        QVERIFY(flips > 10);
        checkLabelsAgreeWithTree();
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
        QVERIFY(!ex()->heatMap()->cell(i, k).label.contains('@'));
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
