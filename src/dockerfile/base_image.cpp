// What a base image reference says about the stack, from the tag schemes of
// the images CUDA users build on. Tables that need a lookup (NGC releases,
// which cuDNN a tag ships) stay in rules/; only the spelling is read here.
#include <cctype>

#include "cuvet/dockerfile/facts.hpp"
#include "cuvet/rules/framework_catalog.hpp"

namespace cuvet::dockerfile {
namespace {

std::vector<std::string> split(std::string_view text, char sep) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        std::size_t end = text.find(sep, start);
        parts.emplace_back(text.substr(start, end == std::string_view::npos ? end : end - start));
        if (end == std::string_view::npos) return parts;
        start = end + 1;
    }
}

bool is_version(std::string_view text, int min_parts) {
    if (text.empty()) return false;
    int parts = 1;
    bool digit = false;
    for (char c : text) {
        if (c == '.') {
            if (!digit) return false;
            ++parts;
            digit = false;
        } else if (std::isdigit(static_cast<unsigned char>(c))) {
            digit = true;
        } else {
            return false;
        }
    }
    return digit && parts >= min_parts;
}

int parse_cudnn_token(std::string_view token) {
    if (!token.starts_with("cudnn")) return -1;
    std::string_view digits = token.substr(5);
    if (digits.empty()) return 0;  // plain "cudnn": the major is in the rules table
    for (char c : digits) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
    }
    return digits.size() > 3 ? -1 : std::stoi(std::string(digits));
}

void read_nvidia_cuda_tag(const std::string& tag, BaseFacts& out) {
    auto parts = split(tag, '-');
    if (parts.size() < 3 || !is_version(parts[0], 2)) return;
    out.cuda = parts[0];
    std::size_t i = 1;
    if (int major = parse_cudnn_token(parts[i]); major >= 0) {
        out.cudnn_token = parts[i];
        out.cudnn_major = major;
        ++i;
    }
    if (i < parts.size()) out.flavor = parts[i++];
    if (i < parts.size()) out.distro = parts[i];
}

// A framework image's tag that states its build: 2.1.0-cuda12.1-cudnn8-runtime (the catalog's
// "version-cuda-cudnn-flavor").
void read_framework_cuda_tag(const std::string& tag, BaseFacts& out) {
    auto parts = split(tag, '-');
    if (!parts.empty() && is_version(parts[0], 2)) out.framework_version = parts[0];
    for (const auto& part : parts) {
        if (part.starts_with("cuda") && is_version(std::string_view(part).substr(4), 2)) {
            out.cuda = part.substr(4);
        } else if (int major = parse_cudnn_token(part); major >= 0) {
            out.cudnn_token = part;
            out.cudnn_major = major;
        } else if (part == "runtime" || part == "devel") {
            out.flavor = part;
        }
    }
}

}  // namespace

ImageRef parse_image_ref(std::string_view reference) {
    ImageRef ref;
    std::string_view rest = reference;
    if (auto at = rest.find('@'); at != std::string_view::npos) {
        ref.digest = std::string(rest.substr(at + 1));
        rest = rest.substr(0, at);
    }
    auto slash = rest.find('/');
    if (slash != std::string_view::npos) {
        std::string_view first = rest.substr(0, slash);
        if (first.find('.') != std::string_view::npos ||
            first.find(':') != std::string_view::npos || first == "localhost") {
            ref.registry = std::string(first);
            rest = rest.substr(slash + 1);
        }
    }
    auto last_slash = rest.rfind('/');
    auto colon = rest.rfind(':');
    if (colon != std::string_view::npos &&
        (last_slash == std::string_view::npos || colon > last_slash)) {
        ref.tag = std::string(rest.substr(colon + 1));
        rest = rest.substr(0, colon);
    } else if (ref.digest.empty()) {
        ref.tag = "latest";
    }
    ref.repository = std::string(rest);
    for (char& c : ref.repository)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ref.registry.empty() || ref.registry == "index.docker.io" ||
        ref.registry == "registry-1.docker.io") {
        ref.registry = "docker.io";
        if (ref.repository.find('/') == std::string::npos)
            ref.repository = "library/" + ref.repository;
    }
    return ref;
}

BaseFacts read_base(const std::string& reference) {
    BaseFacts out;
    out.reference = reference;
    if (reference.find('$') != std::string::npos) {
        out.kind = BaseKind::unresolved;
        return out;
    }
    if (reference == "scratch") {
        out.kind = BaseKind::scratch;
        return out;
    }
    out.image = parse_image_ref(reference);
    const std::string& repo = out.image.repository;
    const std::string& tag = out.image.tag;
    const bool hub = out.image.registry == "docker.io";
    if ((hub && repo == "nvidia/cuda") ||
        (out.image.registry == "nvcr.io" && repo == "nvidia/cuda")) {
        out.kind = BaseKind::nvidia_cuda;
        read_nvidia_cuda_tag(tag, out);
    } else if (const auto framework_image = rules::builtin_framework_catalog().docker_image(
                   hub ? repo : out.image.registry + "/" + repo)) {
        // A framework's own images (the catalog's docker_images).
        const auto& image = *framework_image->image;
        if (image.tag_format == "unstated") {
            out.kind = BaseKind::framework_release;
            out.framework = framework_image->framework->framework;
        } else if (image.tag_format == "version-cuda-cudnn-flavor") {
            out.kind = BaseKind::framework_cuda_tag;
            out.framework = framework_image->framework->framework;
            read_framework_cuda_tag(tag, out);
        } else if (tag.find(image.gpu_word) != std::string::npos) {
            out.kind = BaseKind::framework_release;
            out.framework = framework_image->framework->framework;
            auto version = split(tag, '-')[0];
            if (is_version(version, 2)) out.framework_version = version;
        }
    } else if (out.image.registry == "nvcr.io" && repo.starts_with("nvidia/")) {
        // nvcr.io/nvidia/pytorch:24.01-py3, nvcr.io/nvidia/tensorflow:23.10-tf2-py3
        auto release = split(tag, '-')[0];
        if (is_version(release, 2)) {
            out.kind = BaseKind::ngc;
            out.framework = repo.substr(7);
            out.ngc_release = release;
        }
    }
    return out;
}

std::string cuda_from_tag(std::string_view tag) {
    if (!tag.starts_with("cu") || tag.starts_with("cuda")) return {};
    std::string_view digits = tag.substr(2);
    if (digits.size() < 2 || digits.size() > 3) return {};
    for (char c : digits) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return {};
    }
    const std::size_t major_len = digits.size() - 1;
    return std::string(digits.substr(0, major_len)) + "." + std::string(digits.substr(major_len));
}

}  // namespace cuvet::dockerfile
