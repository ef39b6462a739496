// Packages named to a project tool (pipenv install NAME, poetry add NAME, pdm add NAME) are
// installed as pip would install them; only the bare forms install an unreadable lock.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

namespace {

const std::string project_tool_base = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n";

std::size_t count_ids(const std::string& run, const char* id) {
    return lint_ids(project_tool_base + run + "\n", id).size();
}

}  // namespace

TEST_CASE("pipenv install NAME is read as the named package", "[lint][lint-project-tools]") {
    // unseen15 t21: pipenv install tensorflow --skip-lock, an unpinned framework.
    CHECK(count_ids("RUN pipenv install --skip-lock torch", "CUVL03") == 1);
    CHECK(count_ids("RUN pipenv install --skip-lock torch", "CUVL14") == 0);
    CHECK(count_ids("RUN pipenv install \"torch==2.4.1\"", "CUVL03") == 0);
    // The bare form and a requirements file stay unreadable installs.
    CHECK(count_ids("RUN pipenv install", "CUVL14") == 1);
    CHECK(count_ids("RUN pipenv install -r requirements.txt", "CUVL14") == 1);
}

TEST_CASE("poetry add and pdm add are read as the named packages", "[lint][lint-project-tools]") {
    CHECK(count_ids("RUN poetry add torch", "CUVL03") == 1);
    CHECK(count_ids("RUN poetry add --group gpu torch@^2.1.0", "CUVL03") == 1);
    CHECK(count_ids("RUN poetry add torch@2.1.0", "CUVL03") == 0);
    CHECK(count_ids("RUN poetry add torch@~2.1.0", "CUVL03") == 0);
    CHECK(count_ids("RUN pdm add torch", "CUVL03") == 1);
    CHECK(count_ids("RUN poetry install --no-root", "CUVL14") == 1);
}
