// Printing figures (see FigurePrint.h).
#include "widgets/FigurePrint.h"

#include "widgets/FigureExport.h"

#include <QObject>
#include <QPageLayout>
#include <QPainter>
#include <QPrinter>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace prunescope::widgets {

namespace {

// The smallest scale a figure is printed at: its size on screen, where a tree's text is never
// below 0.7 of its 9 pt (widgets/TreeView.cpp, kShrinkScale), so at least 6 pt on paper (issue 42:
// a 40-word tree came out in 3-pt text on A4 portrait). A figure wider than that allows is printed
// across pages, left to right.
constexpr double kMinReadableScale = 1.0;

QPageLayout::Orientation orientationFor(const QSizeF& fig) {
    return fig.width() > fig.height() ? QPageLayout::Landscape : QPageLayout::Portrait;
}

} // namespace

bool printFigures(QPrinter& printer, const std::vector<FigurePage>& pages, QString* error) {
    auto fail = [error](const QString& m) {
        if (error) *error = m;
        return false;
    };
    if (pages.empty()) return fail(QObject::tr("Nothing to print"));
    for (const FigurePage& page : pages)
        if (!page.view || page.view->width() <= 0 || page.view->height() <= 0)
            return fail(QObject::tr("Cannot print: a view has no size"));
    // The views lay out their point-sized text at the screen's resolution: the printer gets the
    // same one, so text keeps its size relative to the drawing (the output stays vector, sharp at
    // any size).
    printer.setResolution(pages.front().view->logicalDpiX());
    // Each figure on paper of its own shape: landscape for a wide chart or tree.
    printer.setPageOrientation(
        orientationFor(figureSize(pages.front().view, pages.front().caption)));
    QPainter p;
    if (!p.begin(&printer))
        return fail(QObject::tr("Cannot print to %1")
                        .arg(printer.outputFileName().isEmpty() ? printer.printerName()
                                                                : printer.outputFileName()));
    int sheet = 0;
    for (const FigurePage& page : pages) {
        const QSizeF fig = figureSize(page.view, page.caption);
        printer.setPageOrientation(orientationFor(fig));
        if (sheet > 0 && !printer.newPage())
            return fail(QObject::tr("Cannot start page %1").arg(sheet + 1));
        const QRectF area = printer.pageLayout().paintRectPixels(printer.resolution());
        // Scale to the printable area (device pixels), keeping the aspect, but not below the
        // readable scale: then the height fits and the width runs over several pages.
        double s = std::min(area.width() / fig.width(), area.height() / fig.height());
        if (s < kMinReadableScale) s = std::min(kMinReadableScale, area.height() / fig.height());
        const int tiles =
            std::max(1, static_cast<int>(std::ceil(fig.width() * s / area.width() - 1e-9)));
        for (int t = 0; t < tiles; ++t) {
            if (t > 0 && !printer.newPage())
                return fail(QObject::tr("Cannot start page %1").arg(sheet + 1));
            p.save();
            p.setClipRect(QRectF(0, 0, area.width(), area.height()));
            const double left =
                tiles == 1 ? (area.width() - fig.width() * s) / 2 : -t * area.width();
            p.translate(left, 0);
            p.scale(s, s);
            paintFigure(p, page.view, page.caption);
            p.restore();
            ++sheet;
        }
    }
    if (!p.end()) return fail(QObject::tr("Printing failed"));
    return true;
}

} // namespace prunescope::widgets
