#pragma once
// /etc/ld.so.conf and the files it includes, as ldconfig reads them. ld.so
// itself never reads these; they matter because ldconfig (run at build time,
// or by nvidia-container-toolkit's update-ldcache hook at container start)
// turns them into /etc/ld.so.cache.
#include <string>
#include <vector>

#include "cuvet/loader/image_files.hpp"

namespace cuvet::loader {

struct LdConfDir {
    std::string dir;     // normalised absolute directory
    std::string source;  // the conf file that named it
};

struct LdConf {
    std::vector<LdConfDir> dirs;          // in ldconfig's order, duplicates removed
    std::vector<std::string> files_read;  // every conf file that was read
    std::vector<std::string> problems;    // unreadable includes, include loops
};

LdConf read_ld_conf(const ImageFiles& files, const std::string& root_conf = "/etc/ld.so.conf");

}  // namespace cuvet::loader
