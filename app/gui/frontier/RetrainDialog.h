// The "Retrain this point…" dialogs' shared form (Vieira & Eisner 2017, sec. 7): the recorded
// settings as read-only rows, the output folder with a browse button, the equivalent command kept
// in step with it, and Retrain / Cancel. Used for baseline points and LOLS iterations alike.
#pragma once
#include <QDialog>
#include <QString>

#include <functional>
#include <string>

class QFormLayout;

namespace prunescope::gui {

class RetrainDialog {
  public:
    // `intro` is the first line, above the settings.
    RetrainDialog(QWidget* parent, const QString& pointId, const QString& intro);
    // One recorded setting, selectable and wrapping.
    void row(const QString& name, const QString& value);
    // Shows the dialog with the output row (`outLabel`, `outNote` under it when not empty), the
    // equivalent command (`command` of the output folder; `commandNote` under it when not empty).
    // True with `outDir` set when the user pressed Retrain with a folder.
    bool exec(const QString& outLabel, const QString& outNote, QString& outDir,
              const std::function<std::string(const std::string&)>& command,
              const QString& commandNote);

  private:
    QDialog dlg_;
    QFormLayout* form_ = nullptr;
};

} // namespace prunescope::gui
