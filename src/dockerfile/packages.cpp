#include "dockerfile/packages.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "cuvet/core/path_text.hpp"
#include "cuvet/rules/framework_catalog.hpp"

namespace cuvet::dockerfile::detail {
namespace {

std::string lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

bool all_digits(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
    });
}

// "pip", "pip3", "pip3.11"
bool is_pip(const std::string& word) {
    std::string b(base_name(word));
    if (!b.starts_with("pip")) return false;
    std::string_view rest = std::string_view(b).substr(3);
    return rest.empty() || std::all_of(rest.begin(), rest.end(), [](char c) {
               return std::isdigit(static_cast<unsigned char>(c)) || c == '.';
           });
}

bool is_python(const std::string& word) {
    std::string b(base_name(word));
    if (!b.starts_with("python")) return false;
    std::string_view rest = std::string_view(b).substr(6);
    return std::all_of(rest.begin(), rest.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == '.';
    });
}

// "…/whl/cu121", "…/whl/nightly/cu124/", "…/whl/cpu" → "12.1" / "cpu".
std::string cuda_from_index(std::string_view url) {
    // A framework's own CUDA feeds (rules/frameworks.json, pip_indexes):
    // …/_packaging/onnxruntime-cuda-12/pypi/simple/ → "12".
    if (auto stated = rules::builtin_framework_catalog().index_cuda(url)) return stated->cuda;
    while (!url.empty() && url.back() == '/') url.remove_suffix(1);
    auto slash = url.rfind('/');
    std::string_view last = slash == std::string_view::npos ? url : url.substr(slash + 1);
    if (last == "cpu") return "cpu";
    if (last.ends_with(".html")) {  // -f https://download.pytorch.org/whl/cu118/torch_stable.html
        url = url.substr(0, slash == std::string_view::npos ? 0 : slash);
        slash = url.rfind('/');
        last = slash == std::string_view::npos ? url : url.substr(slash + 1);
    }
    return cuda_from_tag(last);
}

std::string normalise_pip_name(std::string name) {
    name = lower(std::move(name));
    for (char& c : name) {
        if (c == '_' || c == '.') c = '-';
    }
    return name;
}

// The CUDA a pip package name or local version implies.
void pip_cuda(Package& p) {
    if (auto plus = p.version.find('+'); plus != std::string::npos) {
        std::string local = p.version.substr(plus + 1);
        // The local version's first segment (0.3.24+cu124.basic: a fork's CUDA 12.4 wheel).
        if (std::string cuda = cuda_from_tag(local.substr(0, local.find('.'))); !cuda.empty()) {
            p.cuda = cuda;
            p.cuda_evidence = "local version +" + local;
            return;
        }
        if (local == "cpu") {
            p.cuda = "cpu";
            p.cuda_evidence = "local version +cpu";
            return;
        }
    }
    const std::string& n = p.name;
    // A framework's own spellings (rules/frameworks.json, catalog): a version tail
    // (+cuda12.cudnn89, .post120), else the name (cupy-cuda12x, mxnet-cu112).
    const auto spelled = rules::builtin_framework_catalog().pip(n);
    if (spelled) {
        if (auto local = rules::FrameworkCatalog::local_version_cuda(*spelled, p.version)) {
            p.cuda = local->cuda;
            p.cuda_evidence =
                (local->tail.starts_with("+") ? "local version " : "version suffix ") + local->tail;
            return;
        }
        if (!spelled->cuda.empty()) {
            p.cuda = spelled->cuda;
            p.cuda_evidence = "package name " + n;
            return;
        }
    }
    // NVIDIA's -cuNN wheels, and a catalog package of that form whose spelling keeps the
    // digits as {n} (tensorrt-cu12-libs): the suffix is the CUDA major.
    for (std::string suffix : {"-cu11", "-cu12", "-cu13"}) {
        if (n.ends_with(suffix) && (n.starts_with("nvidia-") || spelled)) {
            p.cuda = suffix.substr(3);
            p.cuda_evidence = "package name " + n;
            return;
        }
    }
    // jax[cuda12], jax[cuda12_pip], jax[cuda11_local]: the spelling's cuda_extras.
    if (spelled) {
        if (auto extra = rules::FrameworkCatalog::extras_cuda(*spelled, p.extras)) {
            p.cuda = extra->cuda;
            p.cuda_evidence = "extra [" + p.extras + "]";
        }
    }
}

// name[extras]<spec>; markers (after ';') are dropped.
bool split_requirement(std::string word, Package& p) {
    if (auto semi = word.find(';'); semi != std::string::npos) word.resize(semi);
    word.erase(
        std::remove_if(word.begin(), word.end(), [](char c) { return c == ' ' || c == '\t'; }),
        word.end());
    // A project name starts with a letter or digit: ".[cuda]" and "./pkg" are local paths.
    if (word.empty() || !std::isalnum(static_cast<unsigned char>(word[0]))) return false;
    std::size_t i = 0;
    while (i < word.size() && (std::isalnum(static_cast<unsigned char>(word[i])) ||
                               word[i] == '-' || word[i] == '_' || word[i] == '.')) {
        ++i;
    }
    if (i == 0) return false;
    // bagua-cuda$CUDA_VERSION_BAGUA: a CUDA build whose number the shell fills in.
    const std::string stem = lower(word.substr(0, i));
    const std::size_t stem_end = i;
    if (i < word.size() && word[i] == '$' && (stem.ends_with("-cuda") || stem.ends_with("-cu"))) {
        std::size_t end = i + 1;
        if (end < word.size() && word[end] == '{') {
            end = word.find('}', end);
            if (end == std::string::npos) return false;
            ++end;
        } else {
            while (end < word.size() &&
                   (std::isalnum(static_cast<unsigned char>(word[end])) || word[end] == '_'))
                ++end;
        }
        i = end;
    }
    p.name = normalise_pip_name(word.substr(0, stem_end)) + word.substr(stem_end, i - stem_end);
    if (i < word.size() && word[i] == '[') {
        auto close = word.find(']', i);
        if (close == std::string::npos) return false;
        p.extras = lower(word.substr(i + 1, close - i - 1));
        i = close + 1;
    }
    p.spec = word.substr(i);
    if (!p.spec.empty() && std::string("=<>!~@").find(p.spec[0]) == std::string::npos) return false;
    if ((p.spec.starts_with("==") || p.spec.starts_with("===")) &&
        p.spec.find_first_of("*,") == std::string::npos) {
        p.version = p.spec.substr(p.spec.starts_with("===") ? 3 : 2);
        p.pinned = !p.version.empty();
    } else if (p.spec.starts_with("@")) {
        p.pinned = true;  // a direct URL reference names one artifact
    }
    return true;
}

// torch-2.1.0+cu121-cp310-cp310-linux_x86_64.whl (also as the last URL segment)
bool read_wheel_name(const std::string& word, Package& p) {
    std::string file(base_name(word));
    if (!file.ends_with(".whl")) return false;
    auto first = file.find('-');
    auto second = file.find('-', first + 1);
    if (first == std::string::npos || second == std::string::npos) return false;
    p.name = normalise_pip_name(file.substr(0, first));
    p.version = file.substr(first + 1, second - first - 1);
    for (auto pos = p.version.find("%2B"); pos != std::string::npos; pos = p.version.find("%2B")) {
        p.version.replace(pos, 3, "+");
    }
    p.spec = "==" + p.version;
    p.pinned = true;
    return true;
}

std::string join_words(const std::vector<std::string>& words, std::size_t from) {
    std::string text;
    for (std::size_t i = from; i < words.size(); ++i) text += (text.empty() ? "" : " ") + words[i];
    return text;
}

// `$(find /tmp/tensorflow-wheel -name '*.whl' -print -quit)[and-cuda]`, a wheel a find picks
// from a directory (often one a build stage filled): read it as the glob it stands for,
// /tmp/tensorflow-wheel/*.whl, so the directory's name can say which framework it is. Its
// extras are dropped: on a file the linter cannot read they select nothing it could check.
std::string wheel_found_by_find(const std::string& word) {
    if (!word.starts_with("$(find ")) return word;
    const auto close = word.find(')');
    if (close == std::string::npos) return word;
    std::vector<std::string> args;
    std::size_t start = 7;
    while (start < close) {
        auto end = word.find(' ', start);
        if (end == std::string::npos || end > close) end = close;
        std::string arg = word.substr(start, end - start);
        if (arg.size() >= 2 && (arg.front() == '\'' || arg.front() == '"') &&
            arg.back() == arg.front())
            arg = arg.substr(1, arg.size() - 2);
        if (!arg.empty()) args.push_back(arg);
        start = end + 1;
    }
    if (args.empty() || args[0].starts_with("-")) return word;
    for (std::size_t i = 1; i + 1 < args.size(); ++i) {
        if ((args[i] == "-name" || args[i] == "-iname") && args[i + 1].ends_with(".whl")) {
            std::string dir = args[0];
            while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
            return dir + "/" + args[i + 1];
        }
    }
    return word;
}

// What an install argument the linter cannot look into is, for the report.
std::string opaque_kind(const std::string& word) {
    // `for req in …; do pip install $req`: a loop variable, not a project directory.
    if (word.starts_with("$")) return "shell variable";
    if (word.starts_with("git+") || word.find("@git+") != std::string::npos ||
        word.find("@ git+") != std::string::npos) {
        return "git URL";
    }
    if (word.find("://") != std::string::npos) return "URL";
    if (word.ends_with(".whl")) return "local wheel";
    if (word.ends_with(".tar.gz") || word.ends_with(".zip")) return "local archive";
    return "local project";
}

const std::set<std::string> pip_valued_options = {"-r",
                                                  "--requirement",
                                                  "-c",
                                                  "--constraint",
                                                  "-e",
                                                  "--editable",
                                                  "-i",
                                                  "--index-url",
                                                  "--extra-index-url",
                                                  "-f",
                                                  "--find-links",
                                                  "-t",
                                                  "--target",
                                                  "--prefix",
                                                  "--root",
                                                  "--platform",
                                                  "--python-version",
                                                  "--implementation",
                                                  "--abi",
                                                  "--no-binary",
                                                  "--only-binary",
                                                  "--progress-bar",
                                                  "--src",
                                                  "--upgrade-strategy",
                                                  "--trusted-host",
                                                  "--cache-dir",
                                                  "--log",
                                                  "--proxy",
                                                  "--retries",
                                                  "--timeout",
                                                  "--cert",
                                                  "--client-cert",
                                                  "--global-option",
                                                  "--config-settings",
                                                  "-C",
                                                  "--report",
                                                  "--exists-action",
                                                  "--python",
                                                  "--index-strategy",
                                                  "--extra-index",
                                                  "--default-index"};

void read_pip(const std::vector<std::string>& args, std::size_t start, const Package& tmpl,
              CommandFacts& out) {
    // pip [global options] install [options] requirement…
    std::size_t i = start;
    while (i < args.size() && args[i].starts_with("-"))
        i += pip_valued_options.count(args[i]) ? 2 : 1;
    if (i < args.size() && args[i] == "sync") {  // uv pip sync requirements.txt
        for (++i; i < args.size(); ++i) {
            if (!args[i].starts_with("-"))
                out.requirements.push_back({Manager::pip, args[i], tmpl.line, "requirements file"});
        }
        return;
    }
    if (i >= args.size() || args[i] != "install") return;
    ++i;
    std::vector<std::string> specs;
    std::vector<std::string> index_urls;
    bool replaces_pypi = false;
    bool no_deps = false;
    const std::size_t first_requirement = out.requirements.size();
    for (; i < args.size(); ++i) {
        std::string a = args[i];
        if (a == "--no-deps" || a == "--no-dependencies") no_deps = true;
        std::string option, value;
        if (a.starts_with("--") && a.find('=') != std::string::npos) {
            option = a.substr(0, a.find('='));
            value = a.substr(a.find('=') + 1);
        } else if (pip_valued_options.count(a)) {
            option = a;
            value = i + 1 < args.size() ? args[++i] : "";
        } else if (a.size() > 2 && a[0] == '-' && a[1] != '-' &&
                   std::string("rcief").find(a[1]) != std::string::npos) {
            option = a.substr(0, 2);  // -rrequirements.txt, -ihttps://…
            value = a.substr(2);
        } else if (a.starts_with("-")) {
            continue;
        } else {
            specs.push_back(a);
            continue;
        }
        if (option == "-r" || option == "--requirement" || option == "-c" ||
            option == "--constraint") {
            RequirementsFile r{Manager::pip, value, tmpl.line};
            r.constraints = option == "-c" || option == "--constraint";
            out.requirements.push_back(std::move(r));
        } else if (option == "-e" || option == "--editable") {
            out.requirements.push_back({Manager::pip, value, tmpl.line, opaque_kind(value)});
        } else if (option == "-i" || option == "--index-url" || option == "--default-index") {
            index_urls.push_back(value);
            replaces_pypi = true;
        } else if (option == "--extra-index-url" || option == "-f" || option == "--find-links" ||
                   option == "--extra-index") {
            index_urls.push_back(value);
        }
    }
    for (std::size_t r = first_requirement; r < out.requirements.size(); ++r) {
        if (out.requirements[r].kind == "requirements file")
            out.requirements[r].index_urls = index_urls;
    }
    std::string index_cuda, index_url;
    for (const auto& url : index_urls) {
        if (std::string cuda = cuda_from_index(url); !cuda.empty()) {
            index_cuda = cuda;
            index_url = url;
        }
    }
    for (const auto& written : specs) {
        const std::string spec = wheel_found_by_find(written);
        Package p = tmpl;
        p.manager = Manager::pip;
        p.word = spec;
        if (!read_wheel_name(spec, p)) {
            if (!split_requirement(spec, p) || p.spec.starts_with("@")) {
                // A local path, URL or git requirement: nothing to know without the file.
                out.requirements.push_back({Manager::pip, spec, tmpl.line, opaque_kind(spec)});
                continue;
            }
        }
        p.index_url = index_url.empty() && !index_urls.empty() ? index_urls.front() : index_url;
        p.no_deps = no_deps;
        pip_cuda(p);
        if (p.cuda.empty() && !index_cuda.empty()) {
            p.cuda = index_cuda;
            p.cuda_evidence = "index URL " + index_url;
            p.pypi_also = !replaces_pypi;
        }
        out.packages.push_back(std::move(p));
    }
    for (std::size_t r = first_requirement; r < out.requirements.size(); ++r)
        out.requirements[r].no_deps = no_deps;
}

const std::set<std::string> conda_valued_options = {
    "-c", "--channel",     "-n",         "--name",  "-p", "--prefix", "--file",
    "-f", "--repodata-fn", "--platform", "--subdir"};

void conda_cuda(Package& p) {
    // CUDA's own conda packages here; a framework's CUDA selectors (pytorch-cuda) are the
    // catalog's conda_cuda_selectors.
    static const std::set<std::string> cuda_packages = {
        "cudatoolkit", "cuda-version", "cuda-toolkit",   "cuda-runtime",
        "cuda-cudart", "cuda",         "cuda-libraries", "cuda-nvcc"};
    std::string version = p.spec;
    while (!version.empty() && std::string("=<>!~").find(version[0]) != std::string::npos) {
        version.erase(0, 1);
    }
    std::string build;
    if (auto eq = version.find('='); eq != std::string::npos) {
        build = version.substr(eq + 1);
        version.resize(eq);
    }
    const bool selects_cuda = cuda_packages.count(p.name) ||
                              rules::builtin_framework_catalog().is_conda_cuda_selector(p.name);
    if (selects_cuda && !version.empty() && p.spec[0] == '=') {
        while (!version.empty() && (version.back() == '*' || version.back() == '.'))
            version.pop_back();
        p.cuda = version;
        p.cuda_evidence = p.name + p.spec;
    } else if (auto pos = build.find("cuda"); pos != std::string::npos) {
        std::string v;
        for (std::size_t i = pos + 4;
             i < build.size() &&
             (std::isdigit(static_cast<unsigned char>(build[i])) || build[i] == '.');
             ++i) {
            v += build[i];
        }
        if (!v.empty() && v.find('.') == std::string::npos && v.size() >= 3)
            v = cuda_from_tag("cu" + v);
        if (!v.empty()) {
            p.cuda = v;
            p.cuda_evidence = "build string " + build;
        }
    }
}

void read_conda(const std::vector<std::string>& args, std::size_t start, const Package& tmpl,
                CommandFacts& out) {
    std::size_t i = start;
    while (i < args.size() && args[i].starts_with("-")) ++i;
    if (i >= args.size()) return;
    const std::string sub = args[i];
    if (sub == "env" && i + 1 < args.size() &&
        (args[i + 1] == "create" || args[i + 1] == "update")) {
        for (std::size_t j = i + 2; j < args.size(); ++j) {
            if ((args[j] == "-f" || args[j] == "--file") && j + 1 < args.size()) {
                out.requirements.push_back({Manager::conda, args[j + 1], tmpl.line});
            } else if (args[j].starts_with("--file=")) {
                out.requirements.push_back({Manager::conda, args[j].substr(7), tmpl.line});
            }
        }
        return;
    }
    if (sub == "config") {
        for (std::size_t j = i + 1; j + 2 < args.size(); ++j) {
            if ((args[j] == "--add" || args[j] == "--append" || args[j] == "--prepend") &&
                args[j + 1] == "channels") {
                out.conda_channels.push_back(args[j + 2]);
            }
        }
        return;
    }
    if (sub != "install" && sub != "create" && sub != "update" && sub != "upgrade") return;
    std::vector<std::string> channels;
    std::vector<std::string> specs;
    for (++i; i < args.size(); ++i) {
        const std::string& a = args[i];
        std::string option, value;
        if (a.starts_with("--") && a.find('=') != std::string::npos) {
            option = a.substr(0, a.find('='));
            value = a.substr(a.find('=') + 1);
        } else if (conda_valued_options.count(a)) {
            option = a;
            value = i + 1 < args.size() ? args[++i] : "";
        } else if (a.starts_with("-")) {
            continue;
        } else {
            specs.push_back(a);
            continue;
        }
        if (option == "-c" || option == "--channel")
            channels.push_back(value);
        else if (option == "--file" || option == "-f")
            out.requirements.push_back({Manager::conda, value, tmpl.line});
    }
    for (const auto& c : channels) out.conda_channels.push_back(c);
    for (const auto& spec : specs) {
        Package p = tmpl;
        p.manager = Manager::conda;
        p.word = spec;
        std::string s = spec;
        std::string channel;
        if (auto cc = s.find("::"); cc != std::string::npos) {
            channel = s.substr(0, cc);
            s = s.substr(cc + 2);
        }
        std::size_t cut = s.find_first_of("=<>!~ ");
        p.name = lower(s.substr(0, cut));
        if (p.name.empty()) continue;
        p.spec = cut == std::string::npos ? "" : s.substr(cut);
        if (!p.spec.empty() && p.spec[0] == '=' &&
            p.spec.find_first_of("*<>,|") == std::string::npos) {
            std::string v = p.spec.substr(p.spec.starts_with("==") ? 2 : 1);
            p.version = v.substr(0, v.find('='));
            p.pinned = !p.version.empty();
        }
        std::string all_channels = channel;
        for (const auto& c : channels) all_channels += (all_channels.empty() ? "" : ",") + c;
        p.index_url = all_channels;
        conda_cuda(p);
        out.packages.push_back(std::move(p));
    }
}

// libcudnn8, libcudnn9-cuda-12, cudnn9-cuda-12, cuda-toolkit-12-1, cuda-compat-12-4
void apt_cuda(Package& p) {
    const std::string& n = p.name;
    // Debian's +cuda11.8, RPM's release .cuda11.2 (libcudnn8-8.1.0.77-1.cuda11.2).
    auto plus = p.version.find("+cuda");
    if (plus == std::string::npos) plus = p.version.find(".cuda");
    if (plus != std::string::npos) {
        std::string v;
        for (std::size_t i = plus + 5;
             i < p.version.size() &&
             (std::isdigit(static_cast<unsigned char>(p.version[i])) || p.version[i] == '.');
             ++i) {
            v += p.version[i];
        }
        if (!v.empty()) {
            p.cuda = v;
            p.cuda_evidence = "package version " + p.version;
            return;
        }
    }
    if (auto pos = n.rfind("-cuda-"); pos != std::string::npos && all_digits(n.substr(pos + 6))) {
        p.cuda = n.substr(pos + 6);
        p.cuda_evidence = "package name " + n;
        return;
    }
    if (n.starts_with("cuda-")) {
        // The last two dash-separated numbers are the CUDA major and minor.
        auto last = n.rfind('-');
        auto prev = last == std::string::npos ? std::string::npos : n.rfind('-', last - 1);
        if (prev != std::string::npos && all_digits(n.substr(last + 1)) &&
            all_digits(n.substr(prev + 1, last - prev - 1))) {
            p.cuda = n.substr(prev + 1, last - prev - 1) + "." + n.substr(last + 1);
            p.cuda_evidence = "package name " + n;
        }
    }
}

// Where an RPM package spec's version starts (yum install libcudnn8-devel-8.1.0.77-1.cuda11.2):
// the first dash-separated part that starts with a digit and holds a dot. CUDA's RPM names
// carry their CUDA release without dots (cuda-nvprune-11-2), which stays part of the name.
std::size_t rpm_version_start(const std::string& spec) {
    for (std::size_t dash = spec.find('-'); dash != std::string::npos;
         dash = spec.find('-', dash + 1)) {
        const std::size_t start = dash + 1;
        const std::size_t end = std::min(spec.find('-', start), spec.size());
        const std::string part = spec.substr(start, end - start);
        if (!part.empty() && std::isdigit(static_cast<unsigned char>(part[0])) &&
            part.find('.') != std::string::npos)
            return start;
    }
    return std::string::npos;
}

// apt-get/apt install NAME[=VERSION]…; with `rpm` (yum, dnf) NAME[-VERSION[-RELEASE]]….
void read_apt(const std::vector<std::string>& args, std::size_t start, const Package& tmpl,
              bool rpm, CommandFacts& out) {
    std::size_t i = start;
    static const std::set<std::string> valued = {"-o",           "-t",           "--target-release",
                                                 "-c",           "--option",     "--setopt",
                                                 "--enablerepo", "--disablerepo"};
    while (i < args.size() && args[i].starts_with("-")) i += valued.count(args[i]) ? 2 : 1;
    if (i >= args.size() || args[i] != "install") return;
    for (++i; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (valued.count(a)) {
            ++i;
            continue;
        }
        if (a.starts_with("-")) continue;
        Package p = tmpl;
        p.manager = Manager::apt;
        p.word = a;
        std::size_t eq = a.find('=');
        std::size_t version_at = eq == std::string::npos ? std::string::npos : eq + 1;
        if (rpm && eq == std::string::npos) {
            version_at = rpm_version_start(a);
            eq = version_at == std::string::npos ? version_at : version_at - 1;
        }
        std::string name = a.substr(0, eq);
        if (auto colon = name.find(':'); colon != std::string::npos) name.resize(colon);  // :amd64
        p.name = lower(name);
        if (p.name.empty() || p.name.ends_with(".deb") || p.name.starts_with("/") ||
            p.name.starts_with("."))
            continue;
        if (eq != std::string::npos) {
            p.spec = a.substr(eq);
            p.version = a.substr(version_at);
            // `=8.6.0.*-1+cuda11.8` fixes the release and lets only the build number float.
            const std::string fixed = p.version.substr(0, p.version.find('*'));
            p.pinned = !p.version.empty() && std::count(fixed.begin(), fixed.end(), '.') >= 2;
        }
        apt_cuda(p);
        out.packages.push_back(std::move(p));
    }
}

// Project managers that run a command inside their environment: `poetry run pip install
// torch` installs into that environment exactly as pip would.
bool is_project_tool(const std::string& program) {
    return program == "poetry" || program == "pipenv" || program == "pdm" || program == "hatch" ||
           program == "rye" || program == "pixi";
}

void read_tool_run(const std::vector<std::string>& words, const std::string& program,
                   const Package& tmpl, CommandFacts& out);

// A folder named for a tool's release (/workspace/git-lfs-3.4.1/install.sh): a downloaded
// archive unpacked, whose installer puts that tool in place, not the project's own installer.
bool in_unpacked_release(const std::string& path) {
    const std::string folder(base_name(dir_name(path)));
    const std::size_t dash = folder.rfind('-');
    if (dash == std::string::npos) return false;
    std::string_view version = std::string_view(folder).substr(dash + 1);
    if (version.starts_with('v')) version.remove_prefix(1);
    return version.find('.') != std::string_view::npos &&
           std::all_of(version.begin(), version.end(), [](char c) {
               return c == '.' || std::isdigit(static_cast<unsigned char>(c));
           });
}

// A project's own installer run from the build context (`bash install.sh`,
// `python install.py --onnxruntime cuda-11.8`, `./install.sh`, `./build-vllm.sh cuda`):
// what it installs is as unreadable as a requirements file. The bare project installer
// (install.sh, install.py), or a script that says it installs or builds a GPU framework:
// `install_mkl.sh` names what it installs (kaldi's extras, no framework), and downloaded
// installers are piped to a shell or named for their vendor (Miniconda3-….sh).
bool is_install_script(const std::string& word) {
    if (word.find("://") != std::string::npos || word.starts_with("$")) return false;
    const std::string name = lower(std::string(base_name(word)));
    if (name == "install.sh" || name == "install.py") return !in_unpacked_release(word);
    if (!name.ends_with(".sh") && !name.ends_with(".bash") && !name.ends_with(".py")) return false;
    auto has = [&](std::initializer_list<std::string_view> words) {
        return std::any_of(words.begin(), words.end(),
                           [&](std::string_view w) { return name.find(w) != std::string::npos; });
    };
    if (!has({"install", "build", "setup", "compile"})) return false;
    // The catalog's words that name a framework (name_words), as an image name would.
    for (const auto& record : rules::builtin_framework_catalog().records()) {
        for (const auto& word : record.name_words) {
            if (name.find(word) != std::string::npos) return true;
        }
    }
    return false;
}

// The script a shell or python runs: the first word after the interpreter's options.
void read_install_script(const std::vector<std::string>& words, const Package& tmpl,
                         CommandFacts& out) {
    std::size_t i = 0;
    if (!words[0].ends_with(".sh") && !words[0].ends_with(".py")) {
        i = 1;
        while (i < words.size() && words[i].starts_with("-")) ++i;
    }
    if (i < words.size() && is_install_script(words[i]))
        out.requirements.push_back({Manager::pip, words[i], tmpl.line, "install script"});
}

// uv pip …, uv sync, uv add: uv's global options come before the subcommand.
void read_uv(const std::vector<std::string>& words, std::size_t start, const Package& tmpl,
             CommandFacts& out) {
    std::size_t i = start;
    while (i < words.size() && words[i].starts_with("-")) {
        i += (words[i] == "--directory" || words[i] == "--project" || words[i] == "--python") ? 2
                                                                                              : 1;
    }
    if (i >= words.size()) return;
    if (words[i] == "pip") {
        read_pip(words, i + 1, tmpl, out);
    } else if (words[i] == "sync") {
        out.requirements.push_back(
            {Manager::pip, join_words(words, start - 1), tmpl.line, "command"});
    } else if (words[i] == "run") {
        std::vector<std::string> as_run(words.begin() + static_cast<std::ptrdiff_t>(i) - 1,
                                        words.end());
        as_run[0] = "uv";
        read_tool_run(as_run, "uv", tmpl, out);
    } else if (words[i] == "add") {
        std::vector<std::string> as_install(words.begin() + static_cast<std::ptrdiff_t>(i),
                                            words.end());
        as_install[0] = "install";
        read_pip(as_install, 0, tmpl, out);
    }
}

// pipx install APP, pipx inject VENV PKG…: pip installs into the app's own environment,
// which the app runs with, so its packages are the image's as much as pip's.
void read_pipx(const std::vector<std::string>& words, const Package& tmpl, CommandFacts& out) {
    if (words.size() < 3 || (words[1] != "install" && words[1] != "inject")) return;
    std::vector<std::string> as_install = {"install"};
    std::size_t i = 2;
    if (words[1] == "inject") {
        while (i < words.size() && words[i].starts_with("-")) ++i;
        ++i;  // the environment (app) the packages go into
    }
    as_install.insert(as_install.end(),
                      words.begin() + static_cast<std::ptrdiff_t>(std::min(i, words.size())),
                      words.end());
    read_pip(as_install, 0, tmpl, out);
}

// python -m pip install …, python3 -Im pip …, python -mpip …, python -m uv pip …
void read_python(const std::vector<std::string>& words, const Package& tmpl, CommandFacts& out) {
    for (std::size_t i = 1;
         i < words.size() && words[i].starts_with("-") && !words[i].starts_with("--"); ++i) {
        const std::string& w = words[i];
        const auto m = w.find('m');
        if (m == std::string::npos) continue;
        std::string module = w.substr(m + 1);
        std::size_t next = i + 1;
        if (module.empty()) {
            if (next >= words.size()) return;
            module = words[next++];
        }
        if (is_pip(module))
            read_pip(words, next, tmpl, out);
        else if (module == "uv")
            read_uv(words, next, tmpl, out);
        return;
    }
}

// Poetry's constraint after '@' (poetry add torch@^2.1.0) as pip would write it: an exact
// version stays exact, ~X.Y.Z keeps X.Y, anything else (^, >=, latest) lets releases move.
std::string poetry_requirement(const std::string& word) {
    const auto at = word.find('@');
    if (at == std::string::npos || word.find("://") != std::string::npos ||
        word.find('/') != std::string::npos)
        return word;
    const std::string name = word.substr(0, at);
    std::string constraint = word.substr(at + 1);
    if (!constraint.empty() && std::isdigit(static_cast<unsigned char>(constraint[0])))
        return name + "==" + constraint;
    if (constraint.starts_with("~") && !constraint.starts_with("~=") &&
        std::count(constraint.begin(), constraint.end(), '.') == 2)
        return name + "~=" + constraint.substr(1);
    return name;
}

// pipenv install NAME…, poetry add NAME…, pdm add NAME…: each named package installed as pip
// would. The bare forms (pipenv install, poetry install, pdm sync) install a lock or project
// file the linter cannot read.
void read_project_tool(const std::vector<std::string>& words, const std::string& program,
                       const Package& tmpl, CommandFacts& out) {
    if (words.size() < 2) return;
    const std::string& sub = words[1];
    const bool adds = sub == "add" && program != "pipenv";
    if (!adds && sub != "install" && sub != "sync") return;
    static const std::set<std::string> valued = {
        "--group", "-G", "--source", "--extras", "-E", "--python", "--platform", "--pypi-mirror"};
    std::vector<std::string> as_install = {"install"};
    bool named = false;
    for (std::size_t i = 2; i < words.size(); ++i) {
        const std::string& w = words[i];
        if (valued.count(w)) {  // the tool's own (--group dev): nothing pip reads
            ++i;
        } else if (pip_valued_options.count(w)) {  // pipenv install -r requirements.txt
            as_install.push_back(w);
            if (i + 1 < words.size()) as_install.push_back(words[++i]);
        } else {
            named = named || !w.starts_with("-");
            as_install.push_back(program == "poetry" ? poetry_requirement(w) : w);
        }
    }
    if ((adds || (program == "pipenv" && sub == "install")) && named) {
        read_pip(as_install, 0, tmpl, out);
        return;
    }
    if (!adds)
        out.requirements.push_back({Manager::pip, join_words(words, 0), tmpl.line, "command"});
}

// conda run -n ENV pip install …, micromamba run -p PREFIX python -m pip …
void read_conda_run(const std::vector<std::string>& words, std::size_t start, const Package& tmpl,
                    CommandFacts& out);

}  // namespace

void read_command(const std::vector<std::string>& words, const Package& tmpl, CommandFacts& out) {
    if (words.empty()) return;
    const std::string program(base_name(words[0]));
    // OpenMMLab's `mim install` hands its arguments to pip (adding its wheel index).
    if (is_pip(program) || (program == "mim" && words.size() > 1 && words[1] == "install")) {
        read_pip(words, 1, tmpl, out);
    } else if (is_python(program)) {
        read_python(words, tmpl, out);
        read_install_script(words, tmpl, out);
    } else if (program == "bash" || program == "sh" || program.ends_with(".sh")) {
        read_install_script(words, tmpl, out);
    } else if (program == "uv") {
        read_uv(words, 1, tmpl, out);
    } else if (program == "pipx") {
        read_pipx(words, tmpl, out);
    } else if (is_project_tool(program) && words.size() > 1 && words[1] == "run") {
        read_tool_run(words, program, tmpl, out);
    } else if (program == "poetry" || program == "pipenv" || program == "pdm") {
        read_project_tool(words, program, tmpl, out);
    } else if ((program == "conda" || program == "mamba" || program == "micromamba") &&
               words.size() > 1 && words[1] == "run") {
        read_conda_run(words, 2, tmpl, out);
    } else if (program == "conda" || program == "mamba" || program == "micromamba") {
        read_conda(words, 1, tmpl, out);
    } else if (program == "apt-get" || program == "apt" || program == "aptitude" ||
               program == "yum" || program == "dnf" || program == "microdnf" || program == "tdnf") {
        read_apt(words, 1, tmpl, program != "apt-get" && program != "apt" && program != "aptitude",
                 out);
    } else if (program == "apt-mark" && words.size() > 2 && words[1] == "hold") {
        for (std::size_t i = 2; i < words.size(); ++i) {
            if (!words[i].starts_with("-")) out.holds.push_back({lower(words[i]), tmpl.line});
        }
    }
}

namespace {

// poetry run pip install …, pipenv run python -m pip install …, pdm run -p DIR pip …,
// uv run --with X pip … (uv's own `run` is read in read_uv).
void read_tool_run(const std::vector<std::string>& words, const std::string& program,
                   const Package& tmpl, CommandFacts& out) {
    static const std::set<std::string> valued = {
        "-p",       "--project", "-e",      "--environment", "--with",
        "--python", "--group",   "--extra", "--env-file"};
    std::size_t i = 2;
    while (i < words.size() && words[i].starts_with("-")) i += valued.count(words[i]) ? 2 : 1;
    // `hatch run ENV:command` names its environment in front of the command.
    std::vector<std::string> rest(
        words.begin() + static_cast<std::ptrdiff_t>(std::min(i, words.size())), words.end());
    if (program == "hatch" && !rest.empty() && rest[0].find(':') != std::string::npos)
        rest[0] = rest[0].substr(rest[0].find(':') + 1);
    if (!rest.empty() && base_name(rest[0]) != program) read_command(rest, tmpl, out);
}

void read_conda_run(const std::vector<std::string>& words, std::size_t start, const Package& tmpl,
                    CommandFacts& out) {
    static const std::set<std::string> valued = {"-n",    "--name", "-p",      "--prefix",
                                                 "--cwd", "-a",     "--attach"};
    std::size_t i = start;
    while (i < words.size() && words[i].starts_with("-")) i += valued.count(words[i]) ? 2 : 1;
    if (i < words.size())
        read_command(
            std::vector<std::string>(words.begin() + static_cast<std::ptrdiff_t>(i), words.end()),
            tmpl, out);
}

}  // namespace

}  // namespace cuvet::dockerfile::detail
