// Loading and validating rules/*.json into Database (schema: rules/SCHEMA.md).
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "by_name_loads_reader.hpp"
#include "cudnn_sub_libraries_reader.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/rules/embedded.hpp"
#include "json_node.hpp"
#include "table_loaders.hpp"

namespace cuvet::rules {

using detail::JsonNode;

namespace detail {

SourceMap read_sources(const JsonNode& root) {
    SourceMap sources;
    for (const auto& [key, node] : root.at("sources").members()) {
        node.expect_object({"url", "title"});
        Source source{node.at("url").string(), node.at("title").string()};
        if (source.url.empty()) node.at("url").fail("expected a non-empty URL");
        if (source.title.empty()) node.at("title").fail("expected a non-empty title");
        sources.emplace(key, std::move(source));
    }
    return sources;
}

Provenance read_provenance(const JsonNode& fact, const std::string& table,
                           const SourceMap& sources) {
    Provenance p;
    p.table = table;
    JsonNode source = fact.at("source");
    p.source_key = source.string();
    auto it = sources.find(p.source_key);
    if (it == sources.end()) source.fail("unknown source '" + p.source_key + "' (not in /sources)");
    p.source = it->second;
    if (auto confidence = fact.get("confidence")) {
        p.confidence = confidence->string();
        static const std::vector<std::string> allowed = {"secondary", "observed", "B", "C"};
        if (std::find(allowed.begin(), allowed.end(), p.confidence) == allowed.end()) {
            confidence->fail("expected one of \"secondary\", \"observed\", \"B\", \"C\"");
        }
    }
    p.note = fact.optional_string("note");
    return p;
}

}  // namespace detail

namespace {

using detail::read_provenance;
using detail::read_sources;
using detail::SourceMap;

// Parses a file's text; a syntax error names the line.
nlohmann::json parse_json(const Database::File& file) {
    try {
        return nlohmann::json::parse(file.text);
    } catch (const nlohmann::json::parse_error& e) {
        std::size_t byte = std::min<std::size_t>(e.byte, file.text.size());
        std::size_t line = 1 + std::count(file.text.begin(), file.text.begin() + byte, '\n');
        fail_input(file.origin + ": line " + std::to_string(line) + ": invalid JSON (" +
                   std::string(e.what()) + ")");
    }
}

// "2026.11.23-3" → "2026-11-23": data_version starts with the day the facts were checked.
std::string data_date(const std::string& data_version) {
    if (data_version.size() < 10 || data_version[4] != '.' || data_version[7] != '.') return {};
    for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
        if (data_version[i] < '0' || data_version[i] > '9') return {};
    }
    std::string date = data_version.substr(0, 10);
    date[4] = date[7] = '-';
    return date;
}

}  // namespace

class Loader {
public:
    Loader(Database& db, const JsonNode& root, std::string table)
        : db_(db), root_(root), table_(std::move(table)), sources_(read_sources(root)) {}

    Provenance provenance(const JsonNode& fact) const {
        return read_provenance(fact, table_, sources_);
    }

    std::size_t load() {
        if (table_ == "cuda_drivers") return cuda_drivers();
        if (table_ == "cudnn") return cudnn();
        if (table_ == "frameworks") return frameworks();
        if (table_ == "gpus") return gpus();
        if (table_ == "sonames") return sonames();
        detail::ProvenanceReader reader = [this](const JsonNode& fact) { return provenance(fact); };
        if (table_ == "python_packages")
            return detail::load_python_packages(root_, reader, db_.python_packages_);
        if (table_ == "ngc_containers")
            return detail::load_ngc_containers(root_, reader, db_.ngc_containers_);
        if (table_ == "nccl")
            return detail::load_nccl(root_, reader, db_.nccl_releases_, db_.nccl_pins_);
        if (table_ == "kernel_compilers")
            return detail::load_kernel_compilers(root_, reader, db_.kernel_compilers_);
        return nvidia_cuda_tags();
    }

private:
    std::size_t cuda_drivers() {
        root_.expect_object({"table", "data_version", "description", "sources", "entries",
                             "minor_version_compatibility", "forward_compatibility"});
        for (const auto& e : root_.at("entries").array()) {
            e.expect_object({"cuda", "release", "min_driver", "source", "confidence", "note"});
            db_.drivers_.push_back({e.at("cuda").version(), e.at("release").string(),
                                    e.at("min_driver").nullable_version(), provenance(e)});
        }
        for (const auto& e : root_.at("minor_version_compatibility").array()) {
            e.expect_object({"cuda_major", "min_driver", "source", "confidence", "note"});
            db_.minor_compat_.push_back({e.at("cuda_major").integer(),
                                         e.at("min_driver").nullable_version(), provenance(e)});
        }
        JsonNode fc = root_.at("forward_compatibility");
        fc.expect_object(
            {"package", "path", "datacenter_gpus_only", "source", "confidence", "note"});
        db_.forward_compat_ = {fc.at("package").string(), fc.at("path").string(),
                               fc.at("datacenter_gpus_only").boolean(), provenance(fc)};
        return db_.drivers_.size() + db_.minor_compat_.size() + 1;
    }

    std::size_t cudnn() {
        root_.expect_object({"table", "data_version", "description", "sources", "version_encoding",
                             "sonames", "releases", "apt_newest", "notes"});
        std::size_t facts = 0;
        for (const auto& e : root_.at("version_encoding").array()) {
            e.expect_object({"majors", "formula", "example", "source", "confidence", "note"});
            std::string formula = e.at("formula").string();
            if (formula != "major*10000+minor*100+patch" &&
                formula != "major*1000+minor*100+patch") {
                e.at("formula").fail("unsupported formula '" + formula + "'");
            }
            db_.cudnn_encodings_.push_back({e.at("majors").int_array(), formula, provenance(e)});
            ++facts;
        }
        for (const auto& e : root_.at("sonames").array()) {
            e.expect_object({"major", "main", "libraries", "sub_libraries_must_match", "source",
                             "confidence", "note", "statuses", "sub_library_uses",
                             "consumer_needs"});
            CudnnSonames s{e.at("major").integer(), e.at("main").string(),
                           e.at("libraries").string_array(),
                           e.at("sub_libraries_must_match").boolean(), provenance(e)};
            // Validated here; read where they are used (cuvet/rules/cudnn_sub_libraries.hpp).
            detail::read_cudnn_sub_libraries(
                e, s.libraries, [this](const JsonNode& fact) { return provenance(fact); });
            if (std::find(s.libraries.begin(), s.libraries.end(), s.main) == s.libraries.end()) {
                e.at("main").fail("'" + s.main + "' is not among /libraries");
            }
            db_.cudnn_sonames_.push_back(std::move(s));
            ++facts;
        }
        for (const auto& r : root_.at("releases").array()) {
            r.expect_object({"version", "builds", "source", "confidence", "note"});
            CudnnRelease release{r.at("version").version(), {}, provenance(r)};
            for (const auto& b : r.at("builds").array()) release.builds.push_back(cudnn_build(b));
            facts += release.builds.size();
            db_.cudnn_releases_.push_back(std::move(release));
        }
        if (auto apt = root_.get("apt_newest")) {
            for (const auto& e : apt->array()) {
                e.expect_object({"package", "distros", "version", "cuda_major", "source",
                                 "confidence", "note"});
                CudnnAptNewest row{e.at("package").string(), e.at("distros").string_array(),
                                   e.at("version").string(), e.at("cuda_major").integer(),
                                   provenance(e)};
                // The Debian version states the build's CUDA (+cuda12.2): it must agree.
                const auto plus = row.version.find("+cuda");
                if (plus == std::string::npos ||
                    !row.version.substr(plus + 5).starts_with(std::to_string(row.cuda_major) + "."))
                    e.at("version").fail("'" + row.version + "' does not name a CUDA " +
                                         std::to_string(row.cuda_major) + " build (+cudaN.M)");
                db_.cudnn_apt_newest_.push_back(std::move(row));
                ++facts;
            }
        }
        if (auto notes = root_.get("notes")) {
            for (const auto& n : notes->array()) {
                n.expect_object({"text", "source", "confidence"});
                n.at("text").string();
                provenance(n);
            }
        }
        return facts;
    }

    CudnnBuild cudnn_build(const JsonNode& b) {
        b.expect_object({"cuda_major", "cuda", "min_driver", "compute_capabilities",
                         "min_compute_capability", "note"});
        CudnnBuild build;
        build.cuda_major = b.at("cuda_major").integer();
        build.cuda = b.at("cuda").version_array();
        for (std::size_t i = 0; i < build.cuda.size(); ++i) {
            if (build.cuda[i].major() != build.cuda_major) {
                b.at("cuda").array()[i].fail("CUDA " + build.cuda[i].str() + " is not of major " +
                                             std::to_string(build.cuda_major));
            }
        }
        build.min_driver = b.at("min_driver").nullable_version();
        JsonNode cc = b.at("compute_capabilities");
        if (!cc.is_null()) build.compute_capabilities = cc.version_array();
        if (auto floor = b.get("min_compute_capability"))
            build.min_compute_capability = floor->version();
        build.note = b.optional_string("note");
        return build;
    }

    std::size_t frameworks() {
        detail::ProvenanceReader reader = [this](const JsonNode& fact) { return provenance(fact); };
        return detail::load_frameworks(root_, reader, db_.frameworks_, db_.cudnn_load_rules_,
                                       db_.framework_errors_, db_.framework_catalog_);
    }

    std::size_t gpus() {
        root_.expect_object(
            {"table", "data_version", "description", "sources", "fatbin_rules", "entries"});
        JsonNode rules = root_.at("fatbin_rules");
        rules.expect_object({"sass", "ptx", "arch_specific", "source", "confidence", "note"});
        provenance(rules);
        for (const auto& e : root_.at("entries").array()) {
            e.expect_object({"compute_capability", "architecture", "products", "first_cuda",
                             "arch_specific_first_cuda", "last_cuda", "source", "confidence",
                             "note"});
            GpuArch gpu;
            gpu.compute_capability = e.at("compute_capability").version();
            if (gpu.compute_capability.size() != 2) {
                e.at("compute_capability").fail("expected major.minor, e.g. \"8.6\"");
            }
            gpu.architecture = e.at("architecture").string();
            gpu.products = e.at("products").string_array();
            gpu.first_cuda = e.at("first_cuda").nullable_version();
            if (e.has("arch_specific_first_cuda"))
                gpu.arch_specific_first_cuda = e.at("arch_specific_first_cuda").nullable_version();
            JsonNode last = e.at("last_cuda");
            // "current" is the one non-version value allowed here.
            if (last.is_string() && last.string() == "current")
                gpu.still_supported = true;
            else
                gpu.last_cuda = last.nullable_version();
            gpu.provenance = provenance(e);
            db_.gpus_.push_back(std::move(gpu));
        }
        return db_.gpus_.size();
    }

    std::size_t sonames() {
        root_.expect_object(
            {"table", "data_version", "description", "sources", "by_name_loads", "entries"});
        // Validated here, read by by_name_loads() for the check that needs them.
        if (auto loads = root_.get("by_name_loads"))
            detail::read_by_name_loads(*loads, [this](const JsonNode& f) { return provenance(f); });
        for (const auto& e : root_.at("entries").array()) {
            e.expect_object({"library", "soname", "cuda_majors", "source", "confidence", "note"});
            SonameFact fact;
            fact.library = e.at("library").string();
            fact.soname = e.at("soname").string();
            if (fact.soname.rfind("lib", 0) != 0 || fact.soname.find(".so") == std::string::npos) {
                e.at("soname").fail("expected a soname like \"libcudart.so.12\"");
            }
            JsonNode majors = e.at("cuda_majors");
            if (majors.is_null())
                fact.any_cuda_major = true;
            else
                fact.cuda_majors = majors.int_array();
            fact.provenance = provenance(e);
            db_.sonames_.push_back(std::move(fact));
        }
        return db_.sonames_.size();
    }

    std::size_t nvidia_cuda_tags() {
        root_.expect_object({"table", "data_version", "description", "sources", "tag_pattern",
                             "cudnn_flavors", "published", "deleted", "deleted_tag_forms",
                             "image_env"});
        JsonNode pattern = root_.at("tag_pattern");
        pattern.expect_object({"pattern", "flavors", "source", "confidence", "note"});
        pattern.at("pattern").string();
        pattern.at("flavors").string_array();
        provenance(pattern);
        for (const auto& e : root_.at("cudnn_flavors").array()) {
            e.expect_object({"cuda_min", "cuda_max", "flavor_prefix", "cudnn_major", "source",
                             "confidence", "note"});
            CudnnFlavor flavor{e.at("cuda_min").version(), e.at("cuda_max").version(),
                               e.at("flavor_prefix").string(), e.at("cudnn_major").integer(),
                               provenance(e)};
            if (flavor.cuda_max < flavor.cuda_min)
                e.at("cuda_max").fail("cuda_max is below cuda_min");
            db_.cudnn_flavors_.push_back(std::move(flavor));
        }
        for (const auto& e : root_.at("published").array()) {
            e.expect_object(
                {"cuda", "support", "complete", "tags", "source", "confidence", "note"});
            CudaImageTags row = cuda_image_tags(e);
            JsonNode support = e.at("support");
            if (!support.is_null()) {
                row.support = support.string();
                if (row.support != "supported" && row.support != "end_of_life") {
                    support.fail("expected \"supported\", \"end_of_life\" or null");
                }
            }
            row.complete = e.at("complete").boolean();
            db_.cuda_image_tags_.push_back(std::move(row));
        }
        for (const auto& e : root_.at("deleted").array()) {
            e.expect_object({"cuda", "replacement", "tags", "source", "confidence", "note"});
            CudaImageTags row = cuda_image_tags(e);
            row.replacement = e.at("replacement").version().str();
            db_.deleted_cuda_image_tags_.push_back(std::move(row));
        }
        for (const auto& e : root_.at("deleted_tag_forms").array()) {
            e.expect_object({"form", "source", "confidence", "note"});
            std::string form = e.at("form").string();
            if (form != "latest" && form != "without_os" && form != "superseded_by_update") {
                e.at("form").fail(
                    "expected \"latest\", \"without_os\" or \"superseded_by_update\"");
            }
            db_.deleted_cuda_tag_forms_.emplace_back(form, provenance(e));
        }
        for (const auto& e : root_.at("image_env").array()) {
            e.expect_object({"name", "meaning", "source", "confidence", "note"});
            db_.image_env_.push_back(
                {e.at("name").string(), e.at("meaning").string(), provenance(e)});
        }
        return db_.cudnn_flavors_.size() + db_.cuda_image_tags_.size() +
               db_.deleted_cuda_image_tags_.size() + db_.deleted_cuda_tag_forms_.size() +
               db_.image_env_.size() + 1;
    }

    // The fields published and deleted rows share: the release and its tags per OS.
    CudaImageTags cuda_image_tags(const JsonNode& e) const {
        CudaImageTags row;
        row.cuda = e.at("cuda").version().str();
        for (const auto& [os, flavors] : e.at("tags").members()) {
            if (os.empty() || os.find('-') != std::string::npos) {
                flavors.fail("expected an OS name like \"ubuntu22.04\"");
            }
            row.tags.emplace_back(os, flavors.string_array());
        }
        row.provenance = provenance(e);
        return row;
    }

    Database& db_;
    const JsonNode& root_;
    std::string table_;
    SourceMap sources_;
};

const std::vector<std::string>& Database::table_names() {
    static const std::vector<std::string> names = {
        "cuda_drivers", "cudnn",           "frameworks",     "gpus", "nvidia_cuda_tags",
        "sonames",      "python_packages", "ngc_containers", "nccl", "kernel_compilers"};
    return names;
}

Database Database::from_files(const std::vector<File>& files) {
    Database db;
    std::map<std::string, const File*> by_table;
    for (const auto& file : files) {
        std::string stem = file.name.size() > 5 && file.name.ends_with(".json")
                               ? file.name.substr(0, file.name.size() - 5)
                               : file.name;
        const auto& names = table_names();
        if (std::find(names.begin(), names.end(), stem) == names.end()) {
            std::string known;
            for (const auto& name : names) known += (known.empty() ? "" : ", ") + name;
            fail_input(file.origin + ": unknown rules table '" + stem + "' (known: " + known + ")");
        }
        by_table[stem] = &file;
    }
    for (const auto& name : table_names()) {
        auto it = by_table.find(name);
        if (it == by_table.end()) fail_input("rules: table '" + name + ".json' is missing");
        const File& file = *it->second;
        nlohmann::json json = parse_json(file);
        JsonNode root(json, "", file.origin);
        if (root.at("table").string() != name) {
            root.at("table").fail("expected \"" + name + "\" (the file name)");
        }
        TableInfo info;
        info.name = name;
        info.origin = file.origin;
        info.data_version = root.at("data_version").string();
        if (info.data_version.empty()) root.at("data_version").fail("expected a non-empty string");
        info.description = root.at("description").string();
        Loader loader(db, root, name);
        info.facts = loader.load();
        info.newest = db.newest_entry(name);
        info.data_date = data_date(info.data_version);
        db.tables_.push_back(std::move(info));
    }
    return db;
}

Database Database::load(const std::optional<std::filesystem::path>& rules_dir) {
    std::vector<File> files;
    for (const auto& [name, text] : embedded_rule_files()) {
        files.push_back(
            {std::string(name), std::string(text), "rules/" + std::string(name) + " (built-in)"});
    }
    if (rules_dir) {
        std::error_code ec;
        if (!std::filesystem::is_directory(*rules_dir, ec)) {
            fail_io("--rules-dir " + rules_dir->string() + ": not a directory");
        }
        for (const auto& entry : std::filesystem::directory_iterator(*rules_dir)) {
            if (entry.path().extension() != ".json") continue;
            std::ifstream in(entry.path(), std::ios::binary);
            if (!in) fail_io(entry.path().string() + ": cannot read");
            std::ostringstream text;
            text << in.rdbuf();
            std::string name = entry.path().filename().string();
            File override_file{name, text.str(), entry.path().string()};
            auto it = std::find_if(files.begin(), files.end(),
                                   [&](const File& f) { return f.name == name; });
            if (it != files.end())
                *it = std::move(override_file);
            else
                files.push_back(std::move(override_file));
        }
    }
    return from_files(files);
}

}  // namespace cuvet::rules
