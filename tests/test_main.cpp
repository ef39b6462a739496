#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdlib>

#include "support/temp_dir.hpp"

// Every cuvet the tests start keeps its layer fact cache in a directory of
// this test process, never in the user's ~/.cache; tests that repeat a
// command on one image thereby run it with the cache as well.
int main(int argc, char* argv[]) {
    cuvet::test::TempDir cache_home;
    setenv("XDG_CACHE_HOME", cache_home.path().c_str(), 1);
    return Catch::Session().run(argc, argv);
}
