#include "support/headless_chromium.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

namespace cuvet::test {
namespace {

using nlohmann::json;

// Long enough for a cold start on a loaded 2-core machine, short enough that a browser that
// stopped answering fails the test instead of hanging it.
constexpr int answer_timeout_ms = 60'000;

std::string log_tail(const std::filesystem::path& log) {
    std::string text = std::filesystem::exists(log) ? read_file(log) : "";
    return text.size() > 2000 ? text.substr(text.size() - 2000) : text;
}

}  // namespace

HeadlessChromium::HeadlessChromium() {
    // A browser that died would otherwise end the test process at our next write.
    ::signal(SIGPIPE, SIG_IGN);
    int to_browser[2], from_browser[2];
    if (::pipe2(to_browser, O_CLOEXEC) != 0 || ::pipe2(from_browser, O_CLOEXEC) != 0)
        throw std::runtime_error("chromium: pipe failed");
    const std::string profile = "--user-data-dir=" + profile_.path().string();
    const std::string log = (profile_ / "chromium.log").string();
    // No network is needed or wanted: every host name resolves to nothing, and the browser's
    // own background traffic (updates, sync, first-run pages) is off. As root, no sandbox.
    // Shared memory in $TMPDIR: a CI container's /dev/shm (64 MB) crashes the renderer.
    std::vector<std::string> args = {"chromium",
                                     "--headless=new",
                                     "--no-sandbox",
                                     "--remote-debugging-pipe",
                                     profile,
                                     "--no-first-run",
                                     "--no-default-browser-check",
                                     "--disable-background-networking",
                                     "--disable-component-update",
                                     "--disable-sync",
                                     "--disable-extensions",
                                     "--disable-dev-shm-usage",
                                     "--host-resolver-rules=MAP * ~NOTFOUND",
                                     "--window-size=1280,900",
                                     "--hide-scrollbars",
                                     "about:blank"};
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    pid_ = ::fork();
    if (pid_ == 0) {
        // The protocol's fixed descriptors: the browser reads fd 3 and writes fd 4. Moved
        // above 10 first so that neither dup2 can overwrite the other's source.
        const int in = ::fcntl(to_browser[0], F_DUPFD_CLOEXEC, 10);
        const int out = ::fcntl(from_browser[1], F_DUPFD_CLOEXEC, 10);
        const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (in < 0 || out < 0 || log_fd < 0 || null_fd < 0 || ::dup2(in, 3) < 0 ||
            ::dup2(out, 4) < 0 || ::dup2(null_fd, 0) < 0 || ::dup2(log_fd, 1) < 0 ||
            ::dup2(log_fd, 2) < 0)
            ::_exit(127);
        ::execvp(argv[0], argv.data());
        ::_exit(127);
    }
    ::close(to_browser[0]);
    ::close(from_browser[1]);
    to_browser_ = to_browser[1];
    from_browser_ = from_browser[0];
    if (pid_ < 0) throw std::runtime_error("chromium: fork failed");
    try {
        call("Browser.getVersion", {}, false);
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string(e.what()) + "\n" + log_tail(log));
    }
}

HeadlessChromium::~HeadlessChromium() {
    if (pid_ > 0) {
        try {
            call("Browser.close", {}, false);
        } catch (const std::exception&) {
            // Already gone or not answering: the kill below ends it.
        }
    }
    if (to_browser_ >= 0) ::close(to_browser_);
    if (from_browser_ >= 0) ::close(from_browser_);
    if (pid_ <= 0) return;
    // Its profile folder is removed next: wait until nothing of it writes there.
    for (int i = 0; i < 500; ++i) {
        if (::waitpid(pid_, nullptr, WNOHANG) == pid_) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
}

json HeadlessChromium::next_message() {
    for (;;) {
        const auto end = received_.find('\0');
        if (end != std::string::npos) {
            json message = json::parse(received_.substr(0, end));
            received_.erase(0, end + 1);
            return message;
        }
        pollfd ready{from_browser_, POLLIN, 0};
        if (::poll(&ready, 1, answer_timeout_ms) != 1)
            throw std::runtime_error("chromium: no answer within 60 s");
        char buffer[65536];
        const ssize_t got = ::read(from_browser_, buffer, sizeof buffer);
        if (got <= 0) throw std::runtime_error("chromium: the browser closed its pipe");
        received_.append(buffer, static_cast<std::size_t>(got));
    }
}

void HeadlessChromium::note_event(const json& message) {
    const std::string method = message.value("method", "");
    const json& params = message.contains("params") ? message["params"] : json::object();
    if (method == "Page.loadEventFired") loaded_ = true;
    if (method == "Network.requestWillBeSent")
        requested_urls_.push_back(params["request"]["url"].get<std::string>());
    if (method == "Runtime.exceptionThrown") errors_.push_back(params["exceptionDetails"].dump());
    if (method == "Log.entryAdded" && params["entry"]["level"] == "error")
        errors_.push_back(params["entry"]["text"].get<std::string>());
}

json HeadlessChromium::call(const std::string& method, const json& params, bool on_page) {
    json message = {{"id", ++next_id_}, {"method", method}, {"params", json::object()}};
    if (!params.is_null()) message["params"] = params;
    if (on_page) message["sessionId"] = session_;
    const std::string bytes = message.dump() + '\0';
    if (::write(to_browser_, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size()))
        throw std::runtime_error("chromium: cannot send " + method);
    for (;;) {
        json answer = next_message();
        if (!answer.contains("id")) {
            note_event(answer);
            continue;
        }
        if (answer["id"] != next_id_) continue;
        if (answer.contains("error"))
            throw std::runtime_error("chromium: " + method + ": " + answer["error"].dump());
        return answer["result"];
    }
}

void HeadlessChromium::open(const std::string& url) {
    const json target = call("Target.createTarget", {{"url", "about:blank"}}, false);
    session_ = call("Target.attachToTarget", {{"targetId", target["targetId"]}, {"flatten", true}},
                    false)["sessionId"];
    // Enabled before the navigation, so that the page's own requests and errors are seen.
    for (const char* domain : {"Page.enable", "Network.enable", "Runtime.enable", "Log.enable"})
        call(domain);
    requested_urls_.clear();
    errors_.clear();
    loaded_ = false;
    const json navigated = call("Page.navigate", {{"url", url}});
    if (navigated.contains("errorText"))
        throw std::runtime_error("chromium: " + url + ": " + navigated["errorText"].dump());
    while (!loaded_) note_event(next_message());
}

json HeadlessChromium::evaluate(const std::string& expression) {
    const json result =
        call("Runtime.evaluate", {{"expression", expression}, {"returnByValue", true}});
    if (result.contains("exceptionDetails"))
        throw std::runtime_error("chromium: " + expression + ": " +
                                 result["exceptionDetails"].dump());
    return result["result"].value("value", json());
}

void HeadlessChromium::click(const std::string& selector) {
    const json centre =
        evaluate("(() => { const e = document.querySelector(" + json(selector).dump() +
                 "); e.scrollIntoView({block: 'center'});"
                 " const r = e.getBoundingClientRect();"
                 " return [r.x + r.width / 2, r.y + r.height / 2]; })()");
    for (const char* type : {"mousePressed", "mouseReleased"})
        call("Input.dispatchMouseEvent", {{"type", type},
                                          {"x", centre[0]},
                                          {"y", centre[1]},
                                          {"button", "left"},
                                          {"clickCount", 1}});
}

void HeadlessChromium::type(const std::string& text) { call("Input.insertText", {{"text", text}}); }

std::string HeadlessChromium::screenshot_png_base64() {
    const json size = call("Page.getLayoutMetrics")["cssContentSize"];
    return call("Page.captureScreenshot", {{"format", "png"},
                                           {"captureBeyondViewport", true},
                                           {"clip",
                                            {{"x", 0},
                                             {"y", 0},
                                             {"width", size["width"]},
                                             {"height", size["height"]},
                                             {"scale", 1}}}})["data"];
}

}  // namespace cuvet::test
