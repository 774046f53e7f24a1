// Writing dependency parses as CoNLL-U or dep-sample files (core/dep/DepWriter.h).
#include "core/dep/DepWriter.h"

#include "core/util/AtomicFile.h"
#include "core/util/Error.h"

#include <filesystem>
#include <stdexcept>
#include <string_view>

namespace prunescope {

namespace {

void checkHeads(const DepSentence& s, const std::vector<int>& heads) {
    const int n = s.size();
    if (static_cast<int>(heads.size()) != n + 1)
        throw std::invalid_argument("dependency writer: " + std::to_string(heads.size()) +
                                    " heads for a sentence of " + std::to_string(n) + " tokens");
    for (int m = 1; m <= n; ++m) {
        const int h = heads[static_cast<std::size_t>(m)];
        if (h < 0 || h > n || h == m)
            throw std::invalid_argument("dependency writer: head " + std::to_string(h) +
                                        " of token " + std::to_string(m) + " is not a head");
    }
}

// A token line (its id an integer) rewritten: HEAD = head, DEPREL = DEPS = "_".
void appendTokenLine(std::string& out, std::string_view line, int head) {
    std::size_t start = 0;
    for (int column = 0; column < 10; ++column) {
        const std::size_t tab = line.find('\t', start);
        const std::string_view field = line.substr(
            start, tab == std::string_view::npos ? std::string_view::npos : tab - start);
        if (column > 0) out += '\t';
        if (column == 6)
            out += std::to_string(head);
        else if (column == 7 || column == 8)
            out += '_';
        else
            out += field;
        if (tab == std::string_view::npos) break;
        start = tab + 1;
    }
    out += '\n';
}

bool isTokenLine(std::string_view line) {
    if (line.empty() || line[0] == '#') return false;
    const std::string_view id = line.substr(0, line.find('\t'));
    return id.find_first_not_of("0123456789") == std::string_view::npos && !id.empty();
}

} // namespace

DepOutputFormat depOutputFormatOf(const std::string& path) {
    const std::string ext = std::filesystem::path(path).extension().string();
    if (ext == ".conllu") return DepOutputFormat::ConllU;
    if (ext == ".dp") return DepOutputFormat::DepSample;
    throw InputError(path, 0, 0,
                     "cannot tell the output format from the name: use .conllu (CoNLL-U) or .dp "
                     "(word TAB POS TAB head)");
}

std::string conlluText(const DepSentence& s, const std::vector<int>& heads) {
    checkHeads(s, heads);
    std::string out;
    if (!s.conllu.empty()) {
        int m = 0;
        std::size_t pos = 0;
        while (pos <= s.conllu.size()) {
            std::size_t nl = s.conllu.find('\n', pos);
            if (nl == std::string::npos) nl = s.conllu.size();
            const std::string_view line(s.conllu.data() + pos, nl - pos);
            if (isTokenLine(line) && m < s.size()) {
                appendTokenLine(out, line, heads[static_cast<std::size_t>(++m)]);
            } else {
                out += line;
                out += '\n';
            }
            pos = nl + 1;
        }
        if (m != s.size())
            throw std::invalid_argument("dependency writer: the sentence's CoNLL-U lines hold " +
                                        std::to_string(m) + " tokens, not " +
                                        std::to_string(s.size()));
    } else {
        for (int m = 1; m <= s.size(); ++m) {
            const auto i = static_cast<std::size_t>(m);
            const std::string& upos = s.upos[i].empty() ? std::string("_") : s.upos[i];
            out += std::to_string(m) + '\t' + s.words[i] + "\t_\t" + upos + '\t' + s.tags[i] +
                   "\t_\t" + std::to_string(heads[i]) + "\t_\t_\t_\n";
        }
    }
    out += '\n';
    return out;
}

std::string depSampleText(const DepSentence& s, const std::vector<int>& heads) {
    checkHeads(s, heads);
    std::string out;
    for (int m = 1; m <= s.size(); ++m) {
        const auto i = static_cast<std::size_t>(m);
        out += s.words[i] + '\t' + s.tags[i] + '\t' + std::to_string(heads[i]) + '\n';
    }
    out += '\n';
    return out;
}

void writeDepParses(const std::string& path, const std::vector<DepSentence>& sentences,
                    const std::vector<std::vector<int>>& heads) {
    if (sentences.size() != heads.size())
        throw std::invalid_argument("writeDepParses: " + std::to_string(sentences.size()) +
                                    " sentences but " + std::to_string(heads.size()) + " parses");
    const DepOutputFormat format = depOutputFormatOf(path);
    std::string text;
    for (std::size_t i = 0; i < sentences.size(); ++i)
        text += format == DepOutputFormat::ConllU ? conlluText(sentences[i], heads[i])
                                                  : depSampleText(sentences[i], heads[i]);
    writeFileAtomically(path, text);
}

} // namespace prunescope
