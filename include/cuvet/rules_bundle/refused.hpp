#pragma once
// A rules bundle refused by a check of its digests, signature or version: an
// input error that the CLI ends with an exit code of its own (5), so that a
// job can tell "the bundle is not to be trusted" from "the registry is down".
#include <string>

#include "cuvet/core/error.hpp"

namespace cuvet::rules_bundle {

class BundleRefused : public Error {
public:
    explicit BundleRefused(const std::string& message) : Error(ErrorKind::input, message) {}
};

[[noreturn]] inline void refuse_bundle(const std::string& message) { throw BundleRefused(message); }

}  // namespace cuvet::rules_bundle
