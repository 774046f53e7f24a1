#pragma once
// Loading the files the explorer works with: grammars, policies, treebanks (gold trees),
// plain sentence files and masks. Pure functions, safe to run on a worker thread.
#include "app/gui/explorer/SentenceSession.h"
#include "core/util/Progress.h"

#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace prunescope::gui {

enum class FileKind { Grammar, Policy, Treebank, Sentences, Mask };

struct LoadResult {
    FileKind kind = FileKind::Treebank;
    QString path;
    std::shared_ptr<const Grammar> grammar;
    std::shared_ptr<const Policy> policy;
    std::vector<SentenceItem> sentences;
    std::optional<PruningMask> mask;
    QString error; // non-empty: loading failed (the message names file:line:col when known)
    bool ok() const { return error.isEmpty(); }
};

// Decides the kind from the extension (.gram, .json, .mrg/.tree/.ptb or a directory, .txt) and,
// for JSON, from the content (a policy file or a mask). Errors go to LoadResult::error; the only
// exception is Cancelled, when `progress` is cancelled while a treebank is normalized.
LoadResult loadFile(const QString& path, const Progress& progress = {});

// Sentences typed by the user: whitespace tokens, no gold.
SentenceItem typedSentence(const QString& text);

QString fileKindName(FileKind k);

} // namespace prunescope::gui
