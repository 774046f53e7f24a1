#pragma once
// The dialog that launches a background LOLS run (Vieira & Eisner 2017, sec. 4 Alg. 2, sec. 7):
// starting policy, lambda (preset from the selected frontier point), surrogate rCP or rDP,
// iterations, minibatch, threads, the L-BFGS caps per retraining, data and the output run
// directory. Prefill, lowest to highest precedence: the caller's defaults; the opened treebank,
// else the data folder's ptb-sample (PRUNESCOPE_DATA_DIR; fills the treebanks when the caller gave
// none); the last run's recorded settings (its config.json); the values this dialog had when it was
// last closed (QSettings group "lolsDialog"). The starting policy and lambda always come from the
// caller (the selected frontier point). The run directory is never prefilled with a used one: a
// taken name gets the next free "-N" suffix.
#include "app/gui/frontier/TrainingQueue.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace prunescope::gui {

struct LolsDialogDefaults {
    QStringList policies; // starting-policy choices (paths); the first is preselected
    QString grammar, train, dev, outDir;
    // lambda preset per surrogate, in its units (accuracy in [0,1] per constituent for rCP, per
    // kept span for rDP), converted from the frontier's lambda at the selected policy.
    double lambdaCp = 0.002, lambdaDp = 0.002;
    // The treebank opened in the explorer (a file or directory); empty: QSettings "lastSentences".
    QString treebank;
    // The last LOLS run directory; empty: the one this dialog last queued (QSettings).
    QString lastRunDir;
};

class LolsRunDialog : public QDialog {
    Q_OBJECT
  public:
    explicit LolsRunDialog(const LolsDialogDefaults& d, QWidget* parent = nullptr);
    LolsJobSpec spec() const;
    QString validate() const; // empty when the spec can be started; else what is missing
    // Non-empty (and shown in the dialog) when the training and dev treebanks are one file or
    // folder (through symlinks and ".."): a warning, the run may still be queued.
    QString sameDataWarning() const;
    void remember() const; // stores the current values (done() calls it on accept and cancel)
    // The "Classroom run" button: a schedule that finishes in well under a minute on two cores
    // and still evaluates on the frontier's whole dev set (rDP, 5 iterations of 40 sentences drawn
    // from the first 400 training sentences, L-BFGS capped at 50 then 5, dev: all within 40
    // words). The starting policy, data and run directory stay; λ is the selected point's in rDP
    // units.
    void applyClassroomPreset();
    void done(int r) override;

    // The first of dir, dir-2, dir-3, … that does not exist or is an empty directory.
    static QString freeRunDir(const QString& dir);

  private:
    void prefill(const LolsDialogDefaults& d);
    QComboBox *init_ = nullptr, *surrogate_ = nullptr;
    QLabel* sameData_ = nullptr;
    QLineEdit *grammar_ = nullptr, *train_ = nullptr, *dev_ = nullptr, *out_ = nullptr,
              *lambda_ = nullptr;
    QSpinBox *iterations_ = nullptr, *minibatch_ = nullptr, *threads_ = nullptr,
             *trainLimit_ = nullptr, *devLimit_ = nullptr, *maxLen_ = nullptr,
             *lbfgsMaxIterations_ = nullptr, *lbfgsAfterFirst_ = nullptr;
};

} // namespace prunescope::gui
