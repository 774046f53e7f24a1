// Policies that must not load or train (issue 19): a weight that overflows float (1e300 was
// checked as a double, stored as inf and pruned everything), integers that wrap, a training
// objective that is not finite (L-BFGS never set its best point and an empty vector was read),
// and a span of features that could outlive its SentenceFeatures.
#include "core/policy/LogisticRegression.h"
#include "core/policy/Policy.h"
#include "core/policy/SpanFeatures.h"
#include "core/util/Error.h"
#include "support/InputErrors.h"

#include "support/TestSuite.h"

#include <limits>

using namespace prunescope;

namespace {

// The span API is offered on lvalues only: a span into a temporary does not compile.
template <class T>
concept FeaturesCallable = requires(T&& f) {
    std::forward<T>(f).features(0, 1);
};
static_assert(FeaturesCallable<const SentenceFeatures&>);
static_assert(!FeaturesCallable<SentenceFeatures&&>);
static_assert(!FeaturesCallable<SentenceFeatures>);

std::string policyText(const std::string& value, const std::string& version = "1") {
    return "{\n  \"format\": \"prunescope-policy\",\n  \"version\": " + version +
           ",\n  \"threshold\": 0.5,\n"
           "  \"meta\": {\"featureSetVersion\": 1, \"hashBits\": 22, \"training\": {}, \"lambda\": "
           "null,\n"
           "           \"lambdaUnit\": \"\", \"devMetrics\": {}, \"grammar\": \"\", \"name\": "
           "\"p\", \"kind\": \"baseline\"},\n"
           "  \"weights\": {\"index\": [3, 17],\n              \"value\": [0.5, " +
           value + "]}\n}\n";
}

InputError policyLoadError(const std::string& text) {
    return testdata::inputErrorOf([&] { policyFromJson(text, "p.json"); });
}

} // namespace

class TestPolicyRobust : public QObject {
    Q_OBJECT
  private slots:
    void weightsMustFitAFloat() {
        for (const char* big : {"1e300", "-1e300", "3.5e38"}) {
            const InputError e = policyLoadError(policyText(big));
            QCOMPARE(e.file(), std::string("p.json"));
            QCOMPARE(e.line(), 8); // at the offending value
            QCOMPARE(e.column(), 30);
            QVERIFY2(std::string(e.what()).find("outside the float range") != std::string::npos,
                     e.what());
        }
        const Policy p = policyFromJson(policyText("3.4e38"), "p.json");
        QCOMPARE(p.weights[17], 3.4e38f);
        QVERIFY(p.weights.allFinite());
        // The writer's own text for -FLT_MAX is above FLT_MAX as a double, yet rounds to it.
        const Policy q = policyFromJson(policyText("-3.4028235e+38"), "p.json");
        QCOMPARE(q.weights[17], -std::numeric_limits<float>::max());
    }
    void errorsAreLocated() {
        const InputError e =
            policyLoadError(policyText("0.1", "4294967297")); // was read as version 1
        QCOMPARE(e.line(), 3);
        QVERIFY2(std::string(e.what()).find("'version' must be an integer") != std::string::npos,
                 e.what());
        const InputError m = policyLoadError(policyText("\"x\""));
        QCOMPARE(m.line(), 8);
        QVERIFY2(std::string(m.what()).find("weights.value[1] is not a finite number") !=
                     std::string::npos,
                 m.what());
    }
    void nonFiniteObjectiveStopsTraining() {
        std::vector<WeightedExample> data;
        for (int e = 0; e < 8; ++e)
            data.push_back({{1, 2, 3, std::uint32_t(10 + e)}, e % 2, 1e300});
        LogRegOptions opt;
        opt.rescaleWeights = false;
        Eigen::VectorXf init = Eigen::VectorXf::Constant(kFeatureDim, 3e38f);
        try {
            trainLogisticRegression(data, opt, &init);
            QFAIL("trained on an infinite objective");
        } catch (const std::runtime_error& e) {
            QVERIFY2(std::string(e.what()).find("not finite") != std::string::npos, e.what());
        }
        // The same data from zero weights and rescaled weights trains normally.
        opt.rescaleWeights = true;
        const LogRegResult r = trainLogisticRegression(data, opt);
        QVERIFY(std::isfinite(r.objective));
        QVERIFY(r.weights.allFinite());
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestPolicyRobust)
#include "test_policy_robust.moc"
