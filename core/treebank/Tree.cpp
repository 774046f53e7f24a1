#include "core/treebank/Tree.h"

namespace prunescope {
namespace {
void collectWords(const Tree& t, std::vector<std::string>& out) {
    if (t.isLeaf()) {
        out.push_back(t.label);
        return;
    }
    for (const auto& c : t.children)
        collectWords(c, out);
}
void collectTags(const Tree& t, std::vector<std::string>& out) {
    if (t.isLeaf()) return;
    if (t.isPreterminal()) {
        out.push_back(t.label);
        return;
    }
    for (const auto& c : t.children)
        collectTags(c, out);
}
void writeTree(const Tree& t, std::string& out) {
    if (t.isLeaf()) {
        out += t.label;
        return;
    }
    out += '(';
    out += t.label;
    for (const auto& c : t.children) {
        out += ' ';
        writeTree(c, out);
    }
    out += ')';
}
int collectSpans(const Tree& t, int begin, std::vector<LabeledSpan>& out) {
    if (t.isLeaf()) return begin + 1;
    std::size_t slot = out.size();
    out.push_back({t.label, begin, begin});
    int end = begin;
    for (const auto& c : t.children)
        end = collectSpans(c, end, out);
    out[slot].end = end;
    return end;
}
} // namespace

std::vector<std::string> Tree::words() const {
    std::vector<std::string> w;
    collectWords(*this, w);
    return w;
}
std::vector<std::string> Tree::tags() const {
    std::vector<std::string> w;
    collectTags(*this, w);
    return w;
}
int Tree::size() const {
    if (isLeaf()) return 1;
    int n = 0;
    for (const auto& c : children)
        n += c.size();
    return n;
}
std::string Tree::toString() const {
    std::string s;
    writeTree(*this, s);
    return s;
}
std::vector<LabeledSpan> labeledSpans(const Tree& t) {
    std::vector<LabeledSpan> out;
    collectSpans(t, 0, out);
    return out;
}

} // namespace prunescope
