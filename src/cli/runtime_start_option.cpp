// --runtime-start, shared by validate (the loader model) and probe (the live run).
#include "commands.hpp"

namespace cuvet::cli {

void add_runtime_start_option(CLI::App& command, bool& nvidia_start) {
    command
        .add_option_function<std::string>(
            "--runtime-start",
            [&nvidia_start](const std::string& value) { nvidia_start = value == "nvidia"; },
            "how the container starts: nvidia (default: the NVIDIA container toolkit injects the "
            "driver and runs "
            "ldconfig over the image's ld.so.conf) or none (the image's /etc/ld.so.cache as it is)")
        ->check(CLI::IsMember({"nvidia", "none"}))
        ->default_str("nvidia");
}

}  // namespace cuvet::cli
