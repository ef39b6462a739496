#pragma once
// Whether registry credentials may go to the token service a registry names.
// A Bearer challenge can point anywhere; docker sends the password wherever
// the realm is. cuvet sends it only to the registry's own host (any port) or
// to the token service a well-known registry is documented to use, unless
// --cross-host-auth says otherwise (docs/registries.md).
#include <string>

namespace cuvet::image {

// The host of a URL, lower case, without port or user info ("" when none).
std::string url_host(const std::string& url);

// Empty when `realm` may receive the credentials for `registry_host`, else
// the reason they are withheld (for messages).
std::string credentials_withheld(const std::string& realm, const std::string& registry_host,
                                 bool insecure, bool cross_host_auth);

}  // namespace cuvet::image
