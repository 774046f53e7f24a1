// The dependency view's pruning stages (DepExplorerPanel.h): where they come from (the model's own
// first-order max-marginal pass, arc filters of Cherry & Bergsma 2011, vine cascades of Rush &
// Petrov 2012) and the row of α sliders above the views.
#include "app/gui/dep/DepExplorerPanel.h"

#include "core/filters/ArcFilterFile.h"
#include "core/filters/FilterStage.h"
#include "core/vine/VineCascade.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>

#include <cmath>

namespace prunescope::gui {

void DepExplorerPanel::rebuildStageBox() {
    while (QLayoutItem* it = stageLayout_->takeAt(0)) {
        if (it->widget()) { // the check box may be the sender of this rebuild: delete later, hide
                            // now
            it->widget()->hide();
            it->widget()->deleteLater();
        }
        delete it;
    }
    sliders_.clear();
    alphaLabels_.clear();
    sliderStage_.clear();
    mmCheck_ = nullptr;
    const DepStageSet* set = session_.stages();
    const bool ownPass = !base_ || base_->names == std::vector<std::string>{"max-marginal"};
    if (ownPass) {
        mmCheck_ = new QCheckBox(tr("prune by the model's first-order max-marginals"));
        mmCheck_->setChecked(base_ != nullptr);
        mmCheck_->setToolTip(tr("Keep an arc when its max-marginal > α·best + (1−α)·mean, or = "
                                "best (Rush & Petrov 2012); off = exhaustive"));
        connect(mmCheck_, &QCheckBox::toggled, this,
                [this](bool on) { setModelMaxMarginalStage(on, 0.5); });
        stageLayout_->addWidget(mmCheck_);
    }
    if (set) {
        for (std::size_t k = 0; k < set->names.size(); ++k) {
            if (k == 0 && activeFilter_ >= 0) { // the filter runs at its file's threshold
                const LoadedFilter& lf = filters_[static_cast<std::size_t>(activeFilter_)];
                auto* l = new QLabel(tr("filter %1 (%2, threshold %3)")
                                         .arg(QFileInfo(lf.path).fileName(),
                                              QString::fromUtf8(arcFilterKindName(lf.filter->kind)))
                                         .arg(lf.filter->threshold, 0, 'g', 4));
                l->setToolTip(tr("Arc filter (Cherry & Bergsma 2011): filters arc a iff max over "
                                 "Z_a of w·Φ(z) − w·Φ(None_a) > threshold"));
                stageLayout_->addWidget(l);
                continue;
            }
            auto* name = new QLabel(tr("α %1").arg(QString::fromStdString(set->names[k])));
            auto* slider = new QSlider(Qt::Horizontal);
            slider->setRange(0, kAlphaSteps);
            slider->setValue(static_cast<int>(std::lround(session_.alphas()[k] * kAlphaSteps)));
            slider->setMinimumWidth(160);
            slider->setAccessibleName(
                tr("alpha of stage %1").arg(QString::fromStdString(set->names[k])));
            slider->setToolTip(tr("Threshold t = α·max + (1−α)·mean of the stage's max-marginals; "
                                  "higher α prunes more"));
            auto* value = new QLabel(QString::number(session_.alphas()[k], 'f', 2));
            value->setMinimumWidth(34);
            const int stage = static_cast<int>(k);
            connect(slider, &QSlider::valueChanged, this, [this, stage, value](int v) {
                value->setText(QString::number(static_cast<double>(v) / kAlphaSteps, 'f', 2));
                session_.setAlpha(stage, static_cast<double>(v) / kAlphaSteps);
                recompute();
            });
            stageLayout_->addWidget(name);
            stageLayout_->addWidget(slider);
            stageLayout_->addWidget(value);
            sliders_ << slider;
            alphaLabels_ << value;
            sliderStage_ << stage;
        }
    }
    auto* src = new QLabel(set ? tr("stages from %1").arg(QString::fromStdString(set->source))
                               : tr("no stages: every arc reaches the exact parse"));
    src->setStyleSheet("color: gray");
    stageLayout_->addWidget(src);
    stageLayout_->addStretch(1);
}

bool DepExplorerPanel::openModel(const QString& path, QString* error) {
    try {
        auto m = std::make_shared<const DepModel>(loadDepModel(path.toStdString()));
        modelPath_ = path;
        const bool ownPass = base_ && base_->names == std::vector<std::string>{"max-marginal"};
        const double alpha = ownPass ? session_.alphas().back() : 0.5;
        session_.setModel(m);
        if (ownPass) base_ = std::make_shared<const DepStageSet>(modelMaxMarginalStages(m, alpha));
        applyStages();
        return true;
    } catch (const std::exception& e) {
        return openFailed(path, e, tr("The previous model is kept."), error);
    }
}

void DepExplorerPanel::setModelMaxMarginalStage(bool on, double alpha) {
    if (on && !session_.model()) return;
    base_ =
        on ? std::make_shared<const DepStageSet>(modelMaxMarginalStages(session_.modelPtr(), alpha))
           : nullptr;
    applyStages();
}

void DepExplorerPanel::setStageSet(std::shared_ptr<const DepStageSet> stages) {
    base_ = std::move(stages);
    applyStages();
}

void DepExplorerPanel::applyStages() {
    if (activeFilter_ < 0) {
        session_.setStages(base_);
    } else {
        const LoadedFilter& lf = filters_[static_cast<std::size_t>(activeFilter_)];
        auto set = std::make_shared<DepStageSet>();
        set->source = lf.path.toStdString() + (base_ ? " + " + base_->source : std::string());
        set->names = {"filter"};
        set->alphas = {
            lf.filter->threshold}; // shown, not tuned: the stage uses the file's threshold
        if (base_) {
            set->names.insert(set->names.end(), base_->names.begin(), base_->names.end());
            set->alphas.insert(set->alphas.end(), base_->alphas.begin(), base_->alphas.end());
        }
        set->append = [f = lf.filter, base = base_](DepPipeline& p, std::span<const double> a) {
            p.addStage(arcFilterStage(f));
            if (base) base->append(p, a.subspan(1));
        };
        session_.setStages(std::move(set));
    }
    rebuildStageBox();
    recompute();
}

bool DepExplorerPanel::openFilter(const QString& path, QString* error) {
    try {
        auto f = std::make_shared<const ArcFilter>(loadArcFilter(path.toStdString()));
        filters_.push_back({path, std::move(f)});
        if (filters_.size() > 2) filters_.erase(filters_.begin());
        filterBox_->clear();
        filterBox_->addItem(tr("no filter"));
        for (std::size_t i = 0; i < filters_.size(); ++i)
            filterBox_->addItem(
                tr("%1: %2").arg(i == 0 ? "A" : "B", QFileInfo(filters_[i].path).fileName()));
        setActiveFilter(static_cast<int>(filters_.size()) - 1);
        return true;
    } catch (const std::exception& e) {
        return openFailed(path, e, tr("The previous filters are kept."), error);
    }
}

void DepExplorerPanel::setActiveFilter(int index) {
    activeFilter_ = index >= 0 && index < static_cast<int>(filters_.size()) ? index : -1;
    filterBox_->setCurrentIndex(activeFilter_ + 1);
    applyStages();
}

bool DepExplorerPanel::openCascade(const QString& path, QString* error) {
    try {
        auto c = std::make_shared<const VineCascade>(loadVineCascade(path.toStdString()));
        if (!c->finalModelResolved.empty() &&
            QFileInfo::exists(QString::fromStdString(c->finalModelResolved)) &&
            (!session_.model() || modelPath_.isEmpty()) &&
            !openModel(QString::fromStdString(c->finalModelResolved), error))
            return false;
        auto set = std::make_shared<DepStageSet>();
        set->source = path.toStdString();
        for (const auto& st : c->stages) // the tree-constrained vine says so on its slider
            set->names.push_back(st.kind == CascadeStageKind::Vine &&
                                         st.structure == VineStructure::Tree
                                     ? st.name + " (tree)"
                                     : st.name);
        set->alphas = c->alphas;
        set->append = [c](DepPipeline& p, std::span<const double> a) {
            appendCascadeStages(p, *c, a);
        };
        setStageSet(std::move(set));
        return true;
    } catch (const std::exception& e) {
        return openFailed(path, e, tr("The previous stages are kept."), error);
    }
}

} // namespace prunescope::gui
