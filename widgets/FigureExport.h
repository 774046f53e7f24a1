#pragma once
// Figures for slides and papers (issue 18, figure export): one view rendered alone as SVG (Qt SVG,
// vector with real text), PDF (vector) or PNG at a pixel scale (1×, 2×, 3×), on white, with an
// optional caption below it; written atomically through exportAtomically (ImageExport.h).
#include <QSizeF>
#include <QString>

class QPainter;

class QWidget;

namespace prunescope::widgets {

struct FigureOptions {
    double scale =
        1;           // PNG pixels per view pixel (SVG and PDF are vector; their size is the view's)
    QString caption; // empty = none; wrapped to the view's width
};

// The format is the suffix of `path`: .svg, .pdf or .png (anything else is an error). Returns false
// with a message in *error when the format is unknown, the view is empty, or writing fails.
bool saveFigure(QWidget* view, const QString& path, const FigureOptions& opt,
                QString* error = nullptr);

// The figure's parts, for other devices (a printer, widgets/FigurePrint.h): its size in view pixels
// (the view, plus the caption wrapped to its width) and the painting of it at the origin on white.
double captionHeight(const QWidget* view, const QString& caption);
QSizeF figureSize(const QWidget* view, const QString& caption);
void paintFigure(QPainter& p, QWidget* view, const QString& caption, double capH);
void paintFigure(QPainter& p, QWidget* view, const QString& caption);

} // namespace prunescope::widgets
