#include "widgets/TreeView.h"

#include "widgets/ColorMap.h"

#include <QEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace prunescope::widgets {
namespace {
constexpr double kLevelH = 30;
constexpr double kHeader = 26;
constexpr double kPad = 10;
constexpr double kShrinkScale = 0.7; // a wide tree shrinks to this before it scrolls sideways
constexpr double kMinScale = 0.45;   // a tall tree shrinks to this before it scrolls vertically too
// Level height and header grow with the font (the presentation font size).
double levelHeight(const QFont& f) {
    return std::max(kLevelH, QFontMetricsF(f).height() * 1.9);
}
double headerHeight(const QFont& f) {
    return std::max(kHeader, QFontMetricsF(f).height() + 10);
}
} // namespace

TreeView::TreeView(QWidget* parent) : QWidget(parent) {
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    setAccessibleName(tr("Parse tree"));
}

void TreeView::setTitle(const QString& title) {
    title_ = title;
    update();
}

void TreeView::setTree(const Tree& tree) {
    if (message_.isEmpty() && tree == tree_) return; // each flip sends the gold tree again
    tree_ = tree;
    forest_.clear();
    message_.clear();
    note_.clear();
    relayoutContent();
}

void TreeView::setMessage(const QString& message) {
    if (!hasTree() && message == message_) return;
    tree_ = Tree{};
    forest_.clear();
    message_ = message;
    note_.clear();
    relayoutContent();
}

void TreeView::setForest(const std::vector<Tree>& fragments, const QString& note) {
    tree_ = Tree{};
    forest_ = fragments;
    message_.clear();
    note_ = note;
    relayoutContent();
}

void TreeView::setMatchSet(const std::vector<LabeledSpan>& brackets, bool enabled) {
    std::set<LabeledSpan> set(brackets.begin(), brackets.end());
    if (enabled == matchEnabled_ && set == matchSet_) return;
    matchSet_ = std::move(set);
    matchEnabled_ = enabled;
    updateMatches();
    update();
}

int TreeView::build(const Tree& t, int depth, int parent, int& leafIndex,
                    std::vector<double>& leafX) {
    int id = static_cast<int>(nodes_.size());
    nodes_.push_back(Node{QString::fromStdString(t.label), depth, leafIndex, leafIndex, 0, parent,
                          t.isLeaf(), t.isPreterminal(), false});
    maxDepth_ = std::max(maxDepth_, depth);
    if (t.isLeaf()) {
        nodes_[id].x = leafX[leafIndex];
        nodes_[id].end = ++leafIndex;
        return id;
    }
    double lo = 1e300, hi = -1e300;
    for (const Tree& c : t.children) {
        int cid = build(c, depth + 1, id, leafIndex, leafX);
        lo = std::min(lo, nodes_[cid].x);
        hi = std::max(hi, nodes_[cid].x);
    }
    nodes_[id].end = leafIndex;
    nodes_[id].x = (lo + hi) / 2;
    return id;
}

void TreeView::relayoutContent() {
    const double oldW = contentW_;
    const int oldDepth = maxDepth_;
    nodes_.clear();
    maxDepth_ = 0;
    contentW_ = 0;
    std::vector<const Tree*> roots;
    if (!tree_.label.empty()) roots.push_back(&tree_);
    for (const Tree& f : forest_)
        roots.push_back(&f);
    if (!roots.empty()) {
        QFontMetricsF fm(font());
        // Leaf slots: wide enough for the word and its tag.
        std::vector<double> leafX;
        double x = kPad;
        auto place = [&](auto&& self, const Tree& t, const Tree* parent) -> void {
            if (t.isLeaf()) {
                double w = fm.horizontalAdvance(QString::fromStdString(t.label));
                if (parent && parent->isPreterminal())
                    w = std::max(w, fm.horizontalAdvance(QString::fromStdString(parent->label)));
                w += 14;
                leafX.push_back(x + w / 2);
                x += w;
                return;
            }
            for (const Tree& c : t.children)
                self(self, c, &t);
        };
        for (const Tree* r : roots)
            place(place, *r, nullptr);
        contentW_ = x + kPad;
        int leaf = 0;
        for (const Tree* r : roots)
            build(*r, 0, -1, leaf, leafX);
    }
    updateMatches();
    // The size hints depend on the content's width and depth only (and on font and zoom, which
    // ask for a new geometry themselves): an unchanged size needs no new layout of the window.
    if (contentW_ != oldW || maxDepth_ != oldDepth) updateGeometry();
    update();
}

void TreeView::updateMatches() {
    matched_ = brackets_ = 0;
    for (Node& nd : nodes_) {
        nd.matched = false;
        if (nd.leaf || nd.preterminal || nd.label == "ROOT") continue;
        ++brackets_;
        nd.matched = matchEnabled_ &&
                     matchSet_.count(LabeledSpan{nd.label.toStdString(), nd.begin, nd.end}) != 0;
        if (nd.matched) ++matched_;
    }
}

// Levels come closer (down to 1.35 line heights) before the tree is scaled down to fit the height.
double TreeView::levelH() const {
    const double full = levelHeight(font()),
                 tight = std::min(full, QFontMetricsF(font()).height() * 1.35);
    if (height() <= 0) return full;
    const double fit = (height() / zoom_ - headerHeight(font()) - kPad - 2) / (maxDepth_ + 1);
    return std::clamp(fit, tight, full);
}

double TreeView::contentHeight() const {
    return headerHeight(font()) + (maxDepth_ + 1) * levelH() + kPad;
}

void TreeView::setZoom(double zoom) {
    zoom_ = std::max(1.0, zoom);
    updateGeometry();
    update();
}

double TreeView::heightScale() const {
    if (contentW_ <= 0) return zoom_;
    return std::clamp((height() - 2.0) / contentHeight(), kMinScale, zoom_);
}

double TreeView::drawScale() const {
    if (contentW_ <= 0) return zoom_;
    return std::clamp(std::min(width() / contentW_, (height() - 2.0) / contentHeight()), kMinScale,
                      zoom_);
}

QSize TreeView::sizeHint() const {
    const double fullHeight = headerHeight(font()) + (maxDepth_ + 1) * levelHeight(font()) + kPad;
    return QSize(static_cast<int>(std::max(300.0, contentW_ * zoom_)),
                 static_cast<int>(std::max(120.0, fullHeight * zoom_)));
}

// A tree fits its height (down to kMinScale) and shrinks to fit its width down to kShrinkScale; it
// asks for the width it then needs, so a long sentence scrolls sideways only.
QSize TreeView::minimumSizeHint() const {
    const double s = std::min(heightScale(), kShrinkScale * zoom_);
    return QSize(static_cast<int>(std::max(200.0, std::ceil(contentW_ * s))),
                 static_cast<int>(std::max(100.0, contentHeight() * kMinScale)));
}

void TreeView::resizeEvent(QResizeEvent*) {
    update();
}

void TreeView::changeEvent(QEvent* e) {
    if (e->type() == QEvent::FontChange) relayoutContent();
    QWidget::changeEvent(e);
}

void TreeView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    QFontMetricsF fm(font());
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().text().color());
    p.drawText(QRectF(kPad, 4, width() - 2 * kPad, headerHeight(font()) - 6),
               Qt::AlignLeft | Qt::AlignVCenter, title_);
    p.setFont(font());
    QStringList right;
    if (!note_.isEmpty()) right << note_;
    if (matchEnabled_ && brackets_ > 0)
        right << tr("%1 of %2 brackets match").arg(matched_).arg(brackets_);
    if (!right.isEmpty())
        p.drawText(QRectF(kPad, 4, width() - 2 * kPad, headerHeight(font()) - 6),
                   Qt::AlignRight | Qt::AlignVCenter, right.join(QStringLiteral(" · ")));
    if (nodes_.empty()) {
        p.setPen(palette().text().color());
        p.drawText(rect().adjusted(kPad, headerHeight(font()), -kPad, -kPad),
                   Qt::AlignCenter | Qt::TextWordWrap, message_);
        return;
    }
    const double scale = drawScale();
    double offX = std::max(0.0, (width() - contentW_ * scale) / 2);
    p.translate(offX, 0);
    p.scale(scale, scale);
    const double level = levelH();
    auto yOf = [&](const Node& nd) {
        return headerHeight(font()) + (nd.leaf ? maxDepth_ : nd.depth) * level + level / 2;
    };
    // Edges first.
    p.setPen(QPen(palette().mid().color(), 1.2));
    for (const Node& nd : nodes_)
        if (nd.parent >= 0) {
            const Node& par = nodes_[nd.parent];
            p.drawLine(QPointF(par.x, yOf(par) + fm.height() / 2),
                       QPointF(nd.x, yOf(nd) - fm.height() / 2));
        }
    QFont italic = font();
    italic.setItalic(true);
    for (const Node& nd : nodes_) {
        double w = fm.horizontalAdvance(nd.label) + 10, h = fm.height() + 4;
        QRectF box(nd.x - w / 2, yOf(nd) - h / 2, w, h);
        if (nd.leaf) {
            p.setFont(italic);
            p.setPen(palette().text().color());
            p.drawText(box, Qt::AlignCenter, nd.label);
            p.setFont(font());
            continue;
        }
        if (nd.preterminal || nd.label == "ROOT") {
            p.fillRect(box, palette().base());
            p.setPen(palette().placeholderText().color());
            p.drawText(box, Qt::AlignCenter, nd.label);
            continue;
        }
        if (nd.matched) {
            p.setPen(QPen(Qt::black, 1.4));
            p.setBrush(okabeito::kSkyBlue);
        } else {
            p.setPen(
                QPen(palette().text().color(), 1.2, matchEnabled_ ? Qt::DashLine : Qt::SolidLine));
            p.setBrush(palette().base());
        }
        p.drawRoundedRect(box, 4, 4);
        p.setPen(nd.matched ? Qt::black : palette().text().color());
        p.drawText(box, Qt::AlignCenter, nd.label);
    }
}

} // namespace prunescope::widgets
