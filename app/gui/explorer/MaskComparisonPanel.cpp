// View ▸ Compare Masks (see MaskComparisonPanel.h).
#include "app/gui/explorer/MaskComparisonPanel.h"

#include "widgets/ChartOverlay.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace prunescope::gui {
namespace {

constexpr MaskSourceKind kSources[] = {MaskSourceKind::Current, MaskSourceKind::Policy,
                                       MaskSourceKind::Gold, MaskSourceKind::KeepAll,
                                       MaskSourceKind::File};

// Okabe–Ito colours (distinct for colour-vision deficiencies), each with its own glyph; not black,
// which the heat map uses for gold outlines.
const widgets::OverlayClass kBoth{QString(), QColor(0xCC, 0x79, 0xA7), QStringLiteral("=")};
const widgets::OverlayClass kOnlyA{QString(), QColor(0xD5, 0x5E, 0x00), QStringLiteral("A")};
const widgets::OverlayClass kOnlyB{QString(), QColor(0x00, 0x72, 0xB2), QStringLiteral("B")};

QTableWidgetItem* cell(const QString& text) {
    auto* it = new QTableWidgetItem(text);
    it->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return it;
}

} // namespace

QString maskSourceName(MaskSourceKind k) {
    switch (k) {
    case MaskSourceKind::Current:
        return QObject::tr("current (hand-edited) mask");
    case MaskSourceKind::Policy:
        return QObject::tr("policy's mask");
    case MaskSourceKind::Gold:
        return QObject::tr("gold mask (gold tree's spans)");
    case MaskSourceKind::KeepAll:
        return QObject::tr("keep all");
    case MaskSourceKind::File:
        return QObject::tr("saved mask file…");
    }
    return {};
}

MaskComparisonPanel::MaskComparisonPanel(ExplorerPanel* explorer, QWidget* parent)
    : QDockWidget(tr("Compare Masks"), parent), ex_(explorer) {
    setObjectName("maskComparison");
    overlay_ = new widgets::ChartOverlay(ex_->heatMap());
    auto* body = new QWidget;
    auto* grid = new QGridLayout;
    for (int side = 0; side < 2; ++side) {
        box_[side] = new QComboBox;
        box_[side]->setObjectName(side == 0 ? "maskSourceA" : "maskSourceB");
        for (MaskSourceKind k : kSources)
            box_[side]->addItem(maskSourceName(k), static_cast<int>(k));
        box_[side]->setCurrentIndex(static_cast<int>(kind_[side]));
        fileLabel_[side] = new QLabel;
        auto* load = new QPushButton(tr("Mask File…"));
        load->setToolTip(tr("Compare with a mask saved by File ▸ Export Mask as JSON"));
        grid->addWidget(new QLabel(side == 0 ? tr("A:") : tr("B:")), side, 0);
        grid->addWidget(box_[side], side, 1);
        grid->addWidget(load, side, 2);
        grid->addWidget(fileLabel_[side], side, 3);
        connect(load, &QPushButton::clicked, this, [this, side] { chooseFile(side); });
        connect(box_[side], &QComboBox::activated, this, [this, side](int idx) {
            const auto k = static_cast<MaskSourceKind>(box_[side]->itemData(idx).toInt());
            if (k == MaskSourceKind::File && !fileMask_[side]) return chooseFile(side);
            setSource(side, k, file_[side]);
        });
    }
    grid->setColumnStretch(3, 1);
    overlayBox_ = new QCheckBox(tr("Overlay on the chart"));
    overlayBox_->setObjectName("comparisonOverlayBox");
    overlayBox_->setChecked(true);
    connect(overlayBox_, &QCheckBox::toggled, this, [this] { refresh(); });
    table_ = new QTableWidget(2, 3);
    table_->setObjectName("comparisonTable");
    table_->setHorizontalHeaderLabels({tr("F1 vs gold"), tr("Pushes"), tr("Spans kept")});
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    table_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Maximum);
    status_ = new QLabel;
    status_->setObjectName("comparisonStatus");
    status_->setWordWrap(true);
    auto* v = new QVBoxLayout(body);
    v->addLayout(grid);
    v->addWidget(overlayBox_);
    v->addWidget(table_);
    v->addWidget(status_);
    // Scrolls rather than making the window taller than a 768-px screen (issue 42: with the dock
    // open the main window's minimum height was 765).
    auto* scroll = new QScrollArea;
    scroll->setWidget(body);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setWidget(scroll);
    connect(ex_, &ExplorerPanel::sessionUpdated, this, [this] {
        if (isVisible()) refresh();
    });
    connect(this, &QDockWidget::visibilityChanged, this, [this](bool) { refresh(); });
}

void MaskComparisonPanel::chooseFile(int side) {
    const QString p =
        QFileDialog::getOpenFileName(this, tr("Open Mask"), QString(), tr("Masks (*.json)"));
    QString err;
    if (!p.isEmpty() && !setSource(side, MaskSourceKind::File, p, &err)) status_->setText(err);
    box_[side]->setCurrentIndex(static_cast<int>(kind_[side]));
}

bool MaskComparisonPanel::setSource(int side, MaskSourceKind kind, const QString& file,
                                    QString* error) {
    if (kind == MaskSourceKind::File && (file != file_[side] || !fileMask_[side])) {
        try {
            std::vector<PruningMask> masks = readMaskFile(file.toStdString());
            if (masks.size() != 1)
                throw std::invalid_argument(
                    file.toStdString() + ": holds " + std::to_string(masks.size()) +
                    " masks; the explorer compares one (File ▸ Export Mask as JSON writes one)");
            fileMask_[side] = masks.front();
            file_[side] = file;
        } catch (const std::exception& e) {
            if (error) *error = QString::fromStdString(e.what());
            return false;
        }
    }
    kind_[side] = kind;
    box_[side]->setCurrentIndex(static_cast<int>(kind));
    fileLabel_[side]->setText(kind == MaskSourceKind::File ? QFileInfo(file_[side]).fileName()
                                                           : QString());
    refresh();
    return true;
}

void MaskComparisonPanel::setOverlayVisible(bool on) {
    overlayBox_->setChecked(on);
}

std::optional<PruningMask> MaskComparisonPanel::maskOf(int side, QString* why) const {
    const SentenceSession* s = ex_ ? ex_->session() : nullptr;
    if (!s) return std::nullopt;
    switch (kind_[side]) {
    case MaskSourceKind::Current:
        return s->mask();
    case MaskSourceKind::Policy:
        return s->policyMask();
    case MaskSourceKind::KeepAll:
        return PruningMask::allKeep(s->length());
    case MaskSourceKind::Gold:
        if (!s->hasGold()) {
            *why = tr("This sentence has no gold tree (typed or plain text): no gold mask.");
            return std::nullopt;
        }
        return s->goldMask();
    case MaskSourceKind::File:
        if (!fileMask_[side]) {
            *why = tr("Choose a mask file.");
            return std::nullopt;
        }
        if (fileMask_[side]->n != s->length()) {
            *why = tr("The mask in %1 is for %2 words; this sentence has %3.")
                       .arg(QFileInfo(file_[side]).fileName())
                       .arg(fileMask_[side]->n)
                       .arg(s->length());
            return std::nullopt;
        }
        return *fileMask_[side];
    }
    return std::nullopt;
}

QString MaskComparisonPanel::sideName(int side) const {
    if (kind_[side] == MaskSourceKind::File) return QFileInfo(file_[side]).fileName();
    static const char* const kShort[] = {"current", "policy", "gold", "keep all", "file"};
    return tr(kShort[static_cast<int>(kind_[side])]);
}

void MaskComparisonPanel::refresh() {
    result_.reset();
    if (!ex_ || !overlay_) return;
    const SentenceSession* s = ex_->session();
    QString why;
    std::optional<PruningMask> a = s ? maskOf(0, &why) : std::nullopt;
    std::optional<PruningMask> b = s ? maskOf(1, &why) : std::nullopt;
    if (!isVisible() || !a || !b) {
        overlay_->clear();
        table_->clearContents();
        status_->setText(!s ? tr("Open a sentence to compare masks.") : why);
        return;
    }
    masks_[0] = *a;
    masks_[1] = *b;
    result_ = compareMasks(s->grammar(), s->words(), s->gold(), *a, *b);
    const MaskSpanSets& sets = result_->spans;
    for (int side = 0; side < 2; ++side) {
        const MaskParse& p = side == 0 ? result_->a : result_->b;
        table_->setVerticalHeaderItem(side, new QTableWidgetItem(QStringLiteral("%1: %2").arg(
                                                side == 0 ? "A" : "B", sideName(side))));
        table_->setItem(
            side, 0,
            cell(std::isnan(p.f1) ? QStringLiteral("—") : QString::number(100 * p.f1, 'f', 2)));
        table_->setItem(side, 1, cell(QString::number(p.stats.pushes)));
        table_->setItem(side, 2, cell(QString::number(p.stats.spansKept)));
    }
    status_->setText(
        tr("Of %1 prunable spans: kept by both %2, only by A %3, only by B %4, pruned by both %5.")
            .arg(PruningMask::prunableCount(s->length()))
            .arg(sets.intersection.size())
            .arg(sets.onlyA.size())
            .arg(sets.onlyB.size())
            .arg(sets.prunedByBoth));
    if (!overlayBox_->isChecked()) {
        overlay_->clear();
        return;
    }
    auto named = [](widgets::OverlayClass c, const QString& name) {
        c.name = name;
        return c;
    };
    // The change marks share the overlay's colours (vermilion = vanished, blue = rose): while the
    // comparison is drawn, it replaces them.
    ex_->heatMap()->clearChanges();
    overlay_->setTitle(tr("A = %1, B = %2").arg(sideName(0), sideName(1)));
    overlay_->setClasses({named(kBoth, tr("kept by A and B")), named(kOnlyA, tr("only A keeps")),
                          named(kOnlyB, tr("only B keeps"))});
    std::vector<widgets::OverlayCell> cells;
    const std::vector<std::pair<int, int>>* lists[] = {&sets.intersection, &sets.onlyA,
                                                       &sets.onlyB};
    for (int c = 0; c < 3; ++c)
        for (auto [i, k] : *lists[c])
            cells.push_back({i, k, c});
    overlay_->setCells(std::move(cells));
}

} // namespace prunescope::gui
