#include "progress.hpp"

#include <iostream>

#include "cuvet/image/read_counter.hpp"
#include "output_format.hpp"

namespace cuvet::cli {

Progress::Progress(std::string what, bool terminal)
    : what_(std::move(what)),
      terminal_(terminal),
      bytes_at_start_(image::layer_bytes_read()),
      start_(std::chrono::steady_clock::now()),
      thread_([this] { run(); }) {}

Progress::~Progress() { finish(); }

std::function<void(std::size_t, std::size_t)> Progress::layer_callback() {
    return [this](std::size_t done, std::size_t total) {
        done_ = done;
        total_ = total;
        std::lock_guard lock(mutex_);
        layer_finished_ = true;
        wake_.notify_all();
    };
}

std::string Progress::line() const {
    auto seconds =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start_)
            .count();
    std::string text = what_ + ": ";
    if (total_ > 0) text += std::to_string(done_) + "/" + std::to_string(total_) + " layers, ";
    text += human_size(image::layer_bytes_read() - bytes_at_start_) + " read, " +
            std::to_string(seconds) + " s";
    return text;
}

void Progress::draw(bool final) {
    const std::string text = line();
    if (terminal_) {
        std::cerr << "\r" << text;
        if (text.size() < last_width_) std::cerr << std::string(last_width_ - text.size(), ' ');
        last_width_ = text.size();
        std::cerr << std::flush;
    } else {
        std::cerr << text << (final ? " (done)" : "") << "\n" << std::flush;
    }
}

void Progress::run() {
    std::unique_lock lock(mutex_);
    const auto period =
        terminal_ ? std::chrono::milliseconds(250) : std::chrono::milliseconds(5000);
    while (!stop_) {
        wake_.wait_for(lock, period, [this] { return stop_ || layer_finished_; });
        if (stop_) break;
        layer_finished_ = false;
        draw(false);
    }
}

void Progress::finish() {
    {
        std::lock_guard lock(mutex_);
        if (stop_) return;
        stop_ = true;
        wake_.notify_all();
    }
    if (thread_.joinable()) thread_.join();
    if (terminal_) {
        std::cerr << "\r" << std::string(last_width_, ' ') << "\r" << std::flush;
    } else {
        draw(true);
    }
}

}  // namespace cuvet::cli
