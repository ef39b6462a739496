// The assignments an entrypoint script surely makes before exec (the
// environment its workload gets), and the ones it only may make.
#include "validate/script_exports.hpp"

#include <catch2/catch.hpp>

using cuvet::validate::top_level_exports;

namespace {

std::map<std::string, std::string> after(const std::string& script,
                                         std::map<std::string, std::string> env = {}) {
    top_level_exports(script, env);
    return env;
}

}  // namespace

TEST_CASE("script exports: top-level exports and re-assigned environment variables count",
          "[validate][roots]") {
    auto env = after(
        "#!/bin/bash\n"
        "export CUDA_HOME=/usr/local/cuda A=1\n"
        "LD_LIBRARY_PATH=$CUDA_HOME/lib64:$LD_LIBRARY_PATH\n"
        "local_only=/tmp\n"
        "export PATH=\"$CUDA_HOME/bin:$PATH\" \\\n"
        "    MODEL=/models\n",
        {{"LD_LIBRARY_PATH", "/opt/x"}, {"PATH", "/usr/bin"}});
    CHECK(env["CUDA_HOME"] == "/usr/local/cuda");
    CHECK(env["A"] == "1");
    CHECK(env["LD_LIBRARY_PATH"] == "/usr/local/cuda/lib64:/opt/x");
    CHECK(env["PATH"] == "/usr/local/cuda/bin:/usr/bin");
    CHECK(env["MODEL"] == "/models");
    CHECK(env.count("local_only") == 0);  // not exported: the workload never sees it
}

TEST_CASE("script exports: what runs only sometimes, or after exec, or from a command, does not",
          "[validate][roots]") {
    auto env = after(
        "#!/bin/sh\n"
        "if [ -d /opt/compat ]; then\n"
        "  export LD_LIBRARY_PATH=/opt/compat\n"
        "fi\n"
        "case \"$1\" in\n"
        "  serve) export MODE=serve ;;\n"
        "esac\n"
        "setup() {\n"
        "  export IN_FUNCTION=1\n"
        "}\n"
        "for d in /a /b; do export LOOP=$d; done\n"
        "export GIT_REV=$(cat /rev)\n"
        "export KEPT=yes\n"
        "exec \"$@\"\n"
        "export AFTER_EXEC=1\n");
    CHECK(env.count("LD_LIBRARY_PATH") == 0);
    CHECK(env.count("MODE") == 0);
    CHECK(env.count("IN_FUNCTION") == 0);
    CHECK(env.count("LOOP") == 0);
    CHECK(env.count("GIT_REV") == 0);
    CHECK(env.count("AFTER_EXEC") == 0);
    CHECK(env["KEPT"] == "yes");
}
