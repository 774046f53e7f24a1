// Eq. 4 regret decomposition bars (Vieira & Eisner 2017, sec. 7.3): see RegretBars.h.
#include "widgets/RegretBars.h"

#include "widgets/ImageExport.h"

#include <algorithm>

namespace prunescope::widgets {

namespace {
const QColor kGold(31, 119, 180), kNonGold(214, 39, 40);
const char* kPanelTitles[3] = {"p(class | diff)", "E[regret | diff, class]",
                               "contribution to E[regret]"};
} // namespace

RegretBars::RegretBars(QWidget* parent) : QCustomPlot(parent) {
    setMinimumSize(480, 260);
    setRegret({});
}

std::pair<double, double> RegretBars::panelValues(int panel) const {
    const auto& d = data_;
    switch (panel) {
    case 0:
        return {d.pGoldGivenDiff, d.pNonGoldGivenDiff};
    case 1:
        return {d.regretGivenDiffGold, d.regretGivenDiffNonGold};
    default:
        return {d.pDiff * d.pGoldGivenDiff * d.regretGivenDiffGold,
                d.pDiff * d.pNonGoldGivenDiff * d.regretGivenDiffNonGold};
    }
}

void RegretBars::setRegret(const RegretBarsData& d) {
    data_ = d;
    clearPlottables();
    clearItems();
    plotLayout()->clear();
    auto* title = new QCPTextElement(this,
                                     QString("%1E[regret] = p(diff) \u00b7 \u03a3 p(class|diff) "
                                             "E[regret|diff,class] = %2 \u00b7 (\u2026) = %3"
                                             "   (%4 states, %5 gold)")
                                         .arg(d.title.isEmpty() ? QString() : d.title + "\n")
                                         .arg(d.pDiff, 0, 'f', 4)
                                         .arg(d.meanRegret, 0, 'g', 4)
                                         .arg(d.states, 0, 'f', 0)
                                         .arg(d.gold, 0, 'f', 0),
                                     QFont(font().family(), 9));
    plotLayout()->addElement(0, 0, title);
    auto* row = new QCPLayoutGrid;
    plotLayout()->addElement(1, 0, row);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTick(1, "gold");
    ticker->addTick(2, "non-gold");
    for (int panel = 0; panel < 3; ++panel) {
        auto* rect = new QCPAxisRect(this);
        row->addElement(0, panel, rect);
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        QCPAxis* y = rect->axis(QCPAxis::atLeft);
        x->setTicker(ticker);
        x->setRange(0.4, 2.6);
        x->setLabel(kPanelTitles[panel]);
        x->grid()->setVisible(false);
        const auto [g, ng] = panelValues(panel);
        const double top = std::max({g, ng, 1e-12});
        y->setRange(0, panel == 0 ? 1.05 : top * 1.2);
        for (int c = 0; c < 2; ++c) {
            auto* bars = new QCPBars(x, y);
            const QColor col = c == 0 ? kGold : kNonGold;
            bars->setPen(QPen(col.darker(120)));
            bars->setBrush(QColor(col.red(), col.green(), col.blue(), 170));
            bars->setWidth(0.6);
            const double v = c == 0 ? g : ng;
            bars->addData(c + 1, v);
            auto* label = new QCPItemText(this);
            label->setClipAxisRect(rect);
            label->position->setAxes(x, y);
            label->position->setCoords(c + 1, v);
            label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            label->setText(QString::number(v, 'g', 3));
            label->setFont(QFont(font().family(), 8));
        }
    }
    replot();
}

bool RegretBars::saveImage(const QString& path, int width, int height, QString* error) {
    return savePlotImage(this, path, width, height, error);
}

} // namespace prunescope::widgets
