// The "Retrain this point…" dialogs' shared form (Vieira & Eisner 2017, sec. 7).
#include "app/gui/frontier/RetrainDialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>

namespace prunescope::gui {

RetrainDialog::RetrainDialog(QWidget* parent, const QString& pointId, const QString& intro)
    : dlg_(parent) {
    dlg_.setWindowTitle(QString("Retrain %1").arg(pointId));
    form_ = new QFormLayout(&dlg_);
    auto* l = new QLabel(intro, &dlg_);
    l->setWordWrap(true);
    form_->addRow(l);
}

void RetrainDialog::row(const QString& name, const QString& value) {
    auto* l = new QLabel(value, &dlg_);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setWordWrap(true);
    form_->addRow(name, l);
}

bool RetrainDialog::exec(const QString& outLabel, const QString& outNote, QString& outDir,
                         const std::function<std::string(const std::string&)>& command,
                         const QString& commandNote) {
    auto* out = new QLineEdit(outDir, &dlg_);
    auto* browse = new QPushButton("…", &dlg_);
    auto* outRow = new QHBoxLayout;
    outRow->addWidget(out, 1);
    outRow->addWidget(browse);
    form_->addRow(outLabel, outRow);
    if (!outNote.isEmpty()) form_->addRow(new QLabel(outNote, &dlg_));
    auto* cmd = new QPlainTextEdit(QString::fromStdString(command(outDir.toStdString())), &dlg_);
    cmd->setReadOnly(true);
    cmd->setMaximumHeight(90);
    form_->addRow("equivalent command", cmd);
    QObject::connect(out, &QLineEdit::textChanged, cmd, [cmd, command](const QString& d) {
        cmd->setPlainText(QString::fromStdString(command(d.toStdString())));
    });
    if (!commandNote.isEmpty()) {
        auto* note = new QLabel(commandNote, &dlg_);
        note->setWordWrap(true);
        form_->addRow(note);
    }
    QObject::connect(browse, &QPushButton::clicked, &dlg_, [this, out, outLabel] {
        const QString d = QFileDialog::getExistingDirectory(&dlg_, outLabel, out->text());
        if (!d.isEmpty()) out->setText(d);
    });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dlg_);
    buttons->button(QDialogButtonBox::Ok)->setText("Retrain");
    form_->addRow(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dlg_, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dlg_, &QDialog::reject);
    if (dlg_.exec() != QDialog::Accepted || out->text().isEmpty()) return false;
    outDir = out->text();
    return true;
}

} // namespace prunescope::gui
