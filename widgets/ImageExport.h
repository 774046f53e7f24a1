#pragma once
// Image exports (PNG, PDF, SVG of a view or plot) that never leave a half-written file: the image
// is rendered into a private temporary file, then the target is replaced atomically by
// core/util/AtomicFile (an existing file keeps its mode; a symbolic link is written through).
#include <QString>

#include <functional>

class QWidget;
class QCustomPlot;

namespace prunescope::widgets {

// render(tmpPath) writes the image to tmpPath (a file name with path's suffix) and says whether it
// succeeded. Returns false with a message in *error if rendering or the write fails.
bool exportAtomically(const QString& path,
                      const std::function<bool(const QString& tmpPath)>& render,
                      QString* error = nullptr);

// The widget's current look as a PNG (or any format QImage writes, by suffix).
bool saveWidgetImage(QWidget* widget, const QString& path, QString* error = nullptr);

// A QCustomPlot as PDF (path ends in .pdf) or PNG (otherwise), width/height 0 = its current size.
bool savePlotImage(QCustomPlot* plot, const QString& path, int width = 0, int height = 0,
                   QString* error = nullptr);

} // namespace prunescope::widgets
