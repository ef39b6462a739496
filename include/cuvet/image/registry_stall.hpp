#pragma once
// How long a registry connection may carry (almost) nothing before its
// request fails: --stall-timeout, set once by the CLI before any image is
// opened, as the scan limits are (docs/registries.md, "Deadlines").
namespace cuvet::image {

// Seconds under 1 KiB/s; a request that stalls so long is not retried.
unsigned registry_stall_seconds();
void set_registry_stall_seconds(unsigned seconds);

}  // namespace cuvet::image
