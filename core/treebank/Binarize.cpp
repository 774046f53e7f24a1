// Grammar binarization for the PCFG (paper Section 6 "Parser details": a left-binarized treebank
// grammar; "all algorithms allow unary rules (though not chains)", hence unary chains are
// collapsed).
#include "core/treebank/Binarize.h"

#include "core/util/Error.h"

#include <stdexcept>
#include <string_view>

namespace prunescope {
namespace {

bool isPhrasal(const Tree& t) {
    return !t.isLeaf() && !t.isPreterminal();
}
bool isIntermediate(const Tree& t) {
    return !t.isLeaf() && !t.label.empty() && t.label[0] == kIntermediateMark;
}

void checkLabel(const Tree& t) {
    if (t.isLeaf()) return;
    if (t.isPreterminal()) {
        if (!t.label.empty() && t.label[0] == kIntermediateMark)
            throw std::invalid_argument("binarize: POS label starts with '@': " + t.label);
        return;
    }
    if (t.label.find_first_of("@+^") != std::string::npos)
        throw std::invalid_argument("binarize: label contains a reserved marker (@ + ^): " +
                                    t.label);
}

class Binarizer {
  public:
    explicit Binarizer(const BinarizeOptions& opt) : opt_(opt) {}

    // Binarizes the subtree rooted at t, whose original parent has base label parentBase.
    Tree node(const Tree& t, const std::string& parentBase) const {
        checkLabel(t);
        if (!isPhrasal(t)) return t;
        // Collect the unary chain t -> n1 -> ... -> cur: every step goes to a phrasal child that is
        // itself unary (over a phrasal node or a preterminal).
        std::string chain = t.label;
        const Tree* cur = &t;
        while (cur->children.size() == 1 && isPhrasal(cur->children[0]) &&
               cur->children[0].children.size() == 1) {
            cur = &cur->children[0];
            checkLabel(*cur);
            chain += kChainMark;
            chain += cur->label;
        }
        std::string label = annotate(chain, parentBase);
        if (cur->children.size() >= 2) return nary(*cur, label); // only when cur == &t
        const Tree& child = cur->children[0];
        if (isPhrasal(child)) // the chain ends above an n-ary node Z
            return Tree{std::move(label), {nary(child, annotate(child.label, cur->label))}};
        return Tree{std::move(label), {child}}; // the chain ends above a preterminal
    }

    // t has >= 2 children; label is its (annotated) output label. Left-binarizes.
    Tree nary(const Tree& t, const std::string& label) const {
        checkLabel(t);
        const std::size_t k = t.children.size();
        std::vector<Tree> kids;
        kids.reserve(k);
        for (const auto& c : t.children)
            kids.push_back(node(c, t.label));
        if (k <= 2) return Tree{label, std::move(kids)};
        Tree acc{intermediateLabel(t, label, 2), {std::move(kids[0]), std::move(kids[1])}};
        for (std::size_t i = 2; i + 1 < k; ++i) {
            Tree next{intermediateLabel(t, label, i + 1), {}};
            next.children.reserve(2);
            next.children.push_back(std::move(acc));
            next.children.push_back(std::move(kids[i]));
            acc = std::move(next);
        }
        return Tree{label, {std::move(acc), std::move(kids[k - 1])}};
    }

    // Label of the '@' node covering the first `covered` children of t.
    std::string intermediateLabel(const Tree& t, const std::string& label,
                                  std::size_t covered) const {
        std::string s(1, kIntermediateMark);
        s += label;
        const int h = opt_.horizontalMarkov;
        if (h == 0) return s;
        std::size_t first = 0;
        if (h > 0 && covered > static_cast<std::size_t>(h))
            first = covered - static_cast<std::size_t>(h);
        s += kSiblingMark;
        for (std::size_t i = first; i < covered; ++i) {
            if (i > first) s += kSiblingSep;
            s += t.children[i].label;
        }
        return s;
    }

  private:
    std::string annotate(const std::string& base, const std::string& parentBase) const {
        if (!opt_.parentAnnotation) return base;
        return base + kParentMark + parentBase;
    }

    const BinarizeOptions& opt_;
};

void spliceChildren(const Tree& t, std::vector<Tree>& out);

Tree debinarizeNode(const Tree& t) {
    if (t.isLeaf() || t.isPreterminal()) return t;
    std::vector<Tree> kids;
    spliceChildren(t, kids);
    // Expand "X+Y+Z" (parts possibly "^"-annotated) into nested unaries, built bottom-up.
    const std::string base = stripAnnotation(t.label);
    std::size_t end = base.size();
    std::size_t plus = base.rfind(kChainMark);
    Tree cur{base.substr(plus == std::string::npos ? 0 : plus + 1), std::move(kids)};
    while (plus != std::string::npos && plus > 0) {
        end = plus;
        plus = base.rfind(kChainMark, end - 1);
        const std::size_t start = plus == std::string::npos ? 0 : plus + 1;
        Tree up{base.substr(start, end - start), {}};
        up.children.push_back(std::move(cur));
        cur = std::move(up);
    }
    return cur;
}

void spliceChildren(const Tree& t, std::vector<Tree>& out) {
    for (const auto& c : t.children) {
        if (isIntermediate(c))
            spliceChildren(c, out);
        else
            out.push_back(debinarizeNode(c));
    }
}

} // namespace

Tree binarize(const Tree& normalized, const BinarizeOptions& opt) {
    if (normalized.isLeaf() || normalized.isPreterminal())
        throw std::invalid_argument("binarize: root must be a phrasal node");
    Binarizer b(opt);
    const auto& kids = normalized.children;
    if (kids.size() == 1) return Tree{normalized.label, {b.node(kids[0], normalized.label)}};
    // An n-ary root stays unary over an '@' node that left-binarizes all its children.
    Tree inner = b.nary(normalized, normalized.label);
    inner.label = b.intermediateLabel(normalized, normalized.label, kids.size());
    return Tree{normalized.label, {std::move(inner)}};
}

Tree debinarize(const Tree& binarized) {
    if (binarized.isLeaf() || binarized.isPreterminal()) return binarized;
    Tree root{binarized.label, {}};
    spliceChildren(binarized, root.children);
    return root;
}

std::string stripAnnotation(const std::string& label) {
    std::string out;
    out.reserve(label.size());
    bool skipping = false;
    for (char c : label) {
        if (c == kChainMark)
            skipping = false;
        else if (c == kParentMark)
            skipping = true;
        if (!skipping) out += c;
    }
    return out;
}

std::string unbinarizedLabel(const std::string& label) {
    if (label.empty()) return label;
    std::string base = label;
    if (base[0] == kIntermediateMark) { // @X|siblings: the n-ary node X
        base.erase(0, 1);
        if (auto bar = base.find(kSiblingMark); bar != std::string::npos) base.resize(bar);
    }
    base = stripAnnotation(base);
    if (auto plus = base.find(kChainMark); plus != std::string::npos && plus > 0) base.resize(plus);
    return base.empty() ? label : base;
}

nlohmann::json toJson(const BinarizeOptions& opt) {
    return {{"horizontalMarkov", opt.horizontalMarkov}, {"parentAnnotation", opt.parentAnnotation}};
}

BinarizeOptions binarizeOptionsFromJson(const nlohmann::json& j) {
    BinarizeOptions o;
    if (!j.is_object()) throw InputError("", 0, 0, "binarize options: expected a JSON object");
    if (auto it = j.find("horizontalMarkov"); it != j.end()) {
        if (!it->is_number_integer())
            throw InputError("", 0, 0, "binarize options: horizontalMarkov must be an integer");
        o.horizontalMarkov = it->get<int>();
        if (o.horizontalMarkov < -1)
            throw InputError("", 0, 0, "binarize options: horizontalMarkov must be >= -1");
    }
    if (auto it = j.find("parentAnnotation"); it != j.end()) {
        if (!it->is_boolean())
            throw InputError("", 0, 0, "binarize options: parentAnnotation must be a boolean");
        o.parentAnnotation = it->get<bool>();
    }
    return o;
}

} // namespace prunescope
