#pragma once
// Progress of long work on stderr: layers done of all and bytes read so far.
// On a terminal one line redrawn four times a second and cleared at the end;
// elsewhere (--progress in a CI log) a line every 5 s and at each layer.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace cuvet::cli {

class Progress {
public:
    Progress(std::string what, bool terminal);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    // For ScanOptions::on_progress: (layers done, layers in all), from any thread.
    std::function<void(std::size_t, std::size_t)> layer_callback();
    // Stops redrawing; on a terminal the line goes, elsewhere a last line stays.
    void finish();

private:
    std::string line() const;
    void draw(bool final);
    void run();

    std::string what_;
    bool terminal_;
    std::uint64_t bytes_at_start_;
    std::chrono::steady_clock::time_point start_;
    std::atomic<std::size_t> done_{0}, total_{0};
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    bool layer_finished_ = false;
    std::size_t last_width_ = 0;
    std::thread thread_;
};

}  // namespace cuvet::cli
