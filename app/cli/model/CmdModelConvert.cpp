// prunescope-cli model convert: rewrites a dependency or cube model, vine cascade, arc filter or
// policy with its weights as binary blocks (what every writer writes) or as JSON arrays (readable,
// diffable); docs/file-formats.md "Binary weight blocks". The file is read and validated whole,
// so the copy has the same content bit for bit.
#include "app/cli/Commands.h"
#include "app/cli/Options.h"
#include "core/cube/CubeModel.h"
#include "core/dep/DepModel.h"
#include "core/filters/ArcFilterFile.h"
#include "core/policy/Policy.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"
#include "core/vine/VineCascade.h"

#include <filesystem>
#include <iostream>

namespace prunescope::cli {

namespace {

struct ConvertOptions {
    std::string input, out, weights = "binary";
    bool quiet = false;
};

// The vine cascade names its final model relative to its own folder: keep it pointing at the
// same file from the output's folder.
void moveCascade(const std::string& in, const std::string& out, WeightsForm form) {
    VineCascade c = loadVineCascade(in);
    namespace fs = std::filesystem;
    const fs::path outDir = fs::absolute(out).parent_path();
    if (!fs::path(c.finalModel).is_absolute())
        c.finalModel = fs::absolute(c.finalModelResolved).lexically_proximate(outDir).string();
    saveVineCascade(c, out, form);
}

int run(const ConvertOptions& o) {
    const WeightsForm form = o.weights == "json" ? WeightsForm::Json : WeightsForm::Binary;
    std::string text = readFile(o.input);
    const std::size_t inputBytes = text.size();
    std::string format;
    {
        const JsonDocument doc(text, o.input, "", 1, JsonDocument::Binary::Allowed);
        const nlohmann::json* f =
            doc.root().is_object() ? doc.optionalMember(doc.root(), "format") : nullptr;
        format = f && f->is_string() ? f->get<std::string>() : "";
    }
    if (format == kPolicyFormat)
        savePolicy(policyFromJson(std::move(text), o.input), o.out, form);
    else if (format == kDepModelFormat)
        saveDepModel(depModelFromText(std::move(text), o.input), o.out, form);
    else if (format == kCubeModelFormat)
        saveCubeModel(cubeModelFromText(std::move(text), o.input), o.out, form);
    else if (format == kArcFilterFormat)
        saveArcFilter(arcFilterFromText(std::move(text), o.input), o.out, form);
    else if (format == kVineCascadeFormat)
        moveCascade(o.input, o.out, form);
    else
        throw InputError(o.input, 0, 0,
                         "not a model, cascade, filter or policy file (its \"format\" is " +
                             (format.empty() ? std::string("missing") : "\"" + format + "\"") +
                             ")");
    if (!o.quiet)
        std::cout << "wrote " << o.out << ": " << format << ", weights as "
                  << (form == WeightsForm::Json ? "JSON arrays" : "binary blocks") << ", "
                  << std::filesystem::file_size(o.out) << " bytes (was " << inputBytes << ")\n";
    return 0;
}

} // namespace

void addModelConvertCommand(CLI::App& app) {
    addCommand<ConvertOptions>(
        app, "model-convert",
        "Rewrite a dependency or cube model, vine cascade, arc filter or policy with its weights "
        "as binary blocks (compact, loads at once; what every writer writes) or as JSON arrays "
        "(readable). The content is the same bit for bit.",
        [](CLI::App* sub, ConvertOptions& o) {
            sub->add_option("--input", o.input, "The model, cascade, filter or policy file")
                ->required();
            sub->add_option("--out", o.out, "Where to write the copy (atomically)")->required();
            sub->add_option("--weights", o.weights, "binary | json")
                ->check(CLI::IsMember({"binary", "json"}))
                ->capture_default_str();
            sub->add_flag("--quiet", o.quiet, "No summary line");
        },
        run);
}

} // namespace prunescope::cli
