// Dependency sentences and tree checks.
#include "core/dep/DepTree.h"

#include <algorithm>
#include <stdexcept>

namespace prunescope {

void DepSentence::addToken(std::string word, std::string tag, int head, std::string coarse) {
    words.push_back(std::move(word));
    tags.push_back(std::move(tag));
    upos.push_back(std::move(coarse));
    heads.push_back(head);
}

bool DepSentence::hasTree() const {
    if (heads.size() != words.size() || size() == 0) return false;
    for (std::size_t m = 1; m < heads.size(); ++m)
        if (heads[m] < 0) return false;
    return true;
}

DepSentence makeDepSentence(const std::vector<std::string>& words,
                            const std::vector<std::string>& tags) {
    if (words.size() != tags.size())
        throw std::invalid_argument("makeDepSentence: " + std::to_string(words.size()) +
                                    " words but " + std::to_string(tags.size()) + " tags");
    DepSentence s;
    for (std::size_t i = 0; i < words.size(); ++i)
        s.addToken(words[i], tags[i]);
    return s;
}

std::string treeProblem(const std::vector<int>& heads) {
    const int n = static_cast<int>(heads.size()) - 1;
    if (n < 0) return "no root entry";
    for (int m = 1; m <= n; ++m) {
        const int h = heads[static_cast<std::size_t>(m)];
        if (h < 0 || h > n) return "head of token " + std::to_string(m) + " out of range";
        if (h == m) return "token " + std::to_string(m) + " is its own head";
    }
    // Walk up from every token; state 0 = unvisited, 1 = on the current path, 2 = reaches root.
    std::vector<char> state(heads.size(), 0);
    state[0] = 2;
    std::vector<int> path;
    for (int m = 1; m <= n; ++m) {
        path.clear();
        int x = m;
        while (state[static_cast<std::size_t>(x)] == 0) {
            state[static_cast<std::size_t>(x)] = 1;
            path.push_back(x);
            x = heads[static_cast<std::size_t>(x)];
        }
        if (state[static_cast<std::size_t>(x)] == 1) {
            std::string cycle = "cycle through tokens";
            const int start = x;
            do {
                cycle += " " + std::to_string(x);
                x = heads[static_cast<std::size_t>(x)];
            } while (x != start);
            return cycle;
        }
        for (int p : path)
            state[static_cast<std::size_t>(p)] = 2;
    }
    return "";
}

int rootCount(const std::vector<int>& heads) {
    int c = 0;
    for (std::size_t m = 1; m < heads.size(); ++m)
        c += heads[m] == 0;
    return c;
}

bool isProjective(const std::vector<int>& heads) {
    const int n = static_cast<int>(heads.size()) - 1;
    for (int m = 1; m <= n; ++m) {
        const int a = std::min(m, heads[static_cast<std::size_t>(m)]),
                  b = std::max(m, heads[static_cast<std::size_t>(m)]);
        for (int m2 = 1; m2 <= n; ++m2) {
            const int c = std::min(m2, heads[static_cast<std::size_t>(m2)]),
                      d = std::max(m2, heads[static_cast<std::size_t>(m2)]);
            if ((a < c && c < b && b < d) || (c < a && a < d && d < b)) return false;
        }
    }
    return true;
}

} // namespace prunescope
