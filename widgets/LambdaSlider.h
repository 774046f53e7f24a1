#pragma once
// A slider for the reward trade-off lambda >= 0 of accuracy - lambda * runtime (Vieira & Eisner
// 2017, sec. 2 eq. 1), on a log scale between two bounds, with an editable number next to it.
#include <QWidget>

class QDoubleSpinBox;
class QLabel;
class QSlider;

namespace prunescope::widgets {

class LambdaSlider : public QWidget {
    Q_OBJECT
  public:
    explicit LambdaSlider(QWidget* parent = nullptr);

    // Log-scale range of the slider (0 < lo < hi); values outside are still accepted by setLambda.
    void setRange(double lo, double hi);
    double lo() const { return lo_; }
    double hi() const { return hi_; }
    void setUnit(const QString& unit);

    double lambda() const { return lambda_; }
    void setLambda(double lambda); // emits lambdaChanged if it changed

    static constexpr int kSteps = 1000;
    static constexpr int kMinimumSliderWidth = 240; // px: a usable drag over 5 decades
    QSlider* slider() const { return slider_; }
    int positionFor(double lambda) const; // slider position showing lambda
    double lambdaAt(int position) const;  // lambda at a slider position

  signals:
    void lambdaChanged(double lambda);

  private:
    void sync();
    double lo_ = 1e-3, hi_ = 1e3, lambda_ = 1;
    bool syncing_ = false;
    QSlider* slider_ = nullptr;
    QDoubleSpinBox* box_ = nullptr;
    QLabel* unit_ = nullptr;
};

} // namespace prunescope::widgets
