// Two locks compared, each change judged by what it breaks (docs/freeze.md, "cuvet diff").
#include <algorithm>
#include <map>
#include <set>

#include "cuvet/lock/lock.hpp"
#include "cuvet/rules/version.hpp"
#include "cuvet/stack/stack_facts.hpp"

namespace cuvet::lock {

namespace {

using rules::Version;

std::optional<Version> version_of(const std::string& text) { return Version::parse(text); }

// a < b where both parse; false when either is unknown (unknown stays unknown).
bool lower(const std::string& a, const std::string& b) {
    const auto va = version_of(a), vb = version_of(b);
    return va && vb && *va < *vb;
}

// The framework refuses `have` under its load rule (CUV004's verdict); false when a version is
// unknown.
bool refused(const std::string& have, const std::string& pin, const std::string& rule) {
    const auto h = version_of(have), p = version_of(pin);
    return h && p && !rule.empty() && stack::cudnn_refused(*h, *p, rule);
}

struct Differ {
    const Lock& a;
    const Lock& b;
    std::vector<Change> out;

    void add(Impact impact, std::string kind, std::string subject, std::string message,
             std::string before = "", std::string after = "") {
        out.push_back({impact, std::move(kind), std::move(subject), std::move(message),
                       std::move(before), std::move(after)});
    }

    // Records of one kind by a key made of some of their fields.
    static std::map<std::string, const Record*> keyed(const Lock& lock, std::string_view kind,
                                                      std::initializer_list<std::string_view> key) {
        std::map<std::string, const Record*> out;
        for (const auto* r : lock.all(kind)) {
            std::string k;
            for (auto field : key) k += r->get(field) + "\x1f";
            out.emplace(k, r);
        }
        return out;
    }

    void identity() {
        const auto* ra = a.first("image");
        const auto* rb = b.first("image");
        const std::string da = ra ? ra->get("config-digest") : "",
                          db = rb ? rb->get("config-digest") : "";
        if (da != db) add(Impact::changes, "image", "image", "the image config changed", da, db);
        const std::string pa = ra ? ra->get("platform") : "", pb = rb ? rb->get("platform") : "";
        if (pa != pb)
            add(Impact::breaks, "platform", "image", "the platform changed: " + pa + " → " + pb, pa,
                pb);
    }

    void runtime_start() {
        const auto* ra = a.first("runtime-start");
        const auto* rb = b.first("runtime-start");
        for (std::string_view field : {"mode", "driver", "ld-library-path"}) {
            const std::string va = ra ? ra->get(field) : "", vb = rb ? rb->get(field) : "";
            if (va != vb)
                add(Impact::may_break, "runtime-start", std::string(field),
                    "the container starts differently: " + std::string(field) + " '" + va +
                        "' → '" + vb + "' (what ld.so finds first changes)",
                    va, vb);
        }
        auto ea = keyed(a, "env", {"name"}), eb = keyed(b, "env", {"name"});
        std::set<std::string> names;
        for (const auto& [k, r] : ea) names.insert(r->get("name"));
        for (const auto& [k, r] : eb) names.insert(r->get("name"));
        for (const auto& name : names) {
            const auto ia = ea.find(name + "\x1f"), ib = eb.find(name + "\x1f");
            const std::string va = ia == ea.end() ? "" : ia->second->get("value");
            const std::string vb = ib == eb.end() ? "" : ib->second->get("value");
            if (va == vb) continue;
            const bool loader = name.substr(0, 3) == "LD_";
            add(loader ? Impact::may_break : Impact::changes, "env", name,
                name + " " +
                    (va.empty()   ? "set to '" + vb + "'"
                     : vb.empty() ? "unset (was '" + va + "')"
                                  : "'" + va + "' → '" + vb + "'"),
                va, vb);
        }
        auto sa = keyed(a, "entry", {"label"}), sb = keyed(b, "entry", {"label"});
        for (const auto& [k, r] : sa)
            if (!sb.count(k))
                add(Impact::changes, "entry", r->get("label"), "no longer runs " + r->get("label"));
        for (const auto& [k, r] : sb)
            if (!sa.count(k))
                add(Impact::changes, "entry", r->get("label"), "now runs " + r->get("label"));
    }

    void cuda_and_driver() {
        const auto* ca = a.first("cuda");
        const auto* cb = b.first("cuda");
        const std::string va = ca ? ca->get("version") : "", vb = cb ? cb->get("version") : "";
        if (va != vb) {
            const auto pa = version_of(va), pb = version_of(vb);
            Impact impact = Impact::changes;
            if (!pa || !pb || pa->major() != pb->major())
                impact = Impact::breaks;
            else if (*pb < *pa)
                impact = Impact::may_break;
            add(impact, "cuda", "CUDA runtime",
                "the CUDA runtime the image runs changed: " + (va.empty() ? "none" : va) + " → " +
                    (vb.empty() ? "none" : vb),
                va, vb);
        }
        const auto* fa = a.first("driver-floor");
        const auto* fb = b.first("driver-floor");
        const std::string da = fa ? fa->get("version") : "", db = fb ? fb->get("version") : "";
        if (da == db) return;
        if (!da.empty() && !db.empty() && lower(db, da))
            add(Impact::changes, "driver-floor-down", "driver",
                "the driver floor went down: " + da + " → " + db, da, db);
        else if (!db.empty())
            add(Impact::breaks, "driver-floor-up", "driver",
                "the driver floor went up: " + (da.empty() ? "unknown" : da) + " → " + db +
                    "; nodes with a driver below " + db + " fail the first CUDA call",
                da, db);
        else
            add(Impact::may_break, "driver-floor", "driver",
                "the driver floor is no longer known (was " + da + ")", da, db);
    }

    // The main cuDNN versions a lock loads (family "cudnn").
    static std::vector<std::string> cudnn_versions(const Lock& lock) {
        std::vector<std::string> out;
        for (const auto* r : lock.all("library"))
            if (r->get("family") == "cudnn" && !r->get("version").empty())
                out.push_back(r->get("version"));
        std::sort(out.begin(), out.end(),
                  [](const std::string& x, const std::string& y) { return lower(x, y); });
        return out;
    }

    void frameworks() {
        auto fa = keyed(a, "framework", {"name"}), fb = keyed(b, "framework", {"name"});
        for (const auto& [k, r] : fa) {
            const std::string name = r->get("name");
            auto it = fb.find(k);
            if (it == fb.end()) {
                add(Impact::breaks, "framework-gone", name + " " + r->get("version"),
                    name + " is no longer installed");
                continue;
            }
            const Record& n = *it->second;
            for (std::string_view field : {"version", "variant", "cuda", "cudnn", "gpu-package"}) {
                if (r->get(field) == n.get(field)) continue;
                add(Impact::may_break, "framework-build", name + " " + n.get("version"),
                    name + " " + std::string(field) + " changed: '" + r->get(field) + "' → '" +
                        n.get(field) + "'",
                    r->get(field), n.get(field));
            }
        }
        for (const auto& [k, r] : fb)
            if (!fa.count(k))
                add(Impact::changes, "framework-added", r->get("name") + " " + r->get("version"),
                    r->get("name") + " is new");
        cudnn_under_frameworks();
    }

    // A cuDNN the framework now refuses (an older minor than it was built with, another
    // major) breaks it; one that went down but is still accepted may.
    void cudnn_under_frameworks() {
        const auto before = cudnn_versions(a), after = cudnn_versions(b);
        if (before.empty() || after.empty()) return;
        const std::string& was = before.back();
        const std::string& now = after.front();
        if (was == now) return;
        const bool down = lower(now, was);
        bool named = false;
        for (const auto* fw : b.all("framework")) {
            const std::string pin = fw->get("cudnn");
            if (pin.empty()) continue;
            named = true;
            const std::string subject = fw->get("name") + " " + fw->get("version");
            const std::string rule = fw->get("cudnn-rule");
            if (refused(now, pin, rule) && !refused(was, pin, rule))
                add(Impact::breaks, "cudnn-refused", subject,
                    "cuDNN " + was + " → " + now + " under " + subject +
                        ", which was built with cuDNN " + pin + " and refuses " + now +
                        " (its load rule: " + rule + ")",
                    was, now);
            else if (down)
                add(Impact::may_break, "cudnn-downgrade", subject,
                    "cuDNN went down " + was + " → " + now + " under " + subject +
                        " (built with cuDNN " + pin + ")",
                    was, now);
        }
        if (!named && down)
            add(Impact::may_break, "cudnn-downgrade", "cuDNN",
                "cuDNN went down " + was + " → " + now, was, now);
    }

    void libraries() {
        auto by_family = [](const Lock& lock) {
            std::map<std::string, std::vector<const Record*>> out;
            for (const auto* r : lock.all("library")) out[r->get("family")].push_back(r);
            return out;
        };
        const auto la = by_family(a), lb = by_family(b);
        for (const auto& [family, copies] : la) {
            auto it = lb.find(family);
            if (it == lb.end()) {
                add(Impact::may_break, "library-gone", family,
                    family + " is no longer loaded (was " + copies.front()->get("path") + ")",
                    copies.front()->get("path"), "");
                continue;
            }
            const Record& old_copy = *copies.front();
            const Record& new_copy = *it->second.front();
            if (old_copy.get("path") != new_copy.get("path"))
                add(Impact::may_break, "library-moved", family,
                    family + " is now loaded from another copy: " + old_copy.get("path") + " → " +
                        new_copy.get("path") +
                        (new_copy.get("owner").empty() ? "" : " (" + new_copy.get("owner") + ")"),
                    old_copy.get("path"), new_copy.get("path"));
            const std::string vo = old_copy.get("version"), vn = new_copy.get("version");
            if (vo != vn &&
                !(family == "cudnn" && lower(vn, vo)))  // cuDNN down: cudnn_under_frameworks
                add(lower(vn, vo) ? Impact::may_break : Impact::changes,
                    lower(vn, vo) ? "library-down" : "library-version", family,
                    family + " " + (vo.empty() ? "?" : vo) + " → " + (vn.empty() ? "?" : vn), vo,
                    vn);
            if (old_copy.get("cuda-major") != new_copy.get("cuda-major") &&
                !new_copy.get("cuda-major").empty())
                add(Impact::breaks, "library-cuda-major", family,
                    family + " is now built for CUDA " + new_copy.get("cuda-major") + " (was " +
                        (old_copy.get("cuda-major").empty() ? "unknown"
                                                            : old_copy.get("cuda-major")) +
                        ")",
                    old_copy.get("cuda-major"), new_copy.get("cuda-major"));
        }
        for (const auto& [family, copies] : lb)
            if (!la.count(family))
                add(Impact::changes, "library-added", family,
                    family + " is now loaded (" + copies.front()->get("path") + ")", "",
                    copies.front()->get("path"));
    }

    static std::set<int> archs(const std::string& list, std::string_view prefix) {
        std::set<int> out;
        for (std::size_t pos = 0; pos < list.size();) {
            auto comma = list.find(',', pos);
            if (comma == std::string::npos) comma = list.size();
            auto item = list.substr(pos, comma - pos);
            if (item.substr(0, prefix.size()) == prefix) {
                const auto v = Version::parse(item.substr(prefix.size()));
                if (v) out.insert(v->major());
            }
            pos = comma + 1;
        }
        return out;
    }

    void architectures() {
        auto aa = keyed(a, "framework-arch", {"framework", "file"}),
             ab = keyed(b, "framework-arch", {"framework", "file"});
        for (const auto& [k, r] : aa) {
            auto it = ab.find(k);
            if (it == ab.end()) continue;  // the file itself changed: the framework change says so
            const auto sass_before = archs(r->get("sass"), "sm_"),
                       sass_after = archs(it->second->get("sass"), "sm_");
            const auto ptx_after = archs(it->second->get("ptx"), "compute_");
            for (int sm : sass_before) {
                if (sass_after.count(sm)) continue;
                const bool jit =
                    std::any_of(ptx_after.begin(), ptx_after.end(), [&](int p) { return p <= sm; });
                const std::string subject = r->get("framework") + " " + r->get("file");
                add(jit ? Impact::may_break : Impact::breaks, "arch-dropped", subject,
                    subject + " dropped SASS sm_" + std::to_string(sm) +
                        (jit ? " (PTX is JIT-compiled at start-up instead)"
                             : ": \"no kernel image is available\" on those GPUs"),
                    r->get("sass"), it->second->get("sass"));
            }
        }
    }

    void loads_and_driver() {
        auto la = keyed(a, "framework-load", {"framework", "component"}),
             lb = keyed(b, "framework-load", {"framework", "component"});
        for (const auto& [k, r] : la) {
            auto it = lb.find(k);
            const std::string before = r->get("path"),
                              after = it == lb.end() ? "" : it->second->get("path");
            if (before == after) continue;
            const std::string subject = r->get("framework") + " " + r->get("component");
            if (after.empty())
                add(Impact::breaks, "load-missing", subject,
                    subject + " is no longer found (was " + before + ")", before, after);
            else
                add(Impact::may_break, "library-moved", subject,
                    subject + " is now opened from another copy: " +
                        (before.empty() ? "not found" : before) + " → " + after,
                    before, after);
        }
        auto ca = keyed(a, "compat", {"path"}), cb = keyed(b, "compat", {"path"});
        if (ca.empty() != cb.empty())
            add(Impact::may_break, "compat", "cuda-compat",
                cb.empty() ? "the image no longer ships cuda-compat"
                           : "the image now ships cuda-compat");
        auto da = keyed(a, "driver-lib", {"path"}), db = keyed(b, "driver-lib", {"path"});
        for (const auto& [k, r] : db)
            if (!da.count(k))
                add(Impact::may_break, "driver-lib", r->get("path"),
                    r->get("path") +
                        " (a driver library) is now baked into the image and can shadow the "
                        "host's");
    }
};

}  // namespace

std::string_view impact_name(Impact impact) {
    switch (impact) {
        case Impact::breaks:
            return "breaks";
        case Impact::may_break:
            return "may-break";
        case Impact::changes:
            return "changes";
    }
    return "changes";
}

std::vector<Change> diff(const Lock& before, const Lock& after) {
    Differ d{before, after, {}};
    d.identity();
    d.runtime_start();
    d.cuda_and_driver();
    d.frameworks();
    d.libraries();
    d.architectures();
    d.loads_and_driver();
    std::stable_sort(d.out.begin(), d.out.end(), [](const Change& x, const Change& y) {
        if (x.impact != y.impact) return x.impact < y.impact;
        if (x.kind != y.kind) return x.kind < y.kind;
        return x.subject < y.subject;
    });
    return d.out;
}

nlohmann::json to_json(const std::vector<Change>& changes) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& c : changes)
        out.push_back({{"impact", impact_name(c.impact)},
                       {"kind", c.kind},
                       {"subject", c.subject},
                       {"message", c.message},
                       {"before", c.before},
                       {"after", c.after}});
    return out;
}

}  // namespace cuvet::lock
