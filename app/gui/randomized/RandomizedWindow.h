#pragma once
// The randomized-pruning animation (issue 15; Bouchard-Côté, Petrov & Klein 2009, Alg. 1): the
// auxiliary-variable MCMC over span masks on one sentence. Left, the current mask m(s, a): pruned
// cells hatched, selected variables outlined, the tree the mask was built from dotted, colour =
// the pruned chart's span posterior E_m. Right, the running estimate of the span posteriors (the
// average over masks), or the exact ones, or their difference. Below, a bias readout and a small
// bias-vs-iterations plot. Play / pause / step / speed as the explorer's change animation; seed,
// selection chain, support threshold and selection fraction restart the chain. All computation
// runs on a worker thread (RandomizedChain); closing the window cancels it.
#include "app/gui/randomized/RandomizedChain.h"
#include "widgets/BiasTrace.h"
#include "widgets/ChartHeatMap.h"

#include <QFutureWatcher>
#include <QTimer>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QSplitter;

namespace prunescope::gui {

class MainWindow;

class RandomizedWindow : public QWidget {
    Q_OBJECT
  public:
    explicit RandomizedWindow(QWidget* parent = nullptr);
    ~RandomizedWindow() override; // cancels the worker and waits for it

    // The window of this main window (created on first use), showing the explorer's sentence.
    static RandomizedWindow* showFor(MainWindow* w);

    // Starts over on a sentence (cancels running work).
    void setSentence(RandomizedSentence s, const QString& title);
    // Where "Use Explorer Sentence" gets its sentence from.
    void setSentenceProvider(std::function<std::optional<RandomizedSentence>()> provider);

    void setOptions(const RandomizedOptions& opt); // restarts the chain
    RandomizedOptions options() const;
    void play();
    void pause();
    bool isPlaying() const { return timer_.isActive() || playing_; }
    void stepOnce();
    void restart();
    void setStepInterval(int ms); // animation speed, milliseconds per iteration
    // Processes events until no work runs (true) or timeoutMs passed (false).
    bool waitIdle(int timeoutMs);
    bool busy() const { return watcher_.isRunning(); }

    // What the user reads (tests and screenshots).
    const ChainSnapshot& snapshot() const { return snap_; }
    QString readoutText() const;
    widgets::ChartHeatMap* maskMap() const { return maskMap_; }
    widgets::ChartHeatMap* estimateMap() const { return estimateMap_; }
    widgets::BiasTrace* trace() const { return trace_; }
    void setEstimateView(int view); // 0 running estimate, 1 exact, 2 |estimate − exact|

  signals:
    void snapshotShown(int iteration);

  protected:
    void closeEvent(QCloseEvent* e) override;

  private:
    // The steps of the constructor, top to bottom.
    QHBoxLayout* buildTitleRow();
    QHBoxLayout* buildChainControls();
    QSplitter* buildMaps();
    QHBoxLayout* buildReadoutRow();
    void connectChain();
    void run(std::function<ChainSnapshot(RandomizedChain&, const Progress&)> job);
    void onJobDone();
    void show(const ChainSnapshot& s);
    void refreshMaps();
    QString cellTooltip(int i, int k, bool estimateSide) const;
    void cancelAndWait();

    RandomizedChain chain_;
    std::optional<RandomizedSentence> sentence_;
    std::function<std::optional<RandomizedSentence>()> provider_;
    ChainSnapshot snap_;
    QFutureWatcher<ChainSnapshot> watcher_;
    Progress progress_;
    QString jobError_;
    bool restartPending_ = false;
    bool playing_ = false;
    QTimer timer_;
    int estimateView_ = 0;

    QLabel *title_ = nullptr, *readout_ = nullptr, *status_ = nullptr;
    QPushButton *playBtn_ = nullptr, *stepBtn_ = nullptr, *restartBtn_ = nullptr,
                *useExplorerBtn_ = nullptr;
    QSlider* speed_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QComboBox *selection_ = nullptr, *view_ = nullptr;
    QDoubleSpinBox *support_ = nullptr, *fraction_ = nullptr;
    widgets::ChartHeatMap *maskMap_ = nullptr, *estimateMap_ = nullptr;
    widgets::BiasTrace* trace_ = nullptr;
};

} // namespace prunescope::gui

namespace prunescope::gui {
// `prunescope --screenshot-randomized FILE [--sentence N] [--iterations K] [--size WxH]`: the
// window on the bundled sample's sentence N after K iterations, rendered offscreen (user guide).
int randomizedScreenshot(const QString& file, int sentence, int iterations, const QString& size);
} // namespace prunescope::gui
