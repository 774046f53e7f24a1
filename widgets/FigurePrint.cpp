// Printing figures (see FigurePrint.h).
#include "widgets/FigurePrint.h"

#include "widgets/FigureExport.h"

#include <QObject>
#include <QPainter>
#include <QPrinter>
#include <QWidget>

#include <algorithm>

namespace prunescope::widgets {

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
    QPainter p;
    if (!p.begin(&printer))
        return fail(QObject::tr("Cannot print to %1")
                        .arg(printer.outputFileName().isEmpty() ? printer.printerName()
                                                                : printer.outputFileName()));
    for (std::size_t x = 0; x < pages.size(); ++x) {
        if (x > 0 && !printer.newPage())
            return fail(QObject::tr("Cannot start page %1").arg(x + 1));
        const FigurePage& page = pages[x];
        const QSizeF fig = figureSize(page.view, page.caption);
        const QRectF area = printer.pageLayout().paintRectPixels(printer.resolution());
        // Scale to the printable area (device pixels), keeping the aspect; centred horizontally.
        const double s = std::min(area.width() / fig.width(), area.height() / fig.height());
        p.save();
        p.translate((area.width() - fig.width() * s) / 2, 0);
        p.scale(s, s);
        paintFigure(p, page.view, page.caption);
        p.restore();
    }
    if (!p.end()) return fail(QObject::tr("Printing failed"));
    return true;
}

} // namespace prunescope::widgets
