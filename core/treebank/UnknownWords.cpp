// Unknown-word signatures for the PCFG lexicon (paper Section 6 "Parser details": Berkeley-style
// grammars; scheme after the Berkeley parser's English word signatures).
#include "core/treebank/UnknownWords.h"

#include <array>
#include <string_view>

namespace prunescope {
namespace {

bool isUpper(unsigned char c) {
    return c >= 'A' && c <= 'Z';
}
bool isLower(unsigned char c) {
    return c >= 'a' && c <= 'z';
}
bool isDigit(unsigned char c) {
    return c >= '0' && c <= '9';
}
bool isLetter(unsigned char c) {
    return isUpper(c) || isLower(c);
}
bool isNumberPunct(unsigned char c) {
    return c == '.' || c == ',' || c == ':' || c == '/' || c == '-';
}

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Checked in this order; the first match wins (longer endings before their own suffixes).
constexpr std::array<std::string_view, 18> kSuffixes = {
    "ness", "ment", "able", "ible", "ing", "ion", "ity", "ous", "ive",
    "ful",  "est",  "ish",  "ed",   "er",  "ly",  "al",  "ic",  "y"};

} // namespace

std::string unknownSignature(const std::string& word, int position,
                             const std::function<bool(const std::string&)>& isKnownLowercase) {
    int numCaps = 0, numLetters = 0, numDigits = 0;
    bool hasLower = false, hasDash = false, onlyNumberChars = !word.empty();
    std::string lowered;
    lowered.reserve(word.size());
    for (char ch : word) {
        const auto c = static_cast<unsigned char>(ch);
        if (isUpper(c)) ++numCaps;
        if (isLower(c)) hasLower = true;
        if (isLetter(c)) ++numLetters;
        if (isDigit(c)) ++numDigits;
        if (c == '-') hasDash = true;
        if (!isDigit(c) && !isNumberPunct(c)) onlyNumberChars = false;
        lowered += isUpper(c) ? static_cast<char>(c - 'A' + 'a') : ch;
    }
    const bool hasDigit = numDigits > 0;
    const auto first =
        word.empty() ? static_cast<unsigned char>(0) : static_cast<unsigned char>(word[0]);

    std::string sig = "UNK";
    if (isUpper(first)) {
        if (numLetters >= 2 && numCaps == numLetters) {
            sig += "-ALLCAPS";
        } else if (position == 0) {
            sig += "-INITC";
            if (isKnownLowercase && isKnownLowercase(lowered)) sig += "-KNOWNLC";
        } else {
            sig += "-CAPS";
        }
    } else if (!isLetter(first) && numCaps > 0) {
        sig += "-CAPS";
    } else if (hasLower) {
        sig += "-LC";
    }
    if (hasDigit) sig += (onlyNumberChars ? "-ALLNUM" : "-NUM");
    if (hasDash) sig += "-DASH";

    const std::size_t n = lowered.size();
    if (n >= 3 && lowered[n - 1] == 's' && lowered[n - 2] != 's' && lowered[n - 2] != 'i' &&
        lowered[n - 2] != 'u' && hasLower) {
        sig += "-s";
    } else if (n >= 5 && !hasDash && !(hasDigit && numCaps > 0)) {
        for (std::string_view suf : kSuffixes) {
            if (endsWith(lowered, suf)) {
                sig += '-';
                sig += suf;
                break;
            }
        }
    }
    return sig;
}

std::string unknownSignature(const std::string& word, int position) {
    return unknownSignature(word, position, {});
}

} // namespace prunescope
