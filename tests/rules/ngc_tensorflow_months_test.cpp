// TensorFlow months whose CUDA NVIDIA's DLProf release notes give: DLProf shipped in the
// TensorFlow 1.x/2.x containers of the same month and its notes print the containers' driver
// sentence. cuDNN and the TensorFlow versions stay unknown.
#include <catch2/catch.hpp>

#include "rules/rules_fixtures.hpp"

using namespace cuvet::test;

TEST_CASE("NGC TensorFlow 20.01-21.12 months from the DLProf release notes", "[rules][ngc]") {
    struct Expected {
        const char* release;
        const char* cuda;
        const char* branch;
    };
    const Expected rows[] = {{"20.01", "10.2.89", "440"}, {"20.02", "10.2.89", "440"},
                             {"20.11", "11.1.0", "455"},  {"21.03", "11.2.1", "460"},
                             {"21.07", "11.4.0", "470"},  {"21.09", "11.4.2", "470"},
                             {"21.11", "11.5.0", "495"},  {"21.12", "11.5.0", "495"}};
    for (const auto& e : rows) {
        INFO(e.release);
        const auto* tf = db().ngc_container("tensorflow", std::string(e.release) + "-tf2-py3");
        REQUIRE(tf);
        CHECK(tf->cuda->str() == e.cuda);
        CHECK(tf->min_driver_branch->str() == e.branch);
        CHECK_FALSE(tf->cudnn);
        CHECK(tf->framework_version.empty());
        CHECK(tf->provenance.confidence == "secondary");
    }
    // The -tf1-py3 tag of the same month is the same row.
    CHECK(db().ngc_container("tensorflow", "21.12-tf1-py3")->cuda->str() == "11.5.0");
    // 21.08: no DLProf or TensorFlow notes found; no row.
    CHECK_FALSE(db().ngc_container("tensorflow", "21.08"));
}
