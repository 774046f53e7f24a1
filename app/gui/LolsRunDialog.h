#pragma once
// The dialog that launches a background LOLS run (Vieira & Eisner 2017, sec. 4 Alg. 2, sec. 7):
// starting policy, lambda (preset from the selected frontier point), surrogate rCP or rDP,
// iterations, minibatch, threads, data and the output run directory.
#include "app/gui/TrainingQueue.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace prunescope::gui {

struct LolsDialogDefaults {
    QStringList policies;  // starting-policy choices (paths); the first is preselected
    QString grammar, train, dev, outDir;
    // lambda preset per surrogate, in its units (accuracy in [0,1] per constituent for rCP, per
    // kept span for rDP), converted from the frontier's lambda at the selected policy.
    double lambdaCp = 0.002, lambdaDp = 0.002;
};

class LolsRunDialog : public QDialog {
    Q_OBJECT
public:
    explicit LolsRunDialog(const LolsDialogDefaults& d, QWidget* parent = nullptr);
    LolsJobSpec spec() const;
    QString validate() const;  // empty when the spec can be started; else what is missing

private:
    QComboBox *init_ = nullptr, *surrogate_ = nullptr;
    QLineEdit *grammar_ = nullptr, *train_ = nullptr, *dev_ = nullptr, *out_ = nullptr, *lambda_ = nullptr;
    QSpinBox *iterations_ = nullptr, *minibatch_ = nullptr, *threads_ = nullptr, *trainLimit_ = nullptr,
             *devLimit_ = nullptr, *maxLen_ = nullptr;
};

} // namespace prunescope::gui
