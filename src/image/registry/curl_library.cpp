#include "image/registry/curl_library.hpp"

#include <dlfcn.h>

#include <mutex>

#include "cuvet/core/error.hpp"

namespace cuvet::image {
namespace {

template <typename Function>
bool load(void* handle, const char* name, Function& out) {
    out = reinterpret_cast<Function>(dlsym(handle, name));
    return out != nullptr;
}

// Either flavour of Debian's libcurl (OpenSSL or GnuTLS) has the same ABI.
bool open_library(CurlLibrary& lib) {
    void* handle = nullptr;
    for (const char* name : {"libcurl.so.4", "libcurl-gnutls.so.4"})
        if ((handle = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    if (!handle) return false;
    bool ok = load(handle, "curl_global_init", lib.global_init) &&
              load(handle, "curl_easy_init", lib.easy_init) &&
              load(handle, "curl_easy_setopt", lib.easy_setopt) &&
              load(handle, "curl_easy_cleanup", lib.easy_cleanup) &&
              load(handle, "curl_easy_strerror", lib.easy_strerror) &&
              load(handle, "curl_easy_pause", lib.easy_pause) &&
              load(handle, "curl_multi_init", lib.multi_init) &&
              load(handle, "curl_multi_add_handle", lib.multi_add_handle) &&
              load(handle, "curl_multi_remove_handle", lib.multi_remove_handle) &&
              load(handle, "curl_multi_cleanup", lib.multi_cleanup) &&
              load(handle, "curl_multi_perform", lib.multi_perform) &&
              load(handle, "curl_multi_poll", lib.multi_poll) &&
              load(handle, "curl_multi_info_read", lib.multi_info_read) &&
              load(handle, "curl_slist_append", lib.slist_append) &&
              load(handle, "curl_slist_free_all", lib.slist_free_all);
    if (ok) lib.global_init(CURL_GLOBAL_DEFAULT);
    return ok;
}

}  // namespace

const CurlLibrary& curl_library(const std::string& what) {
    static CurlLibrary lib{};
    static bool loaded = false;
    static std::once_flag once;
    std::call_once(once, [] { loaded = open_library(lib); });
    if (!loaded)
        fail_io(what +
                ": libcurl (libcurl.so.4, 7.66 or newer) is not installed; registries and the "
                "Docker API "
                "need it (apt-get install libcurl4)");
    return lib;
}

}  // namespace cuvet::image
