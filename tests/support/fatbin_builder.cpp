#include "support/fatbin_builder.hpp"

namespace cuvet::test {
namespace {

void put(std::string& out, std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

}  // namespace

std::string fatbin_entry(std::uint16_t kind, std::uint32_t arch, std::uint32_t header_size,
                         std::size_t payload, const std::string& fill) {
    std::string e;
    put(e, kind, 2);
    put(e, 0x0101, 2);
    put(e, header_size, 4);
    put(e, payload, 8);
    put(e, 0, 4);  // compressed size
    put(e, 0, 4);  // options offset
    put(e, 7, 2);  // minor
    put(e, 1, 2);  // major
    put(e, arch, 4);
    put(e, 0, 8);     // obj name
    put(e, 0x11, 8);  // flags: 64-bit, Linux
    put(e, 0, 8);
    put(e, 0, 8);
    e.resize(header_size, '\0');
    for (std::size_t i = 0; i < payload; ++i) e.push_back(fill[i % fill.size()]);
    return e;
}

std::string fatbin_container(const std::vector<std::string>& entries) {
    std::string body;
    for (const auto& e : entries) body += e;
    std::string c;
    put(c, 0xBA55ED50, 4);
    put(c, 1, 2);
    put(c, 16, 2);
    put(c, body.size(), 8);
    return c + body;
}

}  // namespace cuvet::test
