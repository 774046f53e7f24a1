// The span-marginal colour quantity of the explorer (sec. 5.3's inside-outside, SpanMarginals.h):
// it is offered in the quantity box and the View menu, the heat map's values are core's
// spanMarginals for the sentence and the current mask (also after a click prunes a span), the
// colour bar spans [0, 1] and the marginals of spans of width >= 2 sum to n - 1.
#include "app/gui/explorer/ChartPresentation.h"
#include "app/gui/window/MainWindow.h"
#include "core/rollout/SpanMarginals.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QComboBox>

#include <cmath>

using namespace prunescope;
using namespace prunescope::gui;

class TestSpanMarginalsGui : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> win_;
    ExplorerPanel* ex() { return win_->explorer(); }

    void compareWithCore() {
        const SentenceSession& s = *ex()->session();
        const SpanMarginals m = spanMarginals(s.grammar(), s.words(), s.mask());
        QVERIFY(m.success);
        const int n = s.length();
        double wide = 0;
        for (int i = 0; i < n; ++i)
            for (int k = i + 1; k <= n; ++k) {
                const float shown = ex()->heatMap()->cell(i, k).value;
                QCOMPARE(shown, static_cast<float>(m.at(i, k)));
                if (k - i >= 2) wide += shown;
            }
        QVERIFY2(std::abs(wide - (n - 1)) < 1e-3, qPrintable(QString::number(wide)));
    }

  private slots:
    void initTestCase() {
        win_ = std::make_unique<MainWindow>(MainWindowOptions{false, false});
        win_->resize(1400, 900);
        win_->show();
        QVERIFY(win_->loadSampleSync());
    }

    void quantityIsOffered() {
        auto* box = ex()->findChild<QComboBox*>("quantityBox");
        QVERIFY(box);
        const int at = box->findData(static_cast<int>(Quantity::SpanMarginal));
        QVERIFY(at >= 0);
        QCOMPARE(box->itemText(at), QString("Span marginal (PCFG posterior)"));
        box->setCurrentIndex(at); // as a user picks it
        QVERIFY(ex()->quantity() == Quantity::SpanMarginal);
    }

    void valuesEqualCore() {
        ex()->setQuantity(Quantity::SpanMarginal);
        for (int sentence : {0, 2, 5}) {
            win_->selectSentence(sentence);
            QTest::qWait(20);
            compareWithCore();
        }
        const CellPresentation p = presentCells(*ex()->session(), Quantity::SpanMarginal);
        QCOMPARE(p.lo, 0.0);
        QCOMPARE(p.hi, 1.0);
    }

    void followsTheMask() {
        ex()->setQuantity(Quantity::SpanMarginal);
        win_->selectSentence(0);
        const SentenceSession& s = *ex()->session();
        const int n = s.length();
        QVERIFY(n >= 5);
        // Prune the kept prunable span with the largest marginal that still leaves a parse.
        int bi = -1, bk = -1;
        float best = -1;
        for (int w = 2; w < n; ++w)
            for (int i = 0; i + w <= n; ++i)
                if (s.mask().keep(i, i + w) && ex()->heatMap()->cell(i, i + w).value > best &&
                    ex()->heatMap()->cell(i, i + w).value < 0.99f)
                    best = ex()->heatMap()->cell(i, i + w).value, bi = i, bk = i + w;
        QVERIFY(bi >= 0 && best > 0.01f);
        QTest::mouseClick(ex()->heatMap(), Qt::LeftButton, {},
                          ex()->heatMap()->cellRect(bi, bk).center().toPoint());
        QTRY_VERIFY(!ex()->session()->mask().keep(bi, bk));
        QTRY_COMPARE(ex()->heatMap()->cell(bi, bk).value, 0.0f);
        compareWithCore();
    }
};

PRUNESCOPE_QTEST_MAIN(TestSpanMarginalsGui)
#include "test_span_marginals_gui.moc"
