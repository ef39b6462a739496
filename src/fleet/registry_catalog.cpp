// A fleet's images as a registry holds them: its catalog, then each repository's tags (the
// distribution API's listing endpoints, paged through their Link headers).
#include <algorithm>
#include <nlohmann/json.hpp>

#include "cuvet/core/error.hpp"
#include "cuvet/fleet/image_sources.hpp"
#include "image/registry/registry_client.hpp"

namespace cuvet::fleet {
namespace {

using nlohmann::json;

constexpr std::uint64_t max_page_bytes = 16u << 20;
constexpr int max_pages = 10000;  // a registry that pages forever is not followed forever

// The path of `Link: </v2/_catalog?last=x&n=1000>; rel="next"`, or "" on the last page.
std::string next_page(image::HttpResponse& response) {
    const auto link = response.header("link");
    if (!link || link->find("rel=\"next\"") == std::string::npos) return "";
    const auto open = link->find('<');
    const auto close = link->find('>', open);
    if (open == std::string::npos || close == std::string::npos) return "";
    std::string target = link->substr(open + 1, close - open - 1);
    // Some registries give an absolute URL: only its path is asked of our client.
    if (const auto scheme = target.find("://"); scheme != std::string::npos)
        target = target.substr(std::min(target.size(), target.find('/', scheme + 3)));
    return target;
}

// Every string of `key` over all pages, starting at `path`.
std::vector<std::string> paged_list(image::RegistryClient& client, std::string path,
                                    const std::string& key, const std::string& what) {
    std::vector<std::string> out;
    for (int page = 0; !path.empty() && page < max_pages; ++page) {
        auto response = client.get(path, {"Accept: application/json"}, 0, what);
        const auto body = response->read_body(max_page_bytes);
        if (!body) fail_input(client.name() + ": " + what + ": a page is over 16 MiB");
        const json document = json::parse(*body, nullptr, false);
        if (!document.is_object())
            fail_input(client.name() + ": " + what + ": the answer is not a JSON object");
        if (auto it = document.find(key); it != document.end() && it->is_array())
            for (const auto& item : *it)
                if (item.is_string()) out.push_back(item.get<std::string>());
        path = next_page(*response);
    }
    return out;
}

}  // namespace

std::vector<std::string> catalog_images(const std::string& registry, const std::string& prefix,
                                        const image::Access& access) {
    // The client speaks for one repository; the catalog is asked through any of them.
    image::RegistryReference where{registry, prefix.empty() ? "catalog" : prefix, "latest", ""};
    image::RegistryClient catalog(where, access);
    std::vector<std::string> references;
    for (const auto& repository :
         paged_list(catalog, "/v2/_catalog?n=1000", "repositories", "catalog")) {
        if (repository.rfind(prefix, 0) != 0) continue;
        image::RegistryClient tags_client({registry, repository, "latest", ""}, access);
        for (const auto& tag : paged_list(tags_client, "/v2/" + repository + "/tags/list?n=1000",
                                          "tags", "tags of " + repository))
            references.push_back("docker://" + registry + "/" + repository + ":" + tag);
    }
    std::sort(references.begin(), references.end());
    references.erase(std::unique(references.begin(), references.end()), references.end());
    return references;
}

}  // namespace cuvet::fleet
