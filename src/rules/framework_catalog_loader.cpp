// frameworks.json "catalog": one record per framework, checked field by field so a bad
// record is an exit-3 error naming its JSON pointer.
#include <set>

#include "framework_catalog_reader.hpp"
#include "package_names.hpp"

namespace cuvet::rules::detail {

namespace {

// A pattern's placeholders are the known ones, and none is followed by a digit or another
// placeholder (each takes a whole run of digits).
void expect_pattern(const JsonNode& node, const std::string& pattern) {
    static const std::set<std::string, std::less<>> placeholders = {"{cuda_major}", "{cuda_nodot}",
                                                                    "{cudnn_nodot}", "{n}"};
    for (auto open = pattern.find('{'); open != std::string::npos;
         open = pattern.find('{', open + 1)) {
        auto close = pattern.find('}', open);
        if (close == std::string::npos ||
            placeholders.count(pattern.substr(open, close - open + 1)) == 0)
            node.fail("expected {cuda_major}, {cuda_nodot}, {cudnn_nodot} or {n} in '" + pattern +
                      "'");
        if (close + 1 < pattern.size() &&
            (pattern[close + 1] == '{' || (pattern[close + 1] >= '0' && pattern[close + 1] <= '9')))
            node.fail("a placeholder followed by digits in '" + pattern + "'");
    }
}

// PEP 503 asks for lower case and single '-' separators; placeholders stand for digits.
bool is_normalized(std::string pattern) {
    for (auto open = pattern.find('{'); open != std::string::npos; open = pattern.find('{'))
        pattern.replace(open, pattern.find('}', open) - open + 1, "0");
    return pattern == normalize_package_name(pattern);
}

std::optional<Version> read_release(const JsonNode& node) {
    auto release = Version::parse(node.string());
    if (!release) node.fail("expected a release: \"2.1\"");
    return release;
}

// A variant template names only placeholders lint can fill from a CUDA release.
void expect_variant(const JsonNode& node, const std::string& variant) {
    for (auto open = variant.find('{'); open != std::string::npos;
         open = variant.find('{', open + 1)) {
        const auto placeholder = variant.substr(open, variant.find('}', open) - open + 1);
        if (placeholder != "{cuda_major}" && placeholder != "{cuda_nodot}")
            node.fail("expected {cuda_major} or {cuda_nodot} in '" + variant + "'");
    }
}

WheelPolicy read_wheel_policy(const JsonNode& w, const ProvenanceReader& provenance) {
    w.expect_object({"gpu",
                     "gpu_extras",
                     "gpu_url_words",
                     "libraries",
                     "bundled_with_extras",
                     "system_extras",
                     "bundled_from",
                     "variants",
                     "default_build",
                     "any_build",
                     "selected_by",
                     "build_decides_cuda",
                     "complete_builds",
                     "evidence",
                     "system_cudnn",
                     "cpu_before",
                     "unpinned_default",
                     "local_build_needs_toolkit",
                     "file_wheel_loads_system",
                     "deps_bring_libraries_from",
                     "companions",
                     "extension_prefixes",
                     "placeholders",
                     "placeholder_error",
                     "retired_for",
                     "retired_since",
                     "source",
                     "confidence",
                     "note"});
    WheelPolicy out;
    auto strings = [&](const char* key) {
        auto node = w.get(key);
        return node ? node->string_array() : std::vector<std::string>{};
    };
    auto flag = [&](const char* key) {
        auto node = w.get(key);
        return node && node->boolean();
    };
    if (auto gpu = w.get("gpu")) {
        out.gpu = gpu->string();
        if (out.gpu != "always" && out.gpu != "never" && out.gpu != "extras" && out.gpu != "url")
            gpu->fail("expected \"always\", \"never\", \"extras\" or \"url\"");
    }
    out.gpu_extras = strings("gpu_extras");
    out.gpu_url_words = strings("gpu_url_words");
    if (out.gpu == "extras" && out.gpu_extras.empty())
        w.at("gpu").fail("\"extras\" needs the gpu_extras that select the GPU build");
    if (out.gpu == "url" && out.gpu_url_words.empty())
        w.at("gpu").fail("\"url\" needs the gpu_url_words that mark the GPU build");
    if (auto libraries = w.get("libraries")) {
        out.libraries = libraries->string();
        if (out.libraries != "system" && out.libraries != "bundled")
            libraries->fail("expected \"system\" or \"bundled\"");
    }
    out.bundled_with_extras = strings("bundled_with_extras");
    out.system_extras = strings("system_extras");
    if (auto from = w.get("bundled_from")) out.bundled_from = read_release(*from);
    out.variants = strings("variants");
    if (auto variants = w.get("variants"))
        for (std::size_t i = 0; i < out.variants.size(); ++i)
            expect_variant(variants->array()[i], out.variants[i]);
    out.default_build = flag("default_build");
    out.any_build = flag("any_build");
    if (auto selected = w.get("selected_by")) out.selected_by = selected->string();
    out.build_decides_cuda = flag("build_decides_cuda");
    out.complete_builds = flag("complete_builds");
    if (auto evidence = w.get("evidence")) out.evidence = evidence->string();
    const bool looks_up =
        !out.variants.empty() || out.default_build || out.any_build || !out.selected_by.empty();
    if (looks_up && out.evidence.empty())
        w.fail("a policy that reads build rows needs the evidence it states");
    out.system_cudnn = flag("system_cudnn");
    if (auto before = w.get("cpu_before")) out.cpu_before = read_release(*before);
    out.unpinned_default = flag("unpinned_default");
    out.local_build_needs_toolkit = flag("local_build_needs_toolkit");
    out.file_wheel_loads_system = flag("file_wheel_loads_system");
    if (auto from = w.get("deps_bring_libraries_from")) {
        out.deps_bring_libraries_from = static_cast<int>(from->integer());
        if (*out.deps_bring_libraries_from < 0)
            from->fail("expected a CUDA major, or 0 for every build");
    }
    out.companions = strings("companions");
    out.extension_prefixes = strings("extension_prefixes");
    out.placeholders = strings("placeholders");
    if (auto error = w.get("placeholder_error")) out.placeholder_error = error->string();
    if (!out.placeholders.empty() && out.placeholder_error.empty())
        w.at("placeholders").fail("placeholders need the placeholder_error pip fails with");
    if (auto retired = w.get("retired_for")) {
        out.retired_for = retired->string();
        out.retired_since = read_release(w.at("retired_since"));
    }
    out.provenance = provenance(w);
    return out;
}

std::vector<PackageSpelling> read_spellings(const JsonNode& array, bool pep503,
                                            const ProvenanceReader& provenance) {
    std::vector<PackageSpelling> out;
    for (const auto& s : array.array()) {
        s.expect_object({"name", "component", "category", "dir", "local_versions", "note",
                         "cuda_libraries", "cuda_extras", "wheel"});
        PackageSpelling spelling{s.at("name").string(),
                                 s.at("component").string(),
                                 s.at("category").string(),
                                 s.at("dir").string(),
                                 {},
                                 {},
                                 {},
                                 {}};
        expect_pattern(s.at("name"), spelling.pattern);
        if (auto tails = s.get("local_versions")) {
            spelling.local_versions = tails->string_array();
            for (std::size_t i = 0; i < spelling.local_versions.size(); ++i)
                expect_pattern(tails->array()[i], spelling.local_versions[i]);
        }
        if (auto extras = s.get("cuda_extras")) {
            spelling.cuda_extras = extras->string_array();
            for (std::size_t i = 0; i < spelling.cuda_extras.size(); ++i)
                expect_pattern(extras->array()[i], spelling.cuda_extras[i]);
        }
        if (auto libraries = s.get("cuda_libraries")) {
            spelling.cuda_libraries = libraries->string();
            if (spelling.cuda_libraries != "system" && spelling.cuda_libraries != "bundled")
                libraries->fail("expected \"system\" or \"bundled\"");
        }
        if (auto wheel = s.get("wheel")) {
            if (!pep503) wheel->fail("a wheel policy belongs to a pip spelling");
            spelling.wheel = read_wheel_policy(*wheel, provenance);
        }
        if (pep503 && !is_normalized(spelling.pattern))
            s.at("name").fail("expected the PEP 503 normalized name");
        if (spelling.component.empty()) s.at("component").fail("expected a component");
        if (spelling.category != "framework" && spelling.category != "cuda-library")
            s.at("category").fail("expected \"framework\" or \"cuda-library\"");
        if (spelling.dir.empty()) s.at("dir").fail("expected the package dir");
        out.push_back(std::move(spelling));
    }
    return out;
}

// An optional {names, source, …} field of a record: the names and their provenance.
void read_named_list(const JsonNode& record, const char* key, const ProvenanceReader& provenance,
                     std::vector<std::string>& names, Provenance& names_provenance) {
    auto node = record.get(key);
    if (!node) return;
    node->expect_object({"names", "source", "confidence", "note"});
    names = node->at("names").string_array();
    names_provenance = provenance(*node);
}

VersionFile read_version_file(const JsonNode& v, const ProvenanceReader& provenance) {
    v.expect_object({"path", "component", "version", "attributes", "source", "confidence", "note"});
    VersionFile file;
    file.path = v.at("path").string();
    if (file.path.empty() || file.path.front() == '/' || file.path.find('/') == std::string::npos)
        v.at("path").fail("expected a path under the package dir: \"torch/version.py\"");
    file.component = v.at("component").string();
    file.version = v.at("version").string_array();
    for (const auto& [attribute, name] : v.at("attributes").members())
        file.attributes.emplace_back(attribute, name.string());
    file.provenance = provenance(v);
    return file;
}

VersionHeader read_version_header(const JsonNode& h, const ProvenanceReader& provenance) {
    h.expect_object({"file", "component", "category", "defines", "source", "confidence", "note"});
    VersionHeader header{h.at("file").string(),
                         h.at("component").string(),
                         h.at("category").string(),
                         h.at("defines").string_array(),
                         {}};
    if (header.file.empty() || header.file.find('/') != std::string::npos)
        h.at("file").fail("expected a header's base name: \"NvInferVersion.h\"");
    if (header.component.empty()) h.at("component").fail("expected a component");
    if (header.category != "framework" && header.category != "cuda-library")
        h.at("category").fail("expected \"framework\" or \"cuda-library\"");
    if (header.defines.empty()) h.at("defines").fail("expected the defines of the version");
    header.provenance = provenance(h);
    return header;
}

// {"path": "torch/lib/libtorch_cuda.so", "source": …}: a path below site-packages.
CatalogPath read_catalog_path(const JsonNode& node, const ProvenanceReader& provenance) {
    node.expect_object({"path", "source", "confidence", "note"});
    CatalogPath out{node.at("path").string(), provenance(node)};
    if (out.path.empty() || out.path.front() == '/' || out.path.back() == '/')
        node.at("path").fail("expected a path below site-packages: \"torch/lib/libtorch_cuda.so\"");
    return out;
}

DockerImage read_docker_image(const JsonNode& node, const ProvenanceReader& provenance) {
    node.expect_object({"repository", "tag_format", "gpu_word", "source", "confidence", "note"});
    DockerImage image{node.at("repository").string(), node.at("tag_format").string(), "", {}};
    if (image.repository.find('/') == std::string::npos)
        node.at("repository")
            .fail(
                "expected a Docker Hub repository (\"pytorch/pytorch\") or one with its registry");
    if (auto word = node.get("gpu_word")) image.gpu_word = word->string();
    if (image.tag_format == "version-word") {
        if (image.gpu_word.empty())
            node.at("tag_format").fail("a \"version-word\" tag needs the gpu_word that marks it");
    } else if (image.tag_format != "version-cuda-cudnn-flavor" && image.tag_format != "unstated") {
        node.at("tag_format")
            .fail("expected \"version-cuda-cudnn-flavor\", \"version-word\" or \"unstated\"");
    }
    image.provenance = provenance(node);
    return image;
}

}  // namespace

FrameworkCatalog read_framework_catalog(const JsonNode& catalog,
                                        const ProvenanceReader& provenance) {
    std::vector<FrameworkRecord> records;
    std::set<std::string, std::less<>> names, installs;
    for (const auto& r : catalog.array()) {
        r.expect_object({"framework",
                         "import_names",
                         "install",
                         "pip",
                         "conda",
                         "version_files",
                         "source",
                         "confidence",
                         "note",
                         "name_words",
                         "version_headers",
                         "env_prefixes",
                         "gpu_library",
                         "cuda_provider",
                         "bundled_headers",
                         "docker_images",
                         "lazy_modules",
                         "pip_indexes",
                         "conda_cuda_selectors",
                         "wheel_hosts",
                         "exclusive_pip",
                         "apt_bindings",
                         "build_variables"});
        FrameworkRecord record;
        record.framework = r.at("framework").string();
        if (record.framework.empty() || !names.insert(record.framework).second)
            r.at("framework").fail("expected a framework name not used before");
        record.import_names = r.at("import_names").string_array();
        if (auto words = r.get("name_words")) record.name_words = words->string_array();
        if (auto install = r.get("install")) {
            record.install = install->string();
            if (record.install.empty() || !installs.insert(record.install).second)
                install->fail("expected an inventory component no other record installs");
        }
        record.pip = read_spellings(r.at("pip"), true, provenance);
        record.conda = read_spellings(r.at("conda"), false, provenance);
        for (const auto& v : r.at("version_files").array())
            record.version_files.push_back(read_version_file(v, provenance));
        if (auto headers = r.get("version_headers"))
            for (const auto& h : headers->array())
                record.version_headers.push_back(read_version_header(h, provenance));
        if (auto env = r.get("env_prefixes")) {
            env->expect_object({"prefixes", "source", "confidence", "note"});
            record.env_prefixes = env->at("prefixes").string_array();
            for (const auto& prefix : record.env_prefixes)
                if (prefix.empty()) env->at("prefixes").fail("expected a variable name's prefix");
            record.env_provenance = provenance(*env);
        }
        if (auto path = r.get("gpu_library"))
            record.gpu_library = read_catalog_path(*path, provenance);
        if (auto path = r.get("cuda_provider"))
            record.cuda_provider = read_catalog_path(*path, provenance);
        if (auto path = r.get("bundled_headers"))
            record.bundled_headers = read_catalog_path(*path, provenance);
        if (auto images = r.get("docker_images"))
            for (const auto& image : images->array())
                record.docker_images.push_back(read_docker_image(image, provenance));
        if (auto modules = r.get("lazy_modules"))
            for (const auto& m : modules->array()) {
                m.expect_object({"path", "api", "since", "source", "confidence", "note"});
                const auto since = Version::parse(m.at("since").string());
                if (!since) m.at("since").fail("expected the first lazy release: \"14.0\"");
                LazyModule module{m.at("path").string(), m.at("api").string(), *since,
                                  provenance(m)};
                if (module.path.empty() || module.path.front() == '/' || module.api.empty())
                    m.at("path").fail("expected a module path below site-packages and its API");
                record.lazy_modules.push_back(std::move(module));
            }
        if (auto indexes = r.get("pip_indexes"))
            for (const auto& index : indexes->array()) {
                index.expect_object({"url", "source", "confidence", "note"});
                IndexUrl url{index.at("url").string(), provenance(index)};
                expect_pattern(index.at("url"), url.pattern);
                if (url.pattern.find("{cuda") == std::string::npos)
                    index.at("url").fail("expected a {cuda_major} or {cuda_nodot} placeholder");
                record.pip_indexes.push_back(std::move(url));
            }
        read_named_list(r, "conda_cuda_selectors", provenance, record.conda_cuda_selectors,
                        record.conda_cuda_provenance);
        read_named_list(r, "build_variables", provenance, record.build_variables,
                        record.build_variables_provenance);
        if (auto hosts = r.get("wheel_hosts")) {
            hosts->expect_object({"hosts", "source", "confidence", "note"});
            record.wheel_hosts = hosts->at("hosts").string_array();
            record.wheel_hosts_provenance = provenance(*hosts);
        }
        if (auto exclusive = r.get("exclusive_pip")) {
            exclusive->expect_object({"names", "module", "loses", "source", "confidence", "note"});
            record.exclusive_pip = exclusive->at("names").string_array();
            if (record.exclusive_pip.size() < 2)
                exclusive->at("names").fail("expected the packages that install one module");
            record.exclusive_module = exclusive->at("module").string();
            record.exclusive_loses = exclusive->at("loses").string();
            record.exclusive_provenance = provenance(*exclusive);
        }
        read_named_list(r, "apt_bindings", provenance, record.apt_bindings, record.apt_provenance);
        record.provenance = provenance(r);
        records.push_back(std::move(record));
    }
    return FrameworkCatalog(std::move(records));
}

}  // namespace cuvet::rules::detail
