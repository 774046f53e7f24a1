// Exports of the explorer: the current view as PNG/SVG, one view alone as a captioned figure
// (widgets/FigureExport) and the current mask as JSON, all written atomically.
#include "app/gui/explorer/ExplorerPanel.h"

#include "widgets/FigureExport.h"

#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLabel>

#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace prunescope::gui {
namespace {

bool fail(QString* error, const QString& msg) {
    if (error) *error = msg;
    return false;
}

} // namespace

bool ExplorerPanel::exportPng(const QString& path, QString* error) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return fail(error, tr("Cannot write %1: %2").arg(path, f.errorString()));
    QImage img = grab().toImage();
    if (!img.save(&f, "PNG")) return fail(error, tr("Cannot encode PNG for %1").arg(path));
    if (!f.commit()) return fail(error, tr("Cannot write %1: %2").arg(path, f.errorString()));
    return true;
}

bool ExplorerPanel::exportSvg(const QString& path, QString* error) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return fail(error, tr("Cannot write %1: %2").arg(path, f.errorString()));
    {
        QSvgGenerator gen;
        gen.setOutputDevice(&f);
        gen.setSize(size());
        gen.setViewBox(rect());
        gen.setTitle(tr("PruneScope chart"));
        QPainter p(&gen);
        render(&p);
    }
    if (!f.commit()) return fail(error, tr("Cannot write %1: %2").arg(path, f.errorString()));
    return true;
}

bool ExplorerPanel::exportMask(const QString& path, QString* error) {
    if (!session_) return fail(error, tr("No sentence to export a mask for"));
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return fail(error, tr("Cannot write %1: %2").arg(path, f.errorString()));
    QByteArray bytes = QByteArray::fromStdString(session_->mask().toJson().dump() + "\n");
    if (f.write(bytes) != bytes.size() || !f.commit())
        return fail(error, tr("Cannot write %1: %2").arg(path, f.errorString()));
    return true;
}

QString ExplorerPanel::figureCaption() const {
    if (!session_) return {};
    QStringList words;
    for (const auto& w : session_->words())
        words << QString::fromStdString(w);
    const Policy* policy = session_->policy();
    QString name = !policy                      ? tr("none (keep all)")
                   : !policy->meta.name.empty() ? QString::fromStdString(policy->meta.name)
                   : !policy->meta.kind.empty() ? QString::fromStdString(policy->meta.kind)
                                                : tr("unnamed");
    const bool edited = session_->mask() != session_->policyMask();
    const FlipResult& r = session_->result();
    return tr("Sentence: %1\nPolicy: %2 (mask: %3)   λ = %4   F1 = %5   pushes = %6")
        .arg(words.join(' '), name, edited ? tr("edited by hand") : tr("the policy's"))
        .arg(lambda_->value(), 0, 'g', 6)
        .arg(f1Value_->text())
        .arg(r.pushes);
}

bool ExplorerPanel::exportFigure(FigureView v, const QString& path, double scale, bool caption,
                                 QString* error) {
    if (!session_) return fail(error, tr("No sentence to export a figure of"));
    QWidget* view = v == FigureView::Chart           ? static_cast<QWidget*>(heat_)
                    : v == FigureView::PredictedTree ? static_cast<QWidget*>(predicted_)
                                                     : static_cast<QWidget*>(goldTree_);
    // No keyboard-focus frame in a figure.
    const bool focused = heat_->hasFocus();
    if (focused) heat_->clearFocus();
    const bool ok = widgets::saveFigure(
        view, path, widgets::FigureOptions{scale, caption ? figureCaption() : QString()}, error);
    if (focused) heat_->setFocus();
    return ok;
}

} // namespace prunescope::gui
