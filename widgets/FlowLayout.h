#pragma once
// A layout that places its items left to right and wraps them onto the next line when the width
// runs out (Qt's "Flow Layout" example, reduced): the explorer's control and replay bars keep
// every control on-screen at 1024 px instead of forcing a window wider than a projector (issue
// 42). Its minimum width is that of its widest item; its height follows the width
// (heightForWidth), so the rows below it move down when it wraps.
#include <QLayout>
#include <QList>

namespace prunescope::widgets {

class FlowLayout : public QLayout {
  public:
    explicit FlowLayout(QWidget* parent = nullptr, int hSpacing = 6, int vSpacing = 4);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override { return static_cast<int>(items_.size()); }
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return doLayout(QRect(0, 0, width, 0), true); }
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

  private:
    // Places the items in rect (or only measures, testOnly) and returns the height used.
    int doLayout(const QRect& rect, bool testOnly) const;
    QList<QLayoutItem*> items_;
    int hSpace_, vSpace_;
};

} // namespace prunescope::widgets
