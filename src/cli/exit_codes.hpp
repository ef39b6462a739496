#pragma once
// The stable exit codes CI pipelines gate on (README, "Exit codes").
#include "cuvet/core/error.hpp"

namespace cuvet::cli {

inline constexpr int exit_ok = 0;
inline constexpr int exit_findings = 1;
inline constexpr int exit_usage = 2;
inline constexpr int exit_bad_input = 3;
inline constexpr int exit_internal = 4;
inline constexpr int exit_untrusted = 5;  // a rules bundle refused (docs/rules-bundle.md)

inline int exit_code_for(ErrorKind kind) {
    switch (kind) {
        case ErrorKind::usage:
            return exit_usage;
        case ErrorKind::input:
        case ErrorKind::io:
            return exit_bad_input;
        case ErrorKind::internal:
            return exit_internal;
    }
    return exit_internal;
}

}  // namespace cuvet::cli
