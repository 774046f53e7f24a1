#pragma once
// The dependency mode's speed/accuracy frontier window (issue 13: Rush & Petrov 2012 sec. 6,
// Cherry & Bergsma 2011 sec. 5): a DepFrontierPlot of the files opened with File > Open
// Dependency Frontier… (a dep-frontier --out-json file, or vine-frontier JSON and dep-eval --json
// outputs), and a line naming the final models when the series come from more than one.
#include "core/frontier/DepFrontier.h"

#include <QMainWindow>
#include <QStringList>

class QLabel;

namespace prunescope::widgets {
class DepFrontierPlot;
}

namespace prunescope::gui {

class DepFrontierWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit DepFrontierWindow(QWidget* parent = nullptr);

    // Loads the files (core/frontier/DepFrontierInputs.h) into the parent's frontier window
    // (created on first use) and shows it; nullptr + message (file:line) on error.
    static DepFrontierWindow* openFiles(QWidget* parent, const QStringList& paths, QString* error);

    void setFrontier(DepFrontier f);
    widgets::DepFrontierPlot* plot() const { return plot_; }
    QString modelNote() const;

  private:
    widgets::DepFrontierPlot* plot_ = nullptr;
    QLabel* note_ = nullptr;
};

} // namespace prunescope::gui
