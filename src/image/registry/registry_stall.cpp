#include "cuvet/image/registry_stall.hpp"

namespace cuvet::image {
namespace {

unsigned stall_seconds = 30;

}  // namespace

unsigned registry_stall_seconds() { return stall_seconds; }

void set_registry_stall_seconds(unsigned seconds) { stall_seconds = seconds; }

}  // namespace cuvet::image
