#include "support/registry_server.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace cuvet::test {
namespace {

namespace fs = std::filesystem;

ProcessResult must(const std::string& command) {
    auto result = run_shell(command);
    if (result.exit_code != 0) throw std::runtime_error(command + ": " + result.err);
    return result;
}

std::string base64url(const std::string& bytes) {
    static const char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string out;
    unsigned value = 0;
    int bits = 0;
    for (unsigned char c : bytes) {
        value = (value << 8) | c;
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out += table[(value >> bits) & 63];
        }
    }
    if (bits > 0) out += table[(value << (6 - bits)) & 63];
    return out;
}

}  // namespace

bool RegistryServer::available() {
    return have_program("docker-registry") && have_program("skopeo") && have_program("openssl") &&
           have_program("htpasswd");
}

RegistryServer::RegistryServer(RegistryServerOptions options) : options_(std::move(options)) {
    port_ = free_port();
    std::string config =
        "version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\nstorage:\n"
        "  filesystem:\n    rootdirectory: " +
        (dir_ / "storage").string() +
        "\n  delete:\n    enabled: true\nhttp:\n  addr: 127.0.0.1:" + std::to_string(port_) + "\n";
    if (options_.tls) {
        make_tls();
        config += "  tls:\n    certificate: " + (dir_ / "server.pem").string() +
                  "\n    key: " + (dir_ / "server.key").string() + "\n";
    }
    if (options_.token_auth) {
        start_token_service();
        config +=
            "auth:\n  token:\n    realm: http://" + options_.token_realm_host + ":" +
            std::to_string(token_service_->port()) +
            "/token\n    service: cuvet-registry\n    issuer: cuvet-test\n    rootcertbundle: " +
            (dir_ / "token.pem").string() + "\n";
    } else if (!options_.user.empty()) {
        must("htpasswd -Bbn " + shell_quote(options_.user) + " " + shell_quote(options_.password) +
             " > " + shell_quote((dir_ / "htpasswd").string()));
        config +=
            "auth:\n  htpasswd:\n    realm: cuvet-test\n    path: " + (dir_ / "htpasswd").string() +
            "\n";
    }
    write_file(dir_ / "config.yml", config);
    std::string log = (dir_ / "registry.log").string();
    std::string config_path = (dir_ / "config.yml").string();
    pid_ = fork();
    if (pid_ == 0) {
        int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1), dup2(fd, 2);
        execlp("docker-registry", "docker-registry", "serve", config_path.c_str(),
               static_cast<char*>(nullptr));
        _exit(127);
    }
    if (!wait_for_port(port_, 20)) {
        kill();
        throw std::runtime_error("docker-registry did not start: " + read_file(log));
    }
}

RegistryServer::~RegistryServer() { kill(); }

void RegistryServer::kill() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
}

void RegistryServer::make_tls() {
    const std::string d = shell_quote(dir_.path().string());
    must("cd " + d +
         " && openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=cuvet-test-ca "
         "-keyout ca.key -out ca.pem 2>/dev/null && "
         "openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout server.key -out "
         "server.csr 2>/dev/null && "
         "printf 'subjectAltName=IP:127.0.0.1\\nbasicConstraints=CA:FALSE\\n' > ext.cnf && "
         "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 "
         "-extfile ext.cnf "
         "-out server.pem 2>/dev/null");
    ca_file_ = dir_ / "ca.pem";
}

// A JWT the registry accepts: RS256, the signing certificate in x5c, and
// pull/push on every repository the tests use ("*" is not a wildcard in
// distribution's token checks, so names are listed).
std::string RegistryServer::signed_token() const {
    const std::string d = shell_quote(dir_.path().string());
    std::string der =
        must("cd " + d + " && openssl x509 -in token.pem -outform DER | base64 -w0").out;
    long now = static_cast<long>(std::chrono::duration_cast<std::chrono::seconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count());
    nlohmann::json header = {{"alg", "RS256"}, {"typ", "JWT"}, {"x5c", {der}}};
    nlohmann::json access = nlohmann::json::array();
    for (const char* repository : {"cuvet/test", "cuvet/multi", "cuvet/sample"})
        access.push_back(
            {{"type", "repository"}, {"name", repository}, {"actions", {"pull", "push"}}});
    nlohmann::json claims = {
        {"iss", "cuvet-test"}, {"sub", options_.user}, {"aud", "cuvet-registry"},
        {"exp", now + 3600},   {"nbf", now - 60},      {"iat", now - 60},
        {"jti", "1"},          {"access", access}};
    std::string signing_input = base64url(header.dump()) + "." + base64url(claims.dump());
    write_file(dir_ / "jwt.in", signing_input);
    std::string signature =
        must("cd " + d + " && openssl dgst -sha256 -sign token.key -binary jwt.in").out;
    return signing_input + "." + base64url(signature);
}

void RegistryServer::start_token_service() {
    must("cd " + shell_quote(dir_.path().string()) +
         " && openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=cuvet-token -keyout "
         "token.key "
         "-out token.pem 2>/dev/null");
    std::string token = signed_token();
    std::string expected = "Basic " + [&] {
        std::string pair = options_.user + ":" + options_.password;
        return must("printf %s " + shell_quote(pair) + " | base64 -w0").out;
    }();
    token_service_ = std::make_unique<HttpTestServer>(
        [token, expected, credentialed = credentialed_](const HttpRequestHead& request) {
            auto auth = request.headers.find("authorization");
            if (auth != request.headers.end()) ++*credentialed;
            if (auth == request.headers.end() || auth->second != expected) {
                HttpAction refuse;
                refuse.response = http_response(401, "{\"details\":\"bad credentials\"}");
                return refuse;
            }
            HttpAction grant;
            grant.response = http_response(200, nlohmann::json{{"token", token}}.dump(),
                                           {"Content-Type: application/json"});
            return grant;
        });
}

ProcessResult RegistryServer::push(const std::string& source, const std::string& destination,
                                   bool all) const {
    std::string command = "skopeo copy --quiet --dest-tls-verify=false";
    if (all) command += " --all";
    if (!options_.user.empty())
        command += " --dest-creds " + shell_quote(options_.user + ":" + options_.password);
    return run_shell(command + " " + shell_quote(source) + " " +
                     shell_quote("docker://" + host() + "/" + destination));
}

fs::path RegistryServer::blob_data(const std::string& digest) const {
    std::string hex = digest.substr(7);
    return dir_ / "storage/docker/registry/v2/blobs/sha256" / hex.substr(0, 2) / hex / "data";
}

}  // namespace cuvet::test
