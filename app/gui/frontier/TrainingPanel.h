#pragma once
// The panel that shows the LOLS runs of a TrainingQueue (Vieira & Eisner 2017, sec. 4 Alg. 2):
// one row per run (state, iteration, phase progress, ETA, cancel) and the train (roll-in) and dev
// reward per iteration of the selected run.
#include "app/gui/frontier/TrainingQueue.h"

#include <QWidget>

class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace prunescope::gui {

class TrainingPanel : public QWidget {
    Q_OBJECT
  public:
    explicit TrainingPanel(TrainingQueue* queue, QWidget* parent = nullptr);
    int currentJob() const { return current_; }
    void setCurrentJob(int id);
    QTableWidget* table() const { return table_; }
    QCustomPlot* rewardPlot() const { return plot_; }

  private:
    void refreshRow(int id);
    void refreshPlot();
    TrainingQueue* queue_;
    QTableWidget* table_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* detail_ = nullptr;
    QPushButton* cancel_ = nullptr;
    int current_ = -1;
};

// The reward-per-iteration plot: integer ticks on the iteration axis (step 1, or a whole multiple
// of it when iterations are many) and the legend in its own row below the axes, so it hides no
// curve. showRewardCurves fills it with the train (roll-in) and dev rewards of `log`, the x range
// covering iterations 0..max(1, plannedIterations).
void setupRewardPlot(QCustomPlot* plot);
void showRewardCurves(QCustomPlot* plot, const std::vector<LolsIterationRecord>& log,
                      int plannedIterations);

QString formatDuration(double seconds); // "1 h 02 min", "3 min 05 s", "12 s", "–"

} // namespace prunescope::gui
