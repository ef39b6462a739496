// CUV004 cudnn-older-than-build
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"
#include "cudnn_acceptance.hpp"
#include "cuvet/rules/packages.hpp"

namespace cuvet::checks {

namespace cuv004 {

std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    std::vector<report::Finding> out;
    for (const auto& fw : stack.frameworks) {
        const auto* rule = db.cudnn_load_rule(fw.name);
        if (rule == nullptr) continue;
        const auto known = util::built_cudnn(db, fw);
        if (!known) continue;  // unknown stays unknown
        const auto* built = &known->version;
        const std::string& from = known->from;
        util::ImportedBy by{out, fw};  // the framework's own import is what fails
        std::set<std::string> reported;
        for (const auto* o : util::objects_of(stack, fw)) {
            for (const auto& r : o->resolutions) {
                if (!util::is_main_cudnn(r.name) || r.file.empty() || reported.count(r.file))
                    continue;
                const auto* copy = stack.library(r.file);
                if (copy == nullptr || !copy->version ||
                    !util::refuses(*copy->version, *built, rule->rule))
                    continue;
                reported.insert(r.file);
                report::Finding f;
                const auto words = util::refusal(db, stack, fw, *built, *copy->version);
                f.message =
                    fw.name + " " + fw.version_text() + " (" + fw.root + ") was built with cuDNN " +
                    built->str() + " but " + o->path + " loads " + util::describe(*copy) +
                    (words ? ": \"" + words->text + "\""
                           : ", which it refuses (the words this release prints are not recorded)");
                f.locations = {{o->path}, {copy->path}};
                f.evidence.push_back("built with cuDNN " + built->str() + " per " + from);
                f.evidence.push_back("load rule: " + rule->rule + " (" +
                                     util::cite(rule->provenance) + ")");
                if (words)
                    f.evidence.push_back("what " + fw.name + " " + fw.version.str() +
                                         " prints: " + util::cite(words->row->provenance));
                for (const auto& p : copy->provenance) f.evidence.push_back(copy->path + ": " + p);
                util::add_trace(f, r);
                f.fix = "Install cuDNN " + std::to_string(built->major()) + "." +
                        std::to_string(built->minor()) + " or newer " +
                        std::to_string(built->major()) + ".x in place of " + copy->path +
                        " (e.g. pip install '" + util::pip_package("cudnn", copy->cuda_major) +
                        ">=" + built->str() + "' or apt-get install libcudnn" +
                        std::to_string(built->major()) + "=" + built->str() + ".*), or use the " +
                        fw.name + " release built for cuDNN " + copy->version->str() + ".";
                out.push_back(std::move(f));
            }
        }
    }
    return out;
}

}  // namespace cuv004

const ValidateCheck cuv004_cudnn_older_than_build{
    CheckInfo{
        .id = "CUV004",
        .severity = report::Severity::error,
        .name = "cudnn-older-than-build",
    },
    &cuv004::run,
};

}  // namespace cuvet::checks
