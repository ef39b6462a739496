// Database::nvidia_cuda_tag: is an nvidia/cuda tag on Docker Hub, deleted by NVIDIA,
// never published, or beyond what the table knows — and which live tag to use instead.
#include <algorithm>
#include <array>
#include <cctype>

#include "cuvet/rules/database.hpp"

namespace cuvet::rules {

namespace {

// The OS suffixes nvidia/cuda has used; anything else is part of the flavour.
bool is_os(std::string_view word) {
    static constexpr std::array<std::string_view, 11> prefixes = {
        "ubuntu", "ubi", "centos", "rockylinux", "oraclelinux", "amzn",
        "cm",     "azl", "debian", "opensuse",   "sles"};
    for (std::string_view prefix : prefixes) {
        if (word.size() > prefix.size() && word.substr(0, prefix.size()) == prefix &&
            std::isdigit(static_cast<unsigned char>(word[prefix.size()]))) {
            return true;
        }
    }
    return false;
}

// "cudnn8-runtime" → {"cudnn", "runtime"}: the spelling of the cuDNN major may change
// between releases, the kind of image may not.
std::pair<std::string, std::string> flavor_kind(std::string_view flavor) {
    auto dash = flavor.rfind('-');
    if (dash == std::string_view::npos) return {"", std::string(flavor)};
    std::string prefix(flavor.substr(0, dash));
    while (!prefix.empty() && std::isdigit(static_cast<unsigned char>(prefix.back())))
        prefix.pop_back();
    return {prefix, std::string(flavor.substr(dash + 1))};
}

std::optional<Version> os_version(std::string_view os, std::string_view prefix) {
    if (os.substr(0, prefix.size()) != prefix) return std::nullopt;
    return Version::parse(os.substr(prefix.size()));
}

// The OS to suggest in `row`: the asked one when the release has it, else its newest Ubuntu.
std::string pick_os(const CudaImageTags& row, std::string_view wanted) {
    if (!wanted.empty() && row.flavors(wanted)) return std::string(wanted);
    std::string best;
    std::optional<Version> best_version;
    for (const auto& [os, flavors] : row.tags) {
        auto v = os_version(os, "ubuntu");
        if (v && (!best_version || *v > *best_version)) {
            best = os;
            best_version = v;
        }
    }
    return best.empty() && !row.tags.empty() ? row.tags.front().first : best;
}

// A tag of `row` of the same kind as `flavor` (the exact spelling when it exists).
std::optional<std::string> same_kind_tag(const CudaImageTags& row, std::string_view flavor,
                                         std::string_view wanted_os) {
    std::string os = pick_os(row, wanted_os);
    const auto* flavors = row.flavors(os);
    if (!flavors) return std::nullopt;
    if (std::find(flavors->begin(), flavors->end(), flavor) != flavors->end()) {
        return row.cuda + "-" + std::string(flavor) + "-" + os;
    }
    auto kind = flavor_kind(flavor);
    for (const auto& candidate : *flavors) {
        if (flavor_kind(candidate) == kind) return row.cuda + "-" + candidate + "-" + os;
    }
    return std::nullopt;
}

}  // namespace

const std::vector<std::string>* CudaImageTags::flavors(std::string_view os) const {
    for (const auto& [name, list] : tags) {
        if (name == os) return &list;
    }
    return nullptr;
}

CudaTagAnswer Database::nvidia_cuda_tag(std::string_view tag) const {
    CudaTagAnswer answer;
    auto find_published = [&](std::string_view cuda) -> const CudaImageTags* {
        for (const auto& row : cuda_image_tags_) {
            if (row.cuda == cuda) return &row;
        }
        return nullptr;
    };
    // The nearest live tag: this release, then its later patch releases (12.4.0 → 12.4.1).
    auto suggest = [&](std::string_view cuda, std::string_view flavor, std::string_view os) {
        auto version = Version::parse(cuda);
        std::vector<const CudaImageTags*> candidates;
        if (const auto* same = find_published(cuda)) candidates.push_back(same);
        std::vector<const CudaImageTags*> later;
        for (const auto& row : cuda_image_tags_) {
            auto v = Version::parse(row.cuda);
            if (version && v && v->major() == version->major() && v->minor() == version->minor() &&
                *v > *version) {
                later.push_back(&row);
            }
        }
        std::sort(later.begin(), later.end(), [](const auto* a, const auto* b) {
            return *Version::parse(a->cuda) < *Version::parse(b->cuda);
        });
        candidates.insert(candidates.end(), later.begin(), later.end());
        for (const auto* row : candidates) {
            if (auto found = same_kind_tag(*row, flavor, os)) return *found;
        }
        return std::string();
    };
    auto form = [&](std::string_view name) -> const Provenance* {
        for (const auto& [form_name, provenance] : deleted_cuda_tag_forms_) {
            if (form_name == name) return &provenance;
        }
        return nullptr;
    };

    if (tag.empty() || tag == "latest") {
        if (const auto* p = form("latest")) {
            answer.status = CudaTagStatus::deleted;
            answer.provenance = *p;
            // Pin the newest supported release instead.
            const CudaImageTags* newest = nullptr;
            for (const auto& row : cuda_image_tags_) {
                if (!row.complete || row.support != "supported") continue;
                if (!newest || *Version::parse(row.cuda) > *Version::parse(newest->cuda))
                    newest = &row;
            }
            if (newest) answer.suggestion = same_kind_tag(*newest, "runtime", "").value_or("");
        }
        return answer;
    }

    auto dash = tag.find('-');
    if (dash == std::string_view::npos) {
        // "7.5", "10.0": the oldest tags' spelling, a bare major.minor, has no OS suffix either.
        // A longer bare version ("12.4.1") is no spelling NVIDIA used: unknown, as before.
        const auto* p = form("without_os");
        const auto bare = Version::parse(tag);
        if (!bare || bare->size() != 2 || !p) return answer;
        answer.cuda = std::string(tag);
        answer.status = CudaTagStatus::deleted;
        answer.provenance = *p;
        return answer;
    }
    if (!Version::parse(tag.substr(0, dash))) return answer;
    answer.cuda = std::string(tag.substr(0, dash));
    std::string_view rest = tag.substr(dash + 1);
    auto last = rest.rfind('-');
    if (last != std::string_view::npos && is_os(rest.substr(last + 1))) {
        answer.flavor = std::string(rest.substr(0, last));
        answer.os = std::string(rest.substr(last + 1));
    } else {
        answer.flavor = std::string(rest);
    }
    if (answer.flavor.empty()) return answer;

    if (answer.os.empty()) {
        if (const auto* p = form("without_os")) {
            answer.status = CudaTagStatus::deleted;
            answer.provenance = *p;
            answer.suggestion = suggest(answer.cuda, answer.flavor, "");
            if (answer.suggestion.empty()) {
                // "11.0-base": the x.y spelling names no published release; try x.y.*.
                for (const auto& row : deleted_cuda_image_tags_) {
                    if (row.cuda == answer.cuda) {
                        answer.suggestion = suggest(row.replacement, answer.flavor, "");
                        break;
                    }
                }
            }
        }
        return answer;
    }

    const CudaImageTags* published = find_published(answer.cuda);
    auto has = [&](const CudaImageTags& row) {
        const auto* flavors = row.flavors(answer.os);
        return flavors &&
               std::find(flavors->begin(), flavors->end(), answer.flavor) != flavors->end();
    };
    if (published && has(*published)) {
        answer.status = CudaTagStatus::published;
        answer.support = published->support;
        answer.provenance = published->provenance;
        return answer;
    }
    const CudaImageTags* deleted_release = nullptr;
    for (const auto& row : deleted_cuda_image_tags_) {
        if (row.cuda != answer.cuda) continue;
        deleted_release = &row;
        if (!has(row)) continue;
        answer.status = CudaTagStatus::deleted;
        answer.provenance = row.provenance;
        answer.suggestion = suggest(row.replacement, answer.flavor, answer.os);
        return answer;
    }
    // "11.1-cudnn8-devel-ubuntu18.04": the x.y spelling of a release whose tags are
    // x.y.z. NVIDIA deletes a release's tags once an update of it is out, and the lists
    // of tags that still exist hold no x.y spelling from 11.0 on.
    if (!published && !deleted_release) {
        const auto version = Version::parse(answer.cuda);
        const CudaImageTags* update = nullptr;
        for (const auto* rows : {&cuda_image_tags_, &deleted_cuda_image_tags_}) {
            for (const auto& row : *rows) {
                const auto v = Version::parse(row.cuda);
                if (!version || version->size() != 2 || !v || v->size() != 3 ||
                    v->major() != version->major() || v->minor() != version->minor())
                    continue;
                if (!update || *v > *Version::parse(update->cuda)) update = &row;
            }
        }
        const auto* policy = form("superseded_by_update");
        if (update && policy) {
            answer.status = CudaTagStatus::deleted;
            answer.provenance = *policy;
            answer.suggestion = suggest(update->cuda, answer.flavor, answer.os);
            return answer;
        }
    }
    // An OS no listed release has (opensuse15: Dockerfiles exist for 13.x, the tag lists
    // name none) says nothing about what exists.
    auto known_os = [&](const std::vector<CudaImageTags>& rows) {
        return std::any_of(rows.begin(), rows.end(), [&](const CudaImageTags& row) {
            return row.flavors(answer.os) != nullptr;
        });
    };
    if (!known_os(cuda_image_tags_) && !known_os(deleted_cuda_image_tags_)) return answer;
    // A release listed in full (published, or every tag it ever had) never had this tag.
    if ((published && published->complete) || (!published && deleted_release)) {
        answer.status = CudaTagStatus::not_published;
        answer.provenance = published ? published->provenance : deleted_release->provenance;
        answer.suggestion = suggest(published ? answer.cuda : deleted_release->replacement,
                                    answer.flavor, answer.os);
    }
    return answer;
}

}  // namespace cuvet::rules
