#pragma once
// Debian's chromium, headless, driven over the DevTools protocol on a pipe
// (--remote-debugging-pipe: no port to open, nothing else can connect). Tests of the HTML
// pages cuvet writes use it to click, type and read the page the way a person's browser would.
#include <sys/types.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/temp_dir.hpp"

namespace cuvet::test {

class HeadlessChromium {
public:
    // Starts `chromium` with a fresh profile; throws std::runtime_error when it does not answer.
    HeadlessChromium();
    ~HeadlessChromium();
    HeadlessChromium(const HeadlessChromium&) = delete;
    HeadlessChromium& operator=(const HeadlessChromium&) = delete;

    // Opens `url` in a new tab and returns once its load event has fired.
    void open(const std::string& url);
    // The value of a JavaScript expression in the page (returned by value, as JSON).
    nlohmann::json evaluate(const std::string& expression);
    // A left click at the centre of the first element `selector` matches, scrolled into view.
    void click(const std::string& selector);
    // Text typed into the element that has the focus (one `input` event, as a paste makes).
    void type(const std::string& text);
    // The whole page as a PNG, base64-encoded as the protocol sends it.
    std::string screenshot_png_base64();

    // Since open(): every request the page made, and every error it met (an uncaught
    // exception, a resource its Content-Security-Policy refused or that failed to load).
    const std::vector<std::string>& requested_urls() const { return requested_urls_; }
    const std::vector<std::string>& errors() const { return errors_; }

private:
    nlohmann::json call(const std::string& method, const nlohmann::json& params = {},
                        bool on_page = true);
    nlohmann::json next_message();
    void note_event(const nlohmann::json& message);

    TempDir profile_;
    pid_t pid_ = -1;
    int to_browser_ = -1;
    int from_browser_ = -1;
    std::string received_;
    int next_id_ = 0;
    std::string session_;
    bool loaded_ = false;
    std::vector<std::string> requested_urls_;
    std::vector<std::string> errors_;
};

}  // namespace cuvet::test
