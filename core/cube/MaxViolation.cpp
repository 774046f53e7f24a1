// maxv, s-max and the p-max frontier (MaxViolation.h).
#include "core/cube/MaxViolation.h"

#include <stdexcept>

namespace prunescope {

namespace {
void checkIndex(const std::vector<ViolationNode>& nodes, int i) {
    if (i < 0 || i >= static_cast<int>(nodes.size()))
        throw std::invalid_argument("max-violation: node index out of range");
}
} // namespace

std::vector<int> maxViolationNodes(const std::vector<ViolationNode>& nodes, int root) {
    checkIndex(nodes, root);
    std::vector<int> maxv(nodes.size(), -1);
    // Iterative post-order: a node is finished after its children.
    std::vector<std::pair<int, bool>> stack{{root, false}};
    std::vector<char> onPath(nodes.size(), 0);
    while (!stack.empty()) {
        auto [v, expanded] = stack.back();
        stack.pop_back();
        const ViolationNode& node = nodes[static_cast<std::size_t>(v)];
        if (!expanded) {
            if (onPath[static_cast<std::size_t>(v)])
                throw std::invalid_argument("max-violation: the nodes form a cycle");
            onPath[static_cast<std::size_t>(v)] = 1;
            stack.push_back({v, true});
            for (auto it = node.children.rbegin(); it != node.children.rend(); ++it) {
                checkIndex(nodes, *it);
                stack.push_back({*it, false});
            }
            continue;
        }
        onPath[static_cast<std::size_t>(v)] = 0;
        int best = v;
        for (const int c : node.children) {
            const int cm = maxv[static_cast<std::size_t>(c)];
            const ViolationNode &a = nodes[static_cast<std::size_t>(cm)],
                                &b = nodes[static_cast<std::size_t>(best)];
            // strict: ties keep v itself, then the earlier child
            if (a.violation > b.violation ||
                (a.violation == b.violation && a.differs && !b.differs))
                best = cm;
        }
        maxv[static_cast<std::size_t>(v)] = best;
    }
    return maxv;
}

int singleMaxViolation(const std::vector<ViolationNode>& nodes, int root) {
    return maxViolationNodes(nodes, root)[static_cast<std::size_t>(root)];
}

std::vector<int> maxViolationFrontier(const std::vector<ViolationNode>& nodes, int root) {
    const std::vector<int> maxv = maxViolationNodes(nodes, root);
    std::vector<int> frontier;
    std::vector<int> stack{root};
    while (!stack.empty()) {
        const int v = stack.back();
        stack.pop_back();
        const ViolationNode& node = nodes[static_cast<std::size_t>(v)];
        if (maxv[static_cast<std::size_t>(v)] == v || node.children.empty()) {
            frontier.push_back(v);
            continue;
        }
        for (auto it = node.children.rbegin(); it != node.children.rend(); ++it)
            stack.push_back(*it);
    }
    return frontier;
}

} // namespace prunescope
