// Treebank normalization, paper Section 6 "Parser details", footnote 8.
#include "core/treebank/Normalize.h"

#include "core/treebank/Binarize.h"
#include "core/treebank/TreebankReader.h"

#include "core/util/Error.h"

#include <optional>

namespace prunescope {
namespace {

const std::string kRoot = "ROOT";
const std::string kNone = "-NONE-";

// The normalized label of a bracket; a label that is nothing but a function tag or co-index
// ("=2", "|X") would leave an unlabeled node that binarization cannot tell from a unary chain.
std::string normalizedLabelOf(const Tree& t) {
    std::string label = normalizeLabel(t.label);
    if (label.empty() && !t.label.empty())
        throw InputError("", 0, 0,
                         "label '" + t.label + "' is empty without its function tag or index");
    return label;
}

// Normalizes the subtree; std::nullopt when nothing but traces remains.
std::optional<Tree> normalizeNode(const Tree& t) {
    if (t.isLeaf()) return t;
    if (t.isPreterminal()) {
        if (t.label == kNone) return std::nullopt;
        return Tree{normalizedLabelOf(t), t.children};
    }
    Tree out{normalizedLabelOf(t), {}};
    out.children.reserve(t.children.size());
    for (const auto& c : t.children)
        if (auto n = normalizeNode(c)) out.children.push_back(std::move(*n));
    if (out.children.empty()) return std::nullopt;
    // Spurious unary X -> X: keep the lower node (its children are already normalized).
    if (out.children.size() == 1 && !out.children[0].isLeaf() &&
        out.children[0].label == out.label) {
        Tree child = std::move(out.children[0]);
        return child;
    }
    return out;
}

// Labels that binarization would misread: phrasal labels with '@', '+' or '^', tags starting with
// '@'.
void checkMarkers(const Tree& t) {
    if (t.isLeaf()) return;
    if (t.isPreterminal()) {
        if (!t.label.empty() && t.label[0] == kIntermediateMark)
            throw InputError("", 0, 0,
                             "POS tag '" + t.label + "' starts with the reserved marker '@'");
        return;
    }
    if (t.label.find_first_of("@+^") != std::string::npos)
        throw InputError("", 0, 0, "label '" + t.label + "' contains a reserved marker (@ + ^)");
    for (const auto& c : t.children)
        checkMarkers(c);
}

} // namespace

std::string normalizeLabel(const std::string& label) {
    if (label.empty() || label[0] == '-') return label;
    std::string s = label;
    // Function tags and co-indexes: NP-SBJ-1, NP=2, PP-LOC-CLR.
    if (auto cut = s.find_first_of("-="); cut != std::string::npos) s.resize(cut);
    // Alternative labels X|Y: keep X.
    if (auto bar = s.find('|'); bar != std::string::npos) s.resize(bar);
    if (s == "ADVP") s = "PRT";
    return s;
}

Tree normalizeTree(const Tree& t) {
    Tree root{kRoot, {}};
    if (t.label.empty() || t.label == kRoot) {
        for (const auto& c : t.children)
            if (auto n = normalizeNode(c)) root.children.push_back(std::move(*n));
    } else if (auto n = normalizeNode(t)) {
        root.children.push_back(std::move(*n));
    }
    // A wrapped "(ROOT ...)" or "( (ROOT ...) )" would give ROOT -> ROOT: keep one.
    while (root.children.size() == 1 && root.children[0].label == kRoot &&
           !root.children[0].isLeaf()) {
        Tree inner = std::move(root.children[0]);
        root = std::move(inner);
    }
    if (root.children.empty())
        throw InputError("", 0, 0, "tree is empty after normalization (it holds only traces)");
    if (root.isPreterminal())
        throw InputError("", 0, 0, "tree root holds a bare word, expected a bracketed subtree");
    checkMarkers(root);
    return root;
}

std::vector<Tree> readNormalizedTreebank(const std::string& path, std::size_t firstTrees,
                                         const Progress& progress,
                                         std::vector<TreeSource>* sourcesOut) {
    std::vector<TreeSource> sources;
    std::vector<Tree> raw = readTreebank(path, &sources);
    if (firstTrees > 0 && raw.size() > firstTrees) {
        raw.resize(firstTrees);
        sources.resize(firstTrees);
    }
    progress.begin("normalizing", static_cast<long>(raw.size()));
    std::vector<Tree> out;
    out.reserve(raw.size());
    for (std::size_t x = 0; x < raw.size(); ++x) {
        progress.throwIfCancelled();
        try {
            out.push_back(normalizeTree(raw[x]));
        } catch (const InputError& e) { // normalizeTree knows no file: name the tree's place
            std::string what = e.what();
            if (what.rfind("<input>: ", 0) == 0) what = what.substr(9);
            throw InputError(sources[x].file, sources[x].line, sources[x].column, what);
        }
        progress.advance();
    }
    if (sourcesOut) *sourcesOut = std::move(sources);
    return out;
}

} // namespace prunescope
