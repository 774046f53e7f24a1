#pragma once
// Signatures for rare and unseen words ("UNK-..." classes in the style of the Berkeley parser).
// The exact scheme is documented in docs/treebank.md; it is deterministic and ASCII-based
// (bytes >= 0x80 count as "other" characters).
#include <functional>
#include <string>

namespace prunescope {

// "UNK" followed by, in this order:
//  capitalization: -ALLCAPS (>= 2 letters, all upper case) | -INITC (capitalized, position 0)
//                  | -CAPS (capitalized later in the sentence, or upper-case letters after a
//                  non-letter first character) | -LC (has a lower-case letter);
//  digits:         -ALLNUM (only digits and . , : / - with at least one digit) | -NUM (has a
//  digit); dash:           -DASH (contains '-'); suffix:         -s (plural-like "s" ending) or the
//  first of ness ment able ible ing ion ity ous ive
//                  ful est ish ed er ly al ic y that ends the lower-cased word (words of >= 5 chars
//                  without a dash, not mixing digits and capitals).
std::string unknownSignature(const std::string& word, int position /*0-based index in sentence*/);

// Same, and for a capitalized sentence-initial word whose lower-cased form satisfies
// isKnownLowercase appends "-KNOWNLC" after "-INITC" (e.g. "The" -> "UNK-INITC-KNOWNLC").
std::string unknownSignature(const std::string& word, int position,
                             const std::function<bool(const std::string&)>& isKnownLowercase);

} // namespace prunescope
