// The dependency frontier window (Rush & Petrov 2012 sec. 6; Cherry & Bergsma 2011 sec. 5).
#include "app/gui/dep/DepFrontierWindow.h"

#include "core/frontier/DepFrontierInputs.h"
#include "widgets/DepFrontierPlot.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QToolBar>
#include <QVBoxLayout>

#include <set>

namespace prunescope::gui {

DepFrontierWindow::DepFrontierWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName("depFrontierWindow");
    setWindowTitle(tr("Dependency Frontier — PruneScope"));
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    plot_ = new widgets::DepFrontierPlot(central);
    note_ = new QLabel(central);
    note_->setWordWrap(true);
    layout->addWidget(plot_, 1);
    layout->addWidget(note_);
    setCentralWidget(central);
    auto* tb = addToolBar(tr("Frontier"));
    tb->setObjectName("depFrontierToolBar");
    tb->addAction(tr("Open…"), this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Open Dependency Frontier"), QString(),
            tr("Frontier, vine-frontier or dep-eval JSON (*.json);;All files (*)"));
        QString err;
        if (!paths.isEmpty() && !openFiles(parentWidget(), paths, &err))
            QMessageBox::warning(this, tr("PruneScope"), err);
    });
    tb->addAction(tr("Export PNG/PDF…"), this, [this] {
        const QString p = QFileDialog::getSaveFileName(
            this, tr("Export Frontier"), "dep-frontier.png", tr("PNG (*.png);;PDF (*.pdf)"));
        QString err;
        if (!p.isEmpty() && !plot_->saveImage(p, 0, 0, &err))
            QMessageBox::warning(this, tr("PruneScope"), err);
    });
}

DepFrontierWindow* DepFrontierWindow::openFiles(QWidget* parent, const QStringList& paths,
                                                QString* error) {
    DepFrontier f;
    try {
        std::vector<std::string> files;
        for (const QString& p : paths)
            files.push_back(p.toStdString());
        f = loadDepFrontierFiles(files);
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return nullptr;
    }
    auto* w = parent ? parent->findChild<DepFrontierWindow*>(QString(), Qt::FindDirectChildrenOnly)
                     : nullptr;
    if (!w) {
        w = new DepFrontierWindow(parent);
        w->setWindowFlag(Qt::Window);
        w->resize(1100, 760);
    }
    w->setFrontier(std::move(f));
    w->show();
    w->raise();
    return w;
}

QString DepFrontierWindow::modelNote() const {
    std::set<std::string> models;
    for (const auto& s : plot_->frontier().series)
        models.insert(s.model);
    QString note = tr("%1 series, %2 points. ").arg(plot_->seriesCount()).arg(plot_->pointCount());
    if (models.size() > 1) {
        QStringList names;
        for (const auto& m : models)
            names << QString::fromStdString(m);
        note +=
            tr("The series come from %1 different final models (%2): compare each series with its "
               "own exhaustive "
               "reference (square of the same colour). Tokens/s were measured in separate runs.")
                .arg(models.size())
                .arg(names.join(", "));
    }
    note += tr(" Hover a point for its numbers.");
    return note;
}

void DepFrontierWindow::setFrontier(DepFrontier f) {
    plot_->setFrontier(std::move(f));
    note_->setText(modelNote());
}

} // namespace prunescope::gui
