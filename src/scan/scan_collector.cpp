#include "scan/scan_collector.hpp"

#include "cuvet/elf/elf_stream.hpp"

namespace cuvet::scan {
namespace {

constexpr std::size_t magic_size = 4;
// A script a root may run (docker-entrypoint.sh) is kept whole, so the
// commands it runs become roots too; real ones are a few KB.
constexpr std::uint64_t max_script_size = 256u << 10;

bool looks_like_script(std::string_view head) { return head.substr(0, 2) == "#!"; }

// Decides from the first bytes what a selected file is, then streams it on:
// an ELF into ElfStream, a text file or a script (#!) into a string,
// anything else nowhere.
class FileSink final : public image::ContentSink {
public:
    FileSink(ScanCollector& collector, const image::FileEntry& entry, bool elf, bool text)
        : collector_(collector), entry_(entry), elf_(elf), text_(text) {}

    ~FileSink() override {
        if (buffer_) collector_.give_buffer(std::move(buffer_));
    }

    void write(std::string_view block, std::uint64_t offset) override {
        if (mode_ == Mode::undecided) {
            // The head is tiny; gather it (sparse gaps read as zeros) until the magic is known.
            if (offset > head_.size())
                head_.resize(static_cast<std::size_t>(std::min<std::uint64_t>(offset, magic_size)),
                             '\0');
            if (head_.size() + block.size() < magic_size && offset + block.size() < entry_.size) {
                head_.append(block);
                return;
            }
            decide(block, offset);
            return;
        }
        pass_on(block, offset);
    }

    void finish() override {
        if (mode_ == Mode::undecided) decide({}, head_.size());
        switch (mode_) {
            case Mode::elf:
                collector_.record_elf(entry_, stream_->finish());
                break;
            case Mode::text:
                if (elf_) collector_.record_not_elf(entry_);
                collector_.record_text(entry_, std::move(bytes_));
                break;
            case Mode::neither:
                if (elf_) collector_.record_not_elf(entry_);
                break;
            case Mode::undecided:
                break;
        }
    }

private:
    enum class Mode { undecided, elf, text, neither };

    void decide(std::string_view block, std::uint64_t offset) {
        std::string head = head_;
        if (offset >= head.size()) head.append(block.substr(0, magic_size));
        if (elf_ && elf::looks_like_elf(head)) {
            mode_ = Mode::elf;
            buffer_ = collector_.take_buffer();
            stream_ = std::make_unique<elf::ElfStream>(entry_.size, *buffer_);
        } else if (text_ || (elf_ && looks_like_script(head) && entry_.size <= max_script_size)) {
            mode_ = Mode::text;
        } else {
            mode_ = Mode::neither;
        }
        if (!head_.empty()) pass_on(head_, 0);
        if (!block.empty()) pass_on(block, offset);
        head_.clear();
    }

    void pass_on(std::string_view block, std::uint64_t offset) {
        if (mode_ == Mode::elf) {
            stream_->write(block, offset);
        } else if (mode_ == Mode::text) {
            if (offset > bytes_.size()) bytes_.resize(static_cast<std::size_t>(offset), '\0');
            bytes_.append(block);
        }
    }

    ScanCollector& collector_;
    const image::FileEntry entry_;  // a copy: the reader reuses its entry
    bool elf_, text_;
    Mode mode_ = Mode::undecided;
    std::string head_, bytes_;
    std::unique_ptr<ScratchBuffer> buffer_;
    std::unique_ptr<elf::ElfStream> stream_;
};

}  // namespace

std::unique_ptr<image::ContentSink> ScanCollector::open(const image::FileEntry& entry, bool elf,
                                                        bool text) {
    return std::make_unique<FileSink>(*this, entry, elf, text);
}

cache::LayerFacts& ScanCollector::layer(int index) {
    std::lock_guard lock(mutex_);
    return layers_[index];
}

void ScanCollector::adopt(int index, cache::LayerFacts&& facts) {
    facts.listing = {};
    std::lock_guard lock(mutex_);
    layers_[index] = std::move(facts);
}

void ScanCollector::record_elf(const image::FileEntry& entry, std::optional<elf::ElfInfo> info) {
    if (!info) return record_not_elf(entry);
    std::lock_guard lock(mutex_);
    auto& facts = layers_[entry.layer];
    facts.not_elf.erase(entry.path);
    facts.elfs.insert_or_assign(entry.path, std::move(*info));
}

void ScanCollector::record_text(const image::FileEntry& entry, std::string bytes) {
    std::lock_guard lock(mutex_);
    layers_[entry.layer].texts.insert_or_assign(entry.path, std::move(bytes));
}

void ScanCollector::record_not_elf(const image::FileEntry& entry) {
    std::lock_guard lock(mutex_);
    auto& facts = layers_[entry.layer];
    facts.elfs.erase(entry.path);
    facts.not_elf.insert(entry.path);
}

std::unique_ptr<ScratchBuffer> ScanCollector::take_buffer() {
    std::lock_guard lock(mutex_);
    if (buffers_.empty()) return std::make_unique<ScratchBuffer>();
    auto buffer = std::move(buffers_.back());
    buffers_.pop_back();
    return buffer;
}

void ScanCollector::give_buffer(std::unique_ptr<ScratchBuffer> buffer) {
    std::lock_guard lock(mutex_);
    buffers_.push_back(std::move(buffer));
}

void ScanCollector::finish() {
    merge_layers();
    drop_stale();
}

// Bottom-up, so that a path's copy in a higher layer replaces a lower one's.
void ScanCollector::merge_layers() {
    for (auto& [index, facts] : layers_) {
        for (auto& [path, info] : facts.elfs) {
            analysis_.not_elf.erase(path);
            elf_layer_[path] = index;
            analysis_.elfs.insert_or_assign(path, std::move(info));
        }
        for (auto& path : facts.not_elf) {
            analysis_.elfs.erase(path);
            elf_layer_[path] = index;
            analysis_.not_elf.insert(path);
        }
        for (auto& [path, text] : facts.texts) {
            text_layer_[path] = index;
            analysis_.texts.insert_or_assign(path, std::move(text));
        }
    }
    layers_.clear();
}

void ScanCollector::drop_stale() {
    buffers_.clear();
    auto stale = [&](const std::string& path, const LayerOf& layers) {
        const auto* entry = analysis_.tree.find(path);
        auto it = layers.find(path);
        return entry == nullptr || entry->type != image::FileType::regular ||
               (it != layers.end() && it->second != entry->layer);
    };
    for (auto it = analysis_.elfs.begin(); it != analysis_.elfs.end();)
        it = stale(it->first, elf_layer_) ? analysis_.elfs.erase(it) : std::next(it);
    for (auto it = analysis_.not_elf.begin(); it != analysis_.not_elf.end();)
        it = stale(*it, elf_layer_) ? analysis_.not_elf.erase(it) : std::next(it);
    for (auto it = analysis_.texts.begin(); it != analysis_.texts.end();)
        it = stale(it->first, text_layer_) ? analysis_.texts.erase(it) : std::next(it);
}

}  // namespace cuvet::scan
