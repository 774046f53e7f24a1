// GUI test (offscreen) of the regret overlay on the explorer (Vieira & Eisner 2017, sec. 7.3; issue
// 18): on a ptb-sample/dev sentence the overlay's cells hold core's rCP r̂[keep] − r̂[prune] and are
// painted in the diverging map on a scale symmetric around 0 (negative blue, positive red, 0 the
// neutral colour), hatching follows the roll-in mask; the colour box switches to the regret entry
// and back when the overlay is turned off (in the explorer or the regret window), restoring the
// quantity and map; and a flip, undo, another sentence or another colour quantity drops it (no
// stale colours).
#include "app/gui/explorer/RegretWindow.h"
#include "app/gui/window/MainWindow.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/policy/GoldSpans.h"
#include "core/rollout/Rollout.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QUndoStack>

#include <cmath>

using namespace prunescope;
using namespace prunescope::gui;

namespace {

constexpr double kLambda = 0.002; // rCP λ (F1 per constituent), as test_regret_gui

// Core's r̂[keep] − r̂[prune] for every prunable span of the session's sentence, rolled in with its
// mask.
std::vector<SpanRollout> coreRollouts(const SentenceSession& s) {
    RolloutRequest req;
    req.grammar = &s.grammar();
    req.words = s.words();
    req.gold = *s.gold();
    req.rollIn = s.mask();
    return changePropagationRollouts(req);
}

} // namespace

class TestRegretOverlay : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> win_;
    std::unique_ptr<RegretWindow> regret_;
    int sentence_ = -1;
    ExplorerPanel* ex() { return win_->explorer(); }
    widgets::ChartHeatMap* heat() { return ex()->heatMap(); }
    QComboBox* quantityBox() { return ex()->findChild<QComboBox*>("quantityBox"); }
    QComboBox* colorBox() {
        for (auto* b : ex()->findChildren<QComboBox*>())
            if (b->findText("viridis") >= 0) return b;
        return nullptr;
    }
    std::vector<float> values() {
        std::vector<float> v;
        const int n = heat()->length();
        for (int i = 0; i < n; ++i)
            for (int k = i + 1; k <= n; ++k)
                v.push_back(heat()->cell(i, k).value);
        return v;
    }
    // The state a user chose before the overlay: not the defaults, so a restore is visible.
    void chooseSpanMarginalsInCividis() {
        ex()->setQuantity(Quantity::SpanMarginal);
        ex()->setColorMap(widgets::ColorMapKind::Cividis);
        QCOMPARE(quantityBox()->currentText(), quantityName(Quantity::SpanMarginal));
        QCOMPARE(colorBox()->currentText(), QString("cividis"));
    }
    void verifyRestored(const std::vector<float>& before) {
        QVERIFY(!ex()->overlayShown());
        QVERIFY(ex()->quantity() == Quantity::SpanMarginal);
        QCOMPARE(quantityBox()->currentText(), quantityName(Quantity::SpanMarginal));
        QCOMPARE(quantityBox()->findData(-1), -1); // the regret entry is gone
        QCOMPARE(quantityBox()->count(), static_cast<int>(std::size(kAllQuantities)));
        QCOMPARE(colorBox()->currentText(), QString("cividis"));
        QCOMPARE(colorBox()->count(), 2); // the diverging map is gone
        QVERIFY(colorBox()->isEnabled());
        QVERIFY(heat()->colorMap() == widgets::ColorMapKind::Cividis);
        QVERIFY(ex()->colorMap() == widgets::ColorMapKind::Cividis);
        QVERIFY(!ex()->findChild<QPushButton*>("removeOverlay")->isVisible());
        QVERIFY(!regret_->overlayButton()->isChecked());
        const std::vector<float> after = values();
        QCOMPARE(after.size(), before.size());
        for (std::size_t x = 0; x < after.size(); ++x)
            QVERIFY(after[x] == before[x] || (std::isnan(after[x]) && std::isnan(before[x])));
    }
    void overlay() {
        QString err;
        QVERIFY2(regret_->overlayCurrentSentence(&err), qPrintable(err));
        QVERIFY(ex()->overlayShown());
        QVERIFY(regret_->overlayButton()->isChecked());
    }

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        win_ = std::make_unique<MainWindow>(MainWindowOptions{false, false});
        win_->resize(1400, 900);
        win_->show();
        QVERIFY(win_->loadSampleSync()); // the bundled grammar and policy
        const QString dev = QString::fromStdString(testdata::ptbDir("dev"));
        const QStringList files = QDir(dev).entryList({"*.mrg"}, QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        QVERIFY(win_->openFileSync(dev + "/" + files.front()));
        regret_ = std::make_unique<RegretWindow>();
        RegretRequest r;
        r.lambda = kLambda;
        r.surrogate = Surrogate::CP;
        regret_->setRequest(r);
        regret_->setExplorer(ex());
        // The first dev sentence of 10..18 words whose rollouts take both signs and 0.
        for (int s = 0; s < win_->sentenceCount() && sentence_ < 0; ++s) {
            const int n = win_->sentenceLength(s);
            if (n < 10 || n > 18) continue;
            win_->selectSentence(s);
            if (!ex()->session()->hasGold()) continue;
            int neg = 0, pos = 0, zero = 0;
            for (const SpanRollout& ro : coreRollouts(*ex()->session())) {
                const double d = ro.rewardKeep(kLambda) - ro.rewardPrune(kLambda);
                (d < 0 ? neg : d > 0 ? pos : zero) += 1;
            }
            if (neg && pos && zero) sentence_ = s;
        }
        QVERIFY2(
            sentence_ >= 0,
            "no dev sentence of 10-18 words with negative, positive and zero r[keep] - r[prune]");
        qInfo("dev sentence %d of %s (%d words)", sentence_ + 1, qPrintable(files.front()),
              win_->sentenceLength(sentence_));
    }

    void init() {
        regret_->removeOverlay();
        win_->selectSentence(sentence_);
        ex()->undoStack()->clear();
        chooseSpanMarginalsInCividis();
    }

    void coloursAreTheDivergingMapOfCore() {
        // Before: the diverging map is not among the choices, no regret entry.
        QCOMPARE(colorBox()->findText(widgets::colorMapName(widgets::ColorMapKind::Diverging)), -1);
        QCOMPARE(quantityBox()->findData(-1), -1);
        overlay();
        // The colour box shows the regret quantity, the map box the diverging map (not choosable).
        QCOMPARE(quantityBox()->currentText(), regretOverlayName());
        QCOMPARE(colorBox()->currentText(),
                 widgets::colorMapName(widgets::ColorMapKind::Diverging));
        QVERIFY(!colorBox()->isEnabled());
        QVERIFY(heat()->colorMap() == widgets::ColorMapKind::Diverging);
        QVERIFY(ex()->findChild<QPushButton*>("removeOverlay")->isVisible());
        QTest::qWait(20);
        const SentenceSession& s = *ex()->session();
        const int n = s.length();
        const auto rollouts = coreRollouts(s);
        QCOMPARE(static_cast<long>(rollouts.size()),
                 static_cast<long>(PruningMask::prunableCount(n)));
        double m = 0;
        for (const SpanRollout& r : rollouts)
            m = std::max(m, std::abs(r.rewardKeep(kLambda) - r.rewardPrune(kLambda)));
        QVERIFY(m > 0);
        const QImage shot = heat()->grab().toImage();
        const auto goldInd = spanIndicator(binarizeLike(s.grammar(), *s.gold()));
        int neg = 0, pos = 0, zero = 0, sampled = 0;
        for (const SpanRollout& r : rollouts) {
            const double d = r.rewardKeep(kLambda) - r.rewardPrune(kLambda);
            const widgets::HeatCell& c = heat()->cell(r.i, r.k);
            QCOMPARE(c.value, static_cast<float>(d));
            QCOMPARE(c.kept, s.mask().keep(r.i, r.k)); // hatched = pruned by the roll-in
            QCOMPARE(c.gold, goldInd[static_cast<std::size_t>(r.i * (n + 1) + r.k)] != 0);
            QCOMPARE(c.label.left(1), QString(d >= 0 ? "K" : "P"));
            // The symmetric scale: the map at (d + m) / 2m, whether the cell is kept or pruned.
            const QColor want = widgets::colorMapAt(widgets::ColorMapKind::Diverging,
                                                    (static_cast<float>(d) + m) / (2 * m));
            const QColor fill = heat()->cellFill(r.i, r.k);
            QCOMPARE(fill, want);
            // Sign <-> side of the map (strictly off-neutral once |d| exceeds the 8-bit rounding
            // near 0).
            const bool clear = std::abs(d) > 0.02 * m;
            if (d > 0) { // the red side
                QVERIFY2(clear ? fill.red() > fill.blue() : fill.red() >= fill.blue(),
                         qPrintable(fill.name()));
                ++pos;
            } else if (d < 0) { // the blue side
                QVERIFY2(clear ? fill.blue() > fill.red() : fill.blue() >= fill.red(),
                         qPrintable(fill.name()));
                ++neg;
            } else {
                QCOMPARE(fill, widgets::divergingNeutral());
                ++zero;
            }
            // And on screen: a kept cell without outline, left of its text.
            if (c.kept && !c.gold) {
                const QRectF rect = heat()->cellRect(r.i, r.k);
                const QPoint at(static_cast<int>(rect.left() + std::max(5.0, rect.width() * 0.1)),
                                static_cast<int>(rect.center().y()));
                QCOMPARE(shot.pixelColor(at).rgb(), want.rgb());
                ++sampled;
            }
        }
        qInfo("%d negative, %d positive, %d zero; max |r[keep] - r[prune]| = %g; %d cells sampled "
              "on screen",
              neg, pos, zero, m, sampled);
        QVERIFY(neg > 0 && pos > 0 && zero > 0 && sampled > 0);
        // The extreme values sit at the ends of the map.
        QCOMPARE(widgets::colorMapAt(widgets::ColorMapKind::Diverging, 0.5),
                 widgets::divergingNeutral());
    }

    void turnOffInTheExplorerRestores() {
        const std::vector<float> before = values();
        overlay();
        QVERIFY(values() != before);
        QTest::mouseClick(ex()->findChild<QPushButton*>("removeOverlay"), Qt::LeftButton);
        verifyRestored(before);
    }

    void turnOffInTheRegretWindowRestores() {
        const std::vector<float> before = values();
        regret_->show();
        QTest::mouseClick(regret_->overlayButton(), Qt::LeftButton); // on
        QVERIFY(ex()->overlayShown());
        QCOMPARE(quantityBox()->currentText(), regretOverlayName());
        QTest::mouseClick(regret_->overlayButton(), Qt::LeftButton); // off
        verifyRestored(before);
        regret_->hide();
    }

    // The overlay's values belong to one sentence and mask: a change drops it, said in both
    // windows.
    void flipDropsTheOverlay() {
        const SentenceSession& s = *ex()->session();
        const int n = s.length();
        overlay();
        int fi = -1, fk = -1;
        for (int w = 2; w < n && fi < 0; ++w)
            if (s.mask().keep(0, w)) fi = 0, fk = w;
        QVERIFY(fi >= 0);
        QVERIFY(ex()->requestFlip(fi, fk));
        QVERIFY(!ex()->overlayShown());
        QVERIFY(!regret_->overlayButton()->isChecked());
        QVERIFY2(regret_->findChild<QLabel*>("status")->text().startsWith(
                     "Overlay removed: the mask changed"),
                 qPrintable(regret_->findChild<QLabel*>("status")->text()));
        QCOMPARE(quantityBox()->currentText(), quantityName(Quantity::SpanMarginal));
        QVERIFY(heat()->colorMap() == widgets::ColorMapKind::Cividis);
        // The cells are the colour quantity of the new mask, not the overlay's.
        const CellPresentation p = presentCells(*ex()->session(), Quantity::SpanMarginal);
        for (int i = 0; i < n; ++i)
            for (int k = i + 1; k <= n; ++k) {
                const float want = p.cells[static_cast<std::size_t>(i * (n + 1) + k)].value;
                const float got = heat()->cell(i, k).value;
                QVERIFY(got == want || (std::isnan(got) && std::isnan(want)));
            }
        // Undo drops an overlay made after the flip too.
        overlay();
        ex()->undoStack()->undo();
        QVERIFY(!ex()->overlayShown());
        QVERIFY(!regret_->overlayButton()->isChecked());
        QVERIFY(ex()->session()->mask() == ex()->session()->policyMask());
    }

    void sentenceChangeDropsTheOverlay() {
        overlay();
        win_->selectSentence(sentence_ + 1);
        QVERIFY(!ex()->overlayShown());
        QVERIFY(!regret_->overlayButton()->isChecked());
        QCOMPARE(quantityBox()->currentText(), quantityName(Quantity::SpanMarginal));
        QVERIFY(heat()->colorMap() == widgets::ColorMapKind::Cividis);
        QCOMPARE(quantityBox()->findData(-1), -1);
    }

    void choosingAnotherQuantityDropsTheOverlay() {
        overlay();
        quantityBox()->setCurrentIndex(
            quantityBox()->findData(static_cast<int>(Quantity::InsideScore))); // as a user picks
        QVERIFY(!ex()->overlayShown());
        QVERIFY(ex()->quantity() == Quantity::InsideScore);
        QCOMPARE(quantityBox()->currentText(), quantityName(Quantity::InsideScore));
        QVERIFY(heat()->colorMap() == widgets::ColorMapKind::Cividis);
        QVERIFY(!regret_->overlayButton()->isChecked());
    }

    void cleanupTestCase() {
        regret_.reset();
        win_.reset();
    }
};

PRUNESCOPE_QTEST_MAIN(TestRegretOverlay)
#include "test_regret_overlay.moc"
