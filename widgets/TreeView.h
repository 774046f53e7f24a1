#pragma once
// A parse tree drawn top-down with the words along the bottom. Brackets that also occur in a
// comparison tree (e.g. predicted vs gold) are filled; unmatched ones have a dashed outline.
// Scales down to fit its height (to a limit) and asks for the width it then needs; setZoom scales
// both limits (ZoomArea, Ctrl + wheel), a font change relayouts (presentation font size).
#include "core/treebank/Tree.h"

#include <QWidget>

#include <set>
#include <vector>

namespace prunescope::widgets {

class TreeView : public QWidget {
    Q_OBJECT
  public:
    explicit TreeView(QWidget* parent = nullptr);

    void setTitle(const QString& title);
    void setTree(const Tree& tree);
    // Shows `message` (e.g. why there is no tree) instead of a tree.
    void setMessage(const QString& message);
    // A forest: the trees side by side over consecutive words, no common root (a partial parse,
    // core/parse/PartialParse.h), with `note` (e.g. "partial: 3 fragments") in the header.
    void setForest(const std::vector<Tree>& fragments, const QString& note);
    // Brackets (label, begin, end) of the comparison tree; preterminals and ROOT are never
    // highlighted.
    void setMatchSet(const std::vector<LabeledSpan>& brackets, bool enabled = true);
    const Tree& tree() const { return tree_; }
    bool hasTree() const { return !tree_.label.empty(); }
    const std::vector<Tree>& forest() const { return forest_; } // empty unless setForest
    QString note() const { return note_; }
    QString message() const { return message_; }
    int matchedCount() const { return matched_; }
    int bracketCount() const { return brackets_; }

    // The tree is drawn at the scale that fits its height and width, within [0.45, zoom]; it asks
    // for width so that the scale is at most 0.7 × zoom or the height's; zoom ≥ 1.
    void setZoom(double zoom);
    double zoom() const { return zoom_; }
    // The scale the tree is drawn at for the current size.
    double drawScale() const;
    double heightScale() const; // the scale that fits the current height

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void changeEvent(QEvent*) override;

  private:
    struct Node {
        QString label;
        int depth = 0, begin = 0, end = 0;
        double x = 0;
        int parent = -1;
        bool leaf = false, preterminal = false, matched = false;
    };
    int build(const Tree& t, int depth, int parent, int& leafIndex, std::vector<double>& leafX);
    void relayoutContent();
    void updateMatches();
    double contentWidth() const { return contentW_; }
    double contentHeight() const;
    double levelH() const;

    QString title_, message_, note_;
    Tree tree_;
    std::vector<Tree> forest_;
    std::vector<Node> nodes_;
    std::set<LabeledSpan> matchSet_;
    bool matchEnabled_ = false;
    int matched_ = 0, brackets_ = 0, maxDepth_ = 0;
    double contentW_ = 0;
    double zoom_ = 1;
};

} // namespace prunescope::widgets
