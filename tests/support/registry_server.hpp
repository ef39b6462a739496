#pragma once
// A real docker-registry (Debian's distribution 2.x) on 127.0.0.1 with a
// config the test chooses: plain HTTP or TLS with a CA made here, htpasswd
// basic auth, or token auth against a token service the test runs. Images
// are pushed into it with skopeo.
#include <sys/types.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "support/http_test_server.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace cuvet::test {

struct RegistryServerOptions {
    bool tls = false;
    std::string user;  // with password: htpasswd basic auth, or the token service's account
    std::string password;
    bool token_auth = false;  // Bearer tokens from a token service inside the test
    // The host name the registry's challenge gives for the token service (it
    // listens on 127.0.0.1 either way): "localhost" makes it another host.
    std::string token_realm_host = "127.0.0.1";
};

class RegistryServer {
public:
    // docker-registry, skopeo and openssl are all needed; tests SKIP without them.
    static bool available();
    explicit RegistryServer(RegistryServerOptions options = {});
    ~RegistryServer();
    RegistryServer(const RegistryServer&) = delete;
    RegistryServer& operator=(const RegistryServer&) = delete;

    int port() const { return port_; }
    std::string host() const { return "127.0.0.1:" + std::to_string(port_); }
    // "docker://127.0.0.1:PORT/<repository>"
    std::string url(const std::string& repository) const {
        return "docker://" + host() + "/" + repository;
    }
    const std::filesystem::path& ca_file() const { return ca_file_; }  // TLS only
    // skopeo copy [--all] SOURCE docker://HOST/DESTINATION
    ProcessResult push(const std::string& source, const std::string& destination,
                       bool all = false) const;
    // Where the registry keeps a blob's bytes, for damaging them on purpose.
    std::filesystem::path blob_data(const std::string& digest) const;
    void kill();
    // Token requests that carried an Authorization header (token auth only).
    int token_requests_with_credentials() const { return *credentialed_; }

private:
    void make_tls();
    void start_token_service();
    std::string signed_token() const;

    RegistryServerOptions options_;
    TempDir dir_;
    int port_ = 0;
    pid_t pid_ = -1;
    std::filesystem::path ca_file_;
    std::unique_ptr<HttpTestServer> token_service_;
    std::shared_ptr<std::atomic<int>> credentialed_ = std::make_shared<std::atomic<int>>(0);
};

}  // namespace cuvet::test
