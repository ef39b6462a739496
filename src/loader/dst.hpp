#pragma once
// Dynamic string tokens and search-path lists as glibc's elf/dl-load.c
// expands them (expand_dynamic_string_token, fillin_rpath).
#include <string>
#include <string_view>
#include <vector>

namespace cuvet::loader::detail {

struct DstValues {
    std::string origin;    // directory of the object whose path list this is
    std::string lib;       // $LIB
    std::string platform;  // $PLATFORM
};

// Replaces $ORIGIN/${ORIGIN}, $LIB/${LIB}, $PLATFORM/${PLATFORM}; an unbraced
// token must end the string or be followed by '/'. Unknown tokens stay.
std::string expand_dst(std::string_view text, const DstValues& values);

// Splits a path list on any of `separators`, expands tokens, drops trailing
// slashes (but keeps "/"), keeps "" (the working directory) and removes
// duplicates, as fillin_rpath does.
std::vector<std::string> split_search_path(std::string_view list, std::string_view separators,
                                           const DstValues& values);

// The directory part of an object's path as ld.so computes l_origin: no
// normalisation; "/foo" gives "/".
std::string origin_of(std::string_view path, std::string_view working_dir);

// dir + "/" + name the way open_path builds it ("" + name for the working dir).
std::string join_dir(std::string_view dir, std::string_view name);

}  // namespace cuvet::loader::detail
