// A file with one value's text replaced, and where its error points (InputErrors.h).
#include "support/InputErrors.h"

#include "core/util/AtomicFile.h"
#include "core/util/JsonDocument.h"

namespace prunescope::testdata {

std::string errorAtReplacedValue(const std::string& path, const std::string& pointer,
                                 const std::string& replacement, const std::string& message,
                                 const std::function<void(const std::string&)>& load) {
    const std::string original = readFile(path);
    const std::size_t at = jsonValueOffset(original, nlohmann::json::json_pointer(pointer));
    if (at == std::string::npos) return "no value at " + pointer;
    // A scalar's text ends at the next ',', '}', ']' or white space (no such strings here).
    const std::size_t end = original.find_first_of(",}] \n", at);
    std::string text = original;
    text.replace(at, end - at, replacement);
    writeFileAtomically(path, text);
    const InputError e = inputErrorOf([&] { load(path); });
    writeFileAtomically(path, original);
    const auto [line, column] = lineColumn(text, at);
    const std::string place = path + ":" + std::to_string(line) + ":" + std::to_string(column);
    const std::string what = e.what();
    if (e.file() != path || e.line() != line || e.column() != column ||
        what.rfind(place + ": ", 0) != 0)
        return pointer + " = " + replacement + ": expected an error at " + place + ", got: " + what;
    if (what.find(message) == std::string::npos)
        return pointer + " = " + replacement + ": no '" + message + "' in: " + what;
    return "";
}

} // namespace prunescope::testdata
