#pragma once
// The empirical-complexity window (Rush & Petrov 2012 sec. 6): the ComplexityPlot of the files
// opened with File > Open Complexity Run… (`prunescope-cli vine-complexity --out-json` files; one
// per order, or one holding every order through --also), and a line with each series' fit.
#include <QMainWindow>
#include <QStringList>

class QLabel;

namespace prunescope::widgets {
class ComplexityPlot;
}

namespace prunescope::gui {

class ComplexityWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit ComplexityWindow(QWidget* parent = nullptr);

    // Loads the files (core/vine/EmpiricalComplexity.h) into the parent's complexity window
    // (created on first use) and shows it; nullptr + message (file:line) on error, the window
    // keeping what it showed.
    static ComplexityWindow* openFiles(QWidget* parent, const QStringList& paths, QString* error);

    widgets::ComplexityPlot* plot() const { return plot_; }
    QString note() const;

  private:
    widgets::ComplexityPlot* plot_ = nullptr;
    QLabel* note_ = nullptr;
};

} // namespace prunescope::gui
