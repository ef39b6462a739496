#pragma once
// A reusable byte buffer for file contents on the scan path. Big CUDA libraries
// are hundreds of MB: a fresh allocation per file costs a page fault per 4 KB
// (more system time than inflating the layer), so each worker keeps one of
// these, grown on demand and never shrunk. Growth keeps the contents (mremap
// moves page tables, not bytes); pages never written cost nothing.
#include <cstddef>

namespace cuvet {

class ScratchBuffer {
public:
    ScratchBuffer() = default;
    ~ScratchBuffer();
    ScratchBuffer(const ScratchBuffer&) = delete;
    ScratchBuffer& operator=(const ScratchBuffer&) = delete;

    // Makes [0, size) writable, keeping what is already there. Throws
    // std::bad_alloc when the address space cannot be had.
    void reserve(std::size_t size);

    char* data() { return data_; }
    const char* data() const { return data_; }
    std::size_t capacity() const { return capacity_; }

private:
    char* data_ = nullptr;
    std::size_t capacity_ = 0;
};

}  // namespace cuvet
