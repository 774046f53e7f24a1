// LOLS run panel (Vieira & Eisner 2017, sec. 4 Alg. 2): see TrainingPanel.h.
#include "app/gui/frontier/TrainingPanel.h"

#include "app/gui/explorer/ShownPath.h"
#include "app/gui/window/BackgroundTask.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>

#include <cmath>

namespace prunescope::gui {

QString formatDuration(double s) {
    if (!(s >= 0) || !std::isfinite(s)) return QString::fromUtf8("\u2013");
    const long t = std::lround(s);
    if (t >= 3600)
        return QString("%1 h %2 min").arg(t / 3600).arg((t % 3600) / 60, 2, 10, QChar('0'));
    if (t >= 60) return QString("%1 min %2 s").arg(t / 60).arg(t % 60, 2, 10, QChar('0'));
    return QString("%1 s").arg(t);
}

TrainingPanel::TrainingPanel(TrainingQueue* queue, QWidget* parent)
    : QWidget(parent), queue_(queue) {
    table_ = new QTableWidget(0, 6, this);
    table_->setHorizontalHeaderLabels(
        {"run directory", "state", "iteration", "phase", "ETA", "best dev reward"});
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table_->verticalHeader()->setVisible(false);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setAccessibleName("LOLS runs");
    progress_ = new QProgressBar(this);
    progress_->setAccessibleName("progress of the current phase");
    detail_ = new QLabel(this);
    cancel_ = new QPushButton("Cancel run", this);
    cancel_->setToolTip("Stops the run after cancelling the current iteration; finished iterations "
                        "stay in its directory");
    cancel_->setEnabled(false);
    plot_ = new QCustomPlot(this);
    plot_->setMinimumHeight(150);
    setupRewardPlot(plot_);
    auto* left = new QVBoxLayout;
    left->addWidget(table_, 1);
    auto* row = new QHBoxLayout;
    row->addWidget(progress_, 1);
    row->addWidget(cancel_);
    left->addLayout(row);
    left->addWidget(detail_);
    auto* lay = new QHBoxLayout(this);
    lay->addLayout(left, 3);
    lay->addWidget(plot_, 2);

    connect(queue_, &TrainingQueue::jobChanged, this, [this](int id) {
        refreshRow(id);
        if (current_ < 0 ||
            (id != current_ && queue_->job(id) && queue_->job(id)->state == JobState::Running))
            setCurrentJob(id);
        else if (id == current_)
            setCurrentJob(id);
    });
    connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
        const auto rows = table_->selectionModel()->selectedRows();
        if (!rows.isEmpty())
            setCurrentJob(table_->item(rows.first().row(), 0)->data(Qt::UserRole).toInt());
    });
    connect(cancel_, &QPushButton::clicked, this, [this] {
        if (current_ >= 0) queue_->cancel(current_);
    });
}

void TrainingPanel::refreshRow(int id) {
    const TrainingJob* j = queue_->job(id);
    if (!j) return;
    int row = -1;
    for (int r = 0; r < table_->rowCount(); ++r)
        if (table_->item(r, 0)->data(Qt::UserRole).toInt() == id) row = r;
    if (row < 0) {
        row = table_->rowCount();
        table_->insertRow(row);
        for (int c = 0; c < table_->columnCount(); ++c)
            table_->setItem(row, c, new QTableWidgetItem);
        table_->item(row, 0)->setData(Qt::UserRole, id);
    }
    const int done = j->log.empty() ? -1 : j->log.back().iteration;
    double best = -std::numeric_limits<double>::infinity();
    for (const auto& r : j->log)
        best = std::max(best, r.dev.reward);
    table_->item(row, 0)->setText(shownPath(j->runDir) + (j->followed ? "  (followed)" : ""));
    table_->item(row, 0)->setToolTip(j->error.isEmpty() ? absolutePath(j->runDir) : j->error);
    table_->item(row, 1)->setText(jobStateName(j->state) +
                                  (j->error.isEmpty() ? "" : ": " + j->error));
    table_->item(row, 2)->setText(
        QString("%1 / %2").arg(done < 0 ? QString("–") : QString::number(done)).arg(j->iterations));
    const bool active = j->state == JobState::Running || j->state == JobState::Cancelling;
    table_->item(row, 3)->setText(active ? progressText(j->progress) : QString());
    table_->item(row, 4)->setText(j->state == JobState::Running ? formatDuration(j->etaSeconds)
                                                                : QString());
    table_->item(row, 5)->setText(j->log.empty() ? QString() : QString::number(best, 'g', 6));
}

void TrainingPanel::setCurrentJob(int id) {
    current_ = id;
    const TrainingJob* j = queue_->job(id);
    cancel_->setEnabled(j && (j->state == JobState::Running || j->state == JobState::Queued ||
                              j->state == JobState::Following));
    if (j && j->state == JobState::Cancelling) {
        progress_->setRange(0, 0); // busy until the worker has stopped (within 1 s)
        progress_->setFormat(jobStateName(j->state));
    } else if (j && j->state == JobState::Running && j->progress.total > 0) {
        progress_->setRange(0, static_cast<int>(j->progress.total));
        progress_->setValue(static_cast<int>(j->progress.done));
        progress_->setFormat(QString("iteration %1: %2 %p%")
                                 .arg(j->progress.step)
                                 .arg(QString::fromStdString(j->progress.phase)));
    } else if (j && j->state == JobState::Running) { // a phase of unknown length (training: L-BFGS)
        progress_->setRange(0, 0);
        progress_->setFormat(
            QString("iteration %1: %2").arg(j->progress.step).arg(progressText(j->progress)));
    } else {
        progress_->setRange(0, 1);
        progress_->setValue(j && j->state == JobState::Finished ? 1 : 0);
        progress_->setFormat(j ? jobStateName(j->state) : QString());
    }
    if (j) {
        detail_->setText(
            QString("%1 — ETA %2")
                .arg(QFileInfo(j->runDir).fileName(),
                     j->state == JobState::Running ? formatDuration(j->etaSeconds) : QString("–")));
    }
    refreshPlot();
}

void setupRewardPlot(QCustomPlot* plot) {
    plot->xAxis->setLabel("LOLS iteration");
    plot->yAxis->setLabel("surrogate reward");
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples); // 1, 2, 5, 10, … iterations apart
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setNumberFormat("f");
    plot->xAxis->setNumberPrecision(0);
    plot->legend->setVisible(true);
    plot->legend->setFont(QFont(plot->font().family(), 8));
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    auto* below = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, below);
    below->setMargins(QMargins(4, 0, 4, 4));
    below->addElement(0, 0, plot->legend); // takes the legend out of the axes' inset layout
    plot->plotLayout()->setRowStretchFactor(1, 0.001);
    plot->plotLayout()->setRowSpacing(0);
    for (int g = 0; g < 2; ++g) {
        auto* graph = plot->addGraph();
        graph->setName(g == 0 ? "train (roll-in, minibatch)" : "dev");
        const QColor c = g == 0 ? QColor(31, 119, 180) : QColor(214, 39, 40);
        graph->setPen(QPen(c, 1.6));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, c, Qt::white, 6));
    }
}

void showRewardCurves(QCustomPlot* plot, const std::vector<LolsIterationRecord>& log,
                      int plannedIterations) {
    plot->graph(0)->data()->clear();
    plot->graph(1)->data()->clear();
    for (const auto& r : log) {
        if (std::isfinite(r.trainRollInReward))
            plot->graph(0)->addData(r.iteration, r.trainRollInReward);
        if (std::isfinite(r.dev.reward)) plot->graph(1)->addData(r.iteration, r.dev.reward);
    }
    plot->rescaleAxes();
    plot->xAxis->setRange(-0.3, std::max(1, plannedIterations) + 0.3);
    const QCPRange y = plot->yAxis->range();
    const double m = std::max(1e-6, 0.1 * y.size());
    plot->yAxis->setRange(y.lower - m, y.upper + m);
}

void TrainingPanel::refreshPlot() {
    const TrainingJob* j = queue_->job(current_);
    plot_->graph(0)->data()->clear();
    plot_->graph(1)->data()->clear();
    if (j) showRewardCurves(plot_, j->log, j->iterations);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace prunescope::gui
