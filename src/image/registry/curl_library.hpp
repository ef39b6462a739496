#pragma once
// libcurl, loaded with dlopen when the first registry or daemon is asked:
// the mostly static cuvet and its container image start without it, and only
// docker://, docker-daemon: and a bare REPO:TAG need it installed.
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>

#include <string>

namespace cuvet::image {

struct CurlLibrary {
    decltype(&::curl_global_init) global_init;
    decltype(&::curl_easy_init) easy_init;
    decltype(&::curl_easy_setopt) easy_setopt;
    decltype(&::curl_easy_cleanup) easy_cleanup;
    decltype(&::curl_easy_strerror) easy_strerror;
    decltype(&::curl_easy_pause) easy_pause;
    decltype(&::curl_multi_init) multi_init;
    decltype(&::curl_multi_add_handle) multi_add_handle;
    decltype(&::curl_multi_remove_handle) multi_remove_handle;
    decltype(&::curl_multi_cleanup) multi_cleanup;
    decltype(&::curl_multi_perform) multi_perform;
    decltype(&::curl_multi_poll) multi_poll;
    decltype(&::curl_multi_info_read) multi_info_read;
    decltype(&::curl_slist_append) slist_append;
    decltype(&::curl_slist_free_all) slist_free_all;
};

// Loaded and initialised once; an io error naming `what` when libcurl.so.4
// is not installed.
const CurlLibrary& curl_library(const std::string& what);

}  // namespace cuvet::image
