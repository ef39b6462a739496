// `cuvet rules push` and `cuvet rules pull`: the rules as a signed OCI
// artifact (docs/rules-bundle.md). Parsing and printing only.
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/core/printable.hpp"
#include "cuvet/rules_bundle/bundle.hpp"

namespace cuvet::cli {
namespace {

struct RegistryArgs {
    std::string username;
    bool password_stdin = false;
    bool insecure = false;
    unsigned timeout = 900;

    void add_to(CLI::App& command) {
        command.add_option("--username", username, "registry user name (with --password-stdin)");
        command.add_flag("--password-stdin", password_stdin,
                         "read the registry password from stdin");
        command.add_flag("--insecure", insecure,
                         "allow plain HTTP and unverified TLS to the registry");
        command.add_option("--timeout", timeout, "seconds one HTTP request may take (0: no limit)");
    }
    image::Access access() const {
        if (password_stdin && username.empty()) fail_usage("--password-stdin needs --username");
        if (!username.empty() && !password_stdin)
            fail_usage(
                "--username needs --password-stdin (a password on the command line would "
                "show in ps)");
        image::Access out;
        out.username = username;
        out.insecure = insecure;
        out.timeout_seconds = timeout;
        if (password_stdin) {
            std::getline(std::cin, out.password);
            if (!out.password.empty() && out.password.back() == '\r') out.password.pop_back();
        }
        return out;
    }
};

struct PushArgs {
    std::string dir;
    std::string reference;
    std::string key;
    std::optional<std::uint64_t> sequence;
    RegistryArgs registry;
};

struct PullArgs {
    std::string reference;
    std::vector<std::string> trust_keys;
    RegistryArgs registry;
};

int run_push(const PushArgs& args) {
    rules_bundle::PushOptions options;
    options.access = args.registry.access();
    options.private_key = args.key;
    options.sequence = args.sequence;
    auto result = rules_bundle::push_bundle(args.dir, args.reference, options);
    std::cout << "pushed rules bundle " << result.version.sequence << " (" << result.version.created
              << ", " << result.tables << " tables) to " << printable(args.reference) << "@"
              << result.manifest_digest << ", signed by " << result.key_id << "\n";
    return 0;
}

int run_pull(const PullArgs& args) {
    rules_bundle::PullOptions options;
    options.access = args.registry.access();
    for (const auto& key : args.trust_keys) options.trust_keys.emplace_back(key);
    auto result = rules_bundle::pull_bundle(args.reference, options);
    std::cout << (result.already_cached ? "already cached: rules bundle " : "pulled rules bundle ")
              << result.version.sequence << " (" << result.version.created << ") from "
              << printable(args.reference) << "@" << result.manifest_digest << ", signed by "
              << result.key_id << "; cached in " << printable(result.cached_at.string())
              << "; validate and lint use it\n";
    return 0;
}

}  // namespace

void add_rules_bundle_commands(CLI::App& rules, Dispatch& dispatch) {
    auto push = std::make_shared<PushArgs>();
    CLI::App* push_command = rules.add_subcommand(
        "push", "sign a rules directory with an Ed25519 key and push it as an OCI artifact");
    push_command->add_option("DIR", push->dir, "directory with every rules/*.json table")
        ->required();
    push_command->add_option("REF", push->reference, "registry reference: HOST/REPO:TAG")
        ->required();
    push_command->add_option("--key", push->key, "Ed25519 private key (PEM) to sign with")
        ->required();
    push_command->add_option("--sequence", push->sequence,
                             "the bundle's sequence number (default: now, in Unix seconds); "
                             "pull refuses a lower one than it has");
    push->registry.add_to(*push_command);
    push_command->callback(
        [push, &dispatch] { dispatch.run = [push] { return run_push(*push); }; });

    auto pull = std::make_shared<PullArgs>();
    CLI::App* pull_command = rules.add_subcommand(
        "pull", "fetch a rules bundle, verify its digests, signature and version, and cache it");
    pull_command
        ->add_option("REF", pull->reference, "registry reference: HOST/REPO:TAG or @sha256:…")
        ->required();
    pull_command->add_option("--trust-key", pull->trust_keys,
                             "also trust this Ed25519 public key (PEM); repeatable");
    pull->registry.add_to(*pull_command);
    pull_command->callback(
        [pull, &dispatch] { dispatch.run = [pull] { return run_pull(*pull); }; });
}

}  // namespace cuvet::cli
