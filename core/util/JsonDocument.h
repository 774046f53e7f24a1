#pragma once
// Parsing the text of a JSON file so that a syntax error names the file, line and column
// (InputError), shared by the policy, frontier.json and run-directory readers.
#include <nlohmann/json.hpp>

#include <string>
#include <utility>

namespace prunescope {

// Line and column (1-based) of byte offset pos (0-based) in text.
std::pair<int, int> lineColumn(const std::string& text, std::size_t pos);

// Parses text; on a syntax error throws InputError(file, line, column, prefix + "invalid JSON: …").
nlohmann::json parseJsonDocument(const std::string& text, const std::string& file, const std::string& prefix = "");

} // namespace prunescope
