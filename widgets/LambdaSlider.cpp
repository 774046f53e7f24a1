// Log-scale lambda slider (Vieira & Eisner 2017, sec. 2): see LambdaSlider.h.
#include "widgets/LambdaSlider.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace prunescope::widgets {

LambdaSlider::LambdaSlider(QWidget* parent) : QWidget(parent) {
    // The slider has a row of its own (issue 42: beside the value box and the unit it was about
    // 75 px for lambda over 2.3 .. 1e5); the value and its unit are the row below.
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    auto* bottom = new QHBoxLayout;
    auto* name = new QLabel(QString::fromUtf8("\u03bb"), this);
    name->setToolTip("reward = accuracy - lambda * runtime");
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setRange(0, kSteps);
    slider_->setMinimumWidth(kMinimumSliderWidth);
    slider_->setAccessibleName("lambda (log scale)");
    slider_->setToolTip("lambda, log scale: drag to trade accuracy for speed");
    box_ = new QDoubleSpinBox(this);
    box_->setDecimals(8);
    box_->setRange(0, 1e12);
    box_->setAccessibleName("lambda value");
    box_->setMinimumWidth(110);
    unit_ = new QLabel(this);
    unit_->setStyleSheet("color: gray");
    top->addWidget(name);
    top->addWidget(slider_, 1);
    bottom->addWidget(box_);
    bottom->addWidget(unit_, 1);
    lay->addLayout(top);
    lay->addLayout(bottom);
    connect(slider_, &QSlider::valueChanged, this, [this](int v) {
        if (!syncing_) setLambda(lambdaAt(v));
    });
    connect(box_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (!syncing_) setLambda(v);
    });
    sync();
}

void LambdaSlider::setRange(double lo, double hi) {
    if (!(lo > 0) || !(hi > lo)) return;
    lo_ = lo;
    hi_ = hi;
    sync();
}

void LambdaSlider::setUnit(const QString& unit) {
    unit_->setText(unit);
}

int LambdaSlider::positionFor(double lambda) const {
    if (!(lambda > lo_)) return 0;
    if (lambda >= hi_) return kSteps;
    return static_cast<int>(std::lround(kSteps * std::log(lambda / lo_) / std::log(hi_ / lo_)));
}

double LambdaSlider::lambdaAt(int position) const {
    const double f = std::clamp(position, 0, kSteps) / static_cast<double>(kSteps);
    return lo_ * std::pow(hi_ / lo_, f);
}

void LambdaSlider::setLambda(double lambda) {
    if (!std::isfinite(lambda) || lambda < 0) return;
    const bool changed = lambda != lambda_;
    lambda_ = lambda;
    sync();
    if (changed) emit lambdaChanged(lambda_);
}

void LambdaSlider::sync() {
    syncing_ = true;
    slider_->setValue(positionFor(lambda_));
    // Enough significant digits for small lambdas (e.g. F1 per constituent).
    const int decimals =
        lambda_ > 0 ? std::clamp(4 - static_cast<int>(std::floor(std::log10(lambda_))), 2, 10) : 4;
    box_->setDecimals(decimals);
    box_->setSingleStep(std::pow(10.0, -decimals + 1));
    box_->setValue(lambda_);
    syncing_ = false;
}

} // namespace prunescope::widgets
