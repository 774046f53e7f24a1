#include "app/gui/window/DocumentLoader.h"

#include "core/grammar/GrammarFile.h"
#include "core/treebank/Normalize.h"
#include "core/treebank/TreebankReader.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace prunescope::gui {
namespace {

std::vector<SentenceItem> loadTreebank(const std::string& path, const Progress& progress) {
    std::vector<SentenceItem> out;
    for (Tree& gold : readNormalizedTreebank(path, 0, progress)) {
        auto words = gold.words();
        out.push_back({std::move(words), std::move(gold)});
    }
    if (out.empty()) throw InputError(path, 0, 0, "contains no trees");
    return out;
}

void loadJson(LoadResult& r, const std::string& path) {
    std::string text = readFile(path);
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_discarded() && j.is_object() && !j.contains("format") && j.contains("pruned")) {
        r.kind = FileKind::Mask;
        r.mask = masksFromJsonText(text, path).at(0); // InputError at file:line:column
        return;
    }
    r.kind = FileKind::Policy;
    r.policy = std::make_shared<const Policy>(policyFromJson(text, path));
}

} // namespace

QString fileKindName(FileKind k) {
    switch (k) {
    case FileKind::Grammar:
        return QObject::tr("grammar");
    case FileKind::Policy:
        return QObject::tr("policy");
    case FileKind::Treebank:
        return QObject::tr("treebank");
    case FileKind::Sentences:
        return QObject::tr("sentences");
    case FileKind::Mask:
        return QObject::tr("mask");
    }
    return {};
}

LoadResult loadFile(const QString& path, const Progress& progress) {
    LoadResult r;
    r.path = path;
    QFileInfo info(path);
    QString ext = info.suffix().toLower();
    std::string p = path.toStdString();
    try {
        if (!info.exists()) throw InputError(p, 0, 0, "no such file or directory");
        if (ext == "gram") {
            r.kind = FileKind::Grammar;
            r.grammar = std::make_shared<const Grammar>(loadGrammar(p));
        } else if (ext == "json") {
            loadJson(r, p);
        } else if (ext == "txt") {
            r.kind = FileKind::Sentences;
            for (auto& w : readSentencesFile(p))
                r.sentences.push_back({std::move(w), std::nullopt});
            if (r.sentences.empty()) throw InputError(p, 0, 0, "contains no sentences");
        } else {
            r.kind =
                FileKind::Treebank; // .mrg, .tree, .ptb, a directory of .mrg files, anything else
            r.sentences = loadTreebank(p, progress);
        }
        for (const auto& s : r.sentences)
            if (static_cast<int>(s.words.size()) > kMaxSentenceLength)
                throw InputError(p, 0, 0,
                                 "a sentence is longer than " + std::to_string(kMaxSentenceLength) +
                                     " words");
    } catch (const Cancelled&) {
        throw; // not an error of the file: the caller stopped the load
    } catch (const std::exception& e) {
        r.error = QString::fromStdString(e.what());
    }
    return r;
}

SentenceItem typedSentence(const QString& text) {
    SentenceItem s;
    for (const QString& t :
         text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts))
        s.words.push_back(t.toStdString());
    return s;
}

} // namespace prunescope::gui
