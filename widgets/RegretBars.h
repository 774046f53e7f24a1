#pragma once
// The eq. 4 decomposition of the gold oracle's regret (Vieira & Eisner 2017, sec. 7.3) as grouped
// bars, gold vs non-gold spans: p(class | diff), E[regret | diff, class] and each class's
// contribution p(diff) p(class | diff) E[regret | diff, class] to the mean regret, one panel each
// (their scales differ), with the numbers written on the bars.
#include <qcustomplot.h>

namespace prunescope::widgets {

struct RegretBarsData {
    double states = 0, gold = 0; // weighted state counts (all, gold)
    double pDiff = 0;            // p(diff): the oracles disagree
    double pGoldGivenDiff = 0, pNonGoldGivenDiff = 0;
    double regretGivenDiffGold = 0, regretGivenDiffNonGold = 0;
    double meanRegret = 0;
    QString title;
};

class RegretBars : public QCustomPlot {
    Q_OBJECT
  public:
    explicit RegretBars(QWidget* parent = nullptr);
    void setRegret(const RegretBarsData& d);
    const RegretBarsData& regret() const { return data_; }
    // The three values per class shown, in panel order (for tests): {gold, non-gold}.
    std::pair<double, double> panelValues(int panel) const;
    // PNG or PDF by extension, written atomically (ImageExport.h); false with *error on failure.
    bool saveImage(const QString& path, int width = 0, int height = 0, QString* error = nullptr);

  private:
    RegretBarsData data_;
};

} // namespace prunescope::widgets
