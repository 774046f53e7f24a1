// Figure export of one view (see FigureExport.h).
#include "widgets/FigureExport.h"

#include "widgets/ImageExport.h"

#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QWidget>

#include <cmath>

namespace prunescope::widgets {
namespace {

constexpr double kCaptionPad = 8;

} // namespace

double captionHeight(const QWidget* view, const QString& caption) {
    if (caption.isEmpty()) return 0;
    QFontMetricsF fm(view->font());
    QRectF box = fm.boundingRect(QRectF(0, 0, view->width() - 2 * kCaptionPad, 1e6),
                                 Qt::TextWordWrap, caption);
    return std::ceil(box.height() + 2 * kCaptionPad);
}

// The view at the origin, the caption below it, on white; in view pixels (the painter may scale).
void paintFigure(QPainter& p, QWidget* view, const QString& caption, double capH) {
    p.fillRect(QRectF(0, 0, view->width(), view->height() + capH), Qt::white);
    view->render(&p, QPoint(), QRegion(), QWidget::DrawChildren);
    if (caption.isEmpty()) return;
    p.setFont(view->font());
    p.setPen(Qt::black);
    p.drawText(QRectF(kCaptionPad, view->height() + kCaptionPad, view->width() - 2 * kCaptionPad,
                      capH - kCaptionPad),
               Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, caption);
}

QSizeF figureSize(const QWidget* view, const QString& caption) {
    return QSizeF(view->width(), view->height() + captionHeight(view, caption));
}

void paintFigure(QPainter& p, QWidget* view, const QString& caption) {
    paintFigure(p, view, caption, captionHeight(view, caption));
}

bool saveFigure(QWidget* view, const QString& path, const FigureOptions& opt, QString* error) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != "svg" && suffix != "pdf" && suffix != "png") {
        if (error)
            *error = QObject::tr("Cannot export %1: the figure format is chosen by the suffix "
                                 ".svg, .pdf or .png")
                         .arg(path);
        return false;
    }
    if (!view || view->width() <= 0 || view->height() <= 0) {
        if (error) *error = QObject::tr("Cannot export %1: the view has no size").arg(path);
        return false;
    }
    const double capH = captionHeight(view, opt.caption);
    const QSize size(view->width(), static_cast<int>(view->height() + capH));
    const int dpi =
        view->logicalDpiX(); // so that point-sized fonts keep their size relative to the drawing
    return exportAtomically(
        path,
        [&](const QString& tmp) {
            if (suffix == "svg") {
                QSvgGenerator gen;
                gen.setFileName(tmp);
                gen.setResolution(dpi);
                gen.setSize(size);
                gen.setViewBox(QRect(QPoint(), size));
                gen.setTitle(view->accessibleName());
                gen.setDescription(opt.caption);
                QPainter p;
                if (!p.begin(&gen)) return false;
                paintFigure(p, view, opt.caption, capH);
                return p.end();
            }
            if (suffix == "pdf") {
                QPdfWriter pdf(tmp);
                pdf.setResolution(dpi);
                pdf.setPageSize(QPageSize(QSizeF(size) * 72.0 / dpi, QPageSize::Point));
                pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
                pdf.setTitle(view->accessibleName());
                pdf.setCreator(QStringLiteral("PruneScope"));
                QPainter p;
                if (!p.begin(&pdf)) return false;
                paintFigure(p, view, opt.caption, capH);
                return p.end();
            }
            const double scale = std::max(0.25, opt.scale);
            QImage img(QSize(static_cast<int>(std::lround(size.width() * scale)),
                             static_cast<int>(std::lround(size.height() * scale))),
                       QImage::Format_ARGB32_Premultiplied);
            if (img.isNull()) return false;
            img.fill(Qt::white);
            {
                QPainter p(&img);
                p.setRenderHint(QPainter::Antialiasing);
                p.setRenderHint(QPainter::TextAntialiasing);
                p.scale(scale, scale);
                paintFigure(p, view, opt.caption, capH);
            }
            return img.save(tmp, "PNG");
        },
        error);
}

} // namespace prunescope::widgets
