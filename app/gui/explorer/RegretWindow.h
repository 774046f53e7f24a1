#pragma once
// The regret view (Vieira & Eisner 2017, sec. 7.3, eq. 4) for one policy and lambda: the
// corpus-level decomposition of the gold oracle's regret against the LOLS rollout oracle as grouped
// bars (gold vs non-gold spans) and a table of its numbers (RegretTable), computed in the
// background (a BackgroundTask, with a progress bar and Cancel) over a sample of sentences; and,
// per sentence, an overlay of the signed r^[keep] - r^[prune] on the explorer's heat map (a
// diverging colour map, symmetric around 0) with the gold label and the rollout oracle's choice,
// which can be turned off.
#include "app/gui/explorer/RegretTable.h"
#include "app/gui/window/BackgroundTask.h"
#include "core/lols/Regret.h"
#include "widgets/ChartHeatMap.h"
#include "widgets/RegretBars.h"

#include <QPointer>
#include <QWidget>

#include <memory>

class QComboBox;
class QFormLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace prunescope::gui {

class ExplorerPanel;

// Per-span rollout values of one sentence, rolled in with `rollIn` (sec. 4 Alg. 2 lines 8-10).
struct RegretOverlay {
    std::vector<SpanRollout> rollouts;
    // i*(n+1)+k: value = r^[keep] - r^[prune] (NaN: not prunable); kept = the roll-in mask's bit;
    // label = the oracle's choice K/P (ties keep), "!" where it differs from the gold label.
    std::vector<widgets::HeatCell> cells;
    double maxAbs = 0;
    int disagreements = 0; // states where the oracle's choice differs from the gold label
};
RegretOverlay computeRegretOverlay(const Grammar& g, const std::vector<std::string>& words,
                                   const Tree& gold, const PruningMask& rollIn, Surrogate s,
                                   double lambda);
// Shows the overlay on the explorer's heat map (ExplorerPanel::showOverlay: the diverging map on
// ±maxAbs, the colour box's "Regret r̂[keep] − r̂[prune]" entry) until it is removed or the
// explorer's sentence or mask changes.
void applyRegretOverlay(ExplorerPanel* explorer, const RegretOverlay& o, double lambda);
QString regretOverlayName(); // the colour box's entry

struct RegretRequest {
    QString grammar, policy, treebank;
    double lambda = 0;
    Surrogate surrogate = Surrogate::CP;
    int sentences = 50, maxLength = 40, threads = 1;
};

class RegretWindow : public QWidget {
    Q_OBJECT
  public:
    explicit RegretWindow(QWidget* parent = nullptr);
    ~RegretWindow() override;
    void setRequest(const RegretRequest& r); // fills the controls; compute() starts
    RegretRequest request() const;
    void setExplorer(ExplorerPanel* e);
    void compute(); // background; emits finished
    void cancel();  // stops a computation within 1 s; emits finished(false)
    bool isComputing() const { return task_->isRunning(); }
    BackgroundTask* task() const { return task_; }
    const RegretStats& stats() const { return stats_; }
    widgets::RegretBars* bars() const { return bars_; }
    RegretTable* table() const { return table_; }
    // Synchronous, on the explorer's sentence and mask; checks the overlay button. Turning the
    // button off (or removeOverlay) restores the explorer's colour quantity and map.
    bool overlayCurrentSentence(QString* error = nullptr);
    void removeOverlay();
    QPushButton* overlayButton() const { return overlayBtn_; }

  signals:
    void finished(bool ok);

  private:
    // The steps of the constructor.
    QFormLayout* buildSettingsForm();
    QHBoxLayout* buildButtonRow(QPushButton*& save, QPushButton*& copy);
    QHBoxLayout* buildStatusRow();
    void arrangeLayout(QFormLayout* form, QHBoxLayout* buttons, QHBoxLayout* statusRow);
    void connectButtons(QPushButton* save, QPushButton* copy);
    void connectTask();
    widgets::RegretBars* bars_ = nullptr;
    QLineEdit *policy_ = nullptr, *treebank_ = nullptr, *lambda_ = nullptr;
    QString grammar_;
    QComboBox* surrogate_ = nullptr;
    QSpinBox *sentences_ = nullptr, *threads_ = nullptr;
    QPushButton *computeBtn_ = nullptr, *cancelBtn_ = nullptr, *overlayBtn_ = nullptr;
    RegretTable* table_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    QPointer<ExplorerPanel> explorer_;
    BackgroundTask* task_ = nullptr;
    std::shared_ptr<RegretStats> result_; // written by the task, read when it has finished
    std::shared_ptr<int>
        available_; // sentences of <= maxLength words before the Sentences cap (task-written)
    void showResult(const RegretStats& s);
    RegretStats stats_;
};

} // namespace prunescope::gui
