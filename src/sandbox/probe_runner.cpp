#include "cuvet/sandbox/probe_runner.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "cuvet/core/error.hpp"
#include "cuvet/sandbox/cdi_spec.hpp"
#include "cuvet/sandbox/cgroup_limits.hpp"
#include "cuvet/sandbox/chroot_runner.hpp"
#include "cuvet/sandbox/engine_run.hpp"
#include "cuvet/sandbox/framework_findings.hpp"
#include "cuvet/sandbox/framework_runner.hpp"
#include "cuvet/sandbox/host_driver.hpp"
#include "cuvet/sandbox/probe_findings.hpp"
#include "cuvet/sandbox/probe_runner.hpp"

namespace cuvet::sandbox {
namespace {

namespace fs = std::filesystem;

// A helper process that removes `dir` once cuvet's end of a pipe closes,
// however cuvet ends (SIGKILL included), unless told to keep it. It leaves
// cuvet's process group and ignores the terminal's signals, so a Ctrl-C that
// kills cuvet does not kill it too. Only async-signal-safe calls after fork:
// cuvet may have other threads.
class Reaper {
public:
    explicit Reaper(const fs::path& dir) {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0) return;
        const std::string path = dir.string();
        const pid_t pid = ::fork();
        if (pid == 0) {
            for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) ::signal(sig, SIG_IGN);
            ::setsid();
            ::close(fds[1]);
            char byte = 0;
            ssize_t n;
            do {
                n = ::read(fds[0], &byte, 1);
            } while (n < 0 && errno == EINTR);
            if (n == 1 && byte == 'k') ::_exit(0);
            for (const char* rm : {"/bin/rm", "/usr/bin/rm"})
                ::execl(rm, "rm", "-rf", "--one-file-system", "--", path.c_str(),
                        static_cast<char*>(nullptr));
            ::_exit(0);
        }
        ::close(fds[0]);
        if (pid < 0) {
            ::close(fds[1]);
            return;
        }
        pid_ = pid;
        write_fd_ = fds[1];
    }
    // `keep`: leave the tree; otherwise the caller has removed it already.
    void finish(bool keep) {
        if (pid_ <= 0) return;
        if (keep) {
            [[maybe_unused]] const ssize_t n = ::write(write_fd_, "k", 1);
        }
        ::close(write_fd_);
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
    }
    ~Reaper() { finish(false); }
    Reaper(const Reaper&) = delete;
    Reaper& operator=(const Reaper&) = delete;

private:
    pid_t pid_ = -1;
    int write_fd_ = -1;
};

// A private directory that is removed with everything below it. Only this
// process's namespace is looked at: the mounts live in the child's namespace
// and are gone once it exits.
class WorkDir {
public:
    WorkDir(const fs::path& parent, bool keep) : keep_(keep) {
        fs::path base = parent;
        if (base.empty()) {
            const char* tmp = std::getenv("TMPDIR");
            base = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
        }
        std::string pattern = (base / "cuvet-probe-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr)
            fail_io(base.string() + ": cannot create a temp dir: " + std::strerror(errno));
        path_ = pattern;
        reaper_ = std::make_unique<Reaper>(path_);
    }
    ~WorkDir() {
        if (!keep_) {
            std::error_code error;
            fs::remove_all(path_, error);
        }
        reaper_->finish(keep_);
    }
    WorkDir(const WorkDir&) = delete;
    WorkDir& operator=(const WorkDir&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
    bool keep_;
    std::unique_ptr<Reaper> reaper_;
};

std::vector<std::string> probe_args(const ProbePlan& plan, const ProbeRunOptions& options) {
    std::vector<std::string> args;
    if (options.self_test) args.push_back("--self-test");
    args.insert(args.end(), plan.args.begin(), plan.args.end());
    args.insert(args.end(), options.extra_args.begin(), options.extra_args.end());
    return args;
}

bool saw_no_device(const ProcessResult& process) {
    try {
        return parse_probe_report(process.out).verdict == "no_device";
    } catch (const Error&) {
        return false;
    }
}

ProcessResult run_builtin(const image::Image& image, const ProbeRunOptions& options,
                          ProbeOutcome& outcome) {
    if (::geteuid() != 0)
        fail_usage(
            "the builtin runtime needs root (unshare + chroot); try --runtime docker or podman");
    WorkDir work(options.work_dir, options.keep_rootfs);
    const fs::path rootfs = work.path() / "rootfs";
    outcome.rootfs = rootfs.string();
    const auto start = std::chrono::steady_clock::now();
    image::FileTree tree;
    outcome.extract = extract_rootfs(image, rootfs, work.path() / "staging", &tree);
    outcome.extract_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    outcome.plan = plan_probe(tree);

    CgroupLimitSpec limits;
    limits.memory_bytes = options.memory_limit;
    limits.max_pids = options.max_processes;
    const CgroupLimits cgroup(limits);
    outcome.notes.insert(outcome.notes.end(), cgroup.notes().begin(), cgroup.notes().end());
    ChrootOptions chroot;
    chroot.environment = probe_environment(image.info().config.env, options.env_overrides);
    chroot.timeout = options.timeout;
    // Where the host's toolkit wrote a CDI spec for the GPU, inject what it says instead of
    // guessing.
    if (const auto cdi = find_gpu_cdi_spec(cdi_spec_dirs())) {
        chroot.driver = driver_from_cdi(*cdi);
        chroot.environment.insert(chroot.environment.end(), cdi->env.begin(), cdi->env.end());
        outcome.notes.push_back("driver injected as the CDI spec " + cdi->spec_file + " says");
        for (const std::string& hook : cdi->ignored_hooks)
            outcome.notes.push_back("CDI hook not run: " + hook);
    } else {
        chroot.driver = find_host_driver();
    }
    chroot.inject_driver = true;
    chroot.run_ldconfig = options.nvidia_start;
    if (!options.nvidia_start)
        outcome.notes.push_back("no ldconfig after the driver injection (--runtime-start none)");
    chroot.cgroup = cgroup.path();
    chroot.max_processes = options.max_processes;
    ChrootRun run =
        run_in_chroot(rootfs, options.probe_binary, probe_args(outcome.plan, options), chroot);
    outcome.library_dir = run.library_dir;
    if (!run.ld_cache_problem.empty()) outcome.notes.push_back(run.ld_cache_problem);
    outcome.injected = run.injected;

    if (!options.self_test && !options.frameworks.empty() && !saw_no_device(run.process)) {
        outcome.framework_targets =
            select_targets(find_smoke_targets(tree, image.info().config.env), options.frameworks);
        chroot.inject_driver = false;  // the cuDNN probe's run put it in place
        chroot.timeout = options.framework_timeout;
        outcome.frameworks =
            run_framework_probes_in_chroot(rootfs, outcome.framework_targets, chroot);
    }
    return run.process;
}

ProcessResult run_container(const image::Image& image, const ProbeRunOptions& options,
                            ProbeOutcome& outcome) {
    const std::string engine_ref =
        engine_image(options.runtime, options.container_image, options.image_archive);
    if (engine_ref.empty())
        fail_usage("--runtime " + options.runtime +
                   " needs --container-image REF (an image the engine has; podman also runs an "
                   "archive directly)");
    outcome.plan = plan_probe(image.scan({}));
    if (!options.nvidia_start)
        outcome.notes.push_back("--runtime-start none not honoured: " + options.runtime +
                                " starts the container as its GPU runtime does");
    EngineLimits limits;
    limits.memory_bytes = options.memory_limit;
    limits.max_pids = options.max_processes;
    limits.timeout = options.timeout;
    const bool gpu = !options.self_test;
    ProcessSpec spec;
    spec.search_path = true;
    spec.inherit_environment = true;
    spec.timeout =
        options.timeout + std::chrono::seconds(30);  // the engine's own timeout comes first
    const std::string name = new_container_name();
    spec.argv = engine_run_args(options.runtime, limits, gpu, name);
    spec.argv.insert(
        spec.argv.end(),
        {"-v", fs::absolute(options.probe_binary).string() + ":" + probe_path_in_image + ":ro",
         "--entrypoint", probe_path_in_image});
    for (const std::string& env : options.env_overrides)
        spec.argv.insert(spec.argv.end(), {"-e", env});
    spec.argv.push_back(engine_ref);
    const std::vector<std::string> args = probe_args(outcome.plan, options);
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    ProcessResult process = run_engine_container(options.runtime, name, spec);
    if (!options.self_test && !options.frameworks.empty() && !saw_no_device(process)) {
        outcome.framework_targets = select_targets(
            find_smoke_targets(image.scan({}), image.info().config.env), options.frameworks);
        limits.timeout = options.framework_timeout;
        outcome.frameworks = run_framework_probes_in_container(options.runtime, engine_ref,
                                                               outcome.framework_targets,
                                                               options.env_overrides, limits, gpu);
    }
    return process;
}

}  // namespace

fs::path find_probe_binary() {
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    if (error) return {};
    for (const fs::path& candidate :
         {self.parent_path() / "cuvet-probe", self.parent_path() / "src/probe/cuvet-probe",
          self.parent_path() / "../libexec/cuvet/cuvet-probe"}) {
        if (fs::is_regular_file(candidate, error)) return candidate;
    }
    return {};
}

ProbeOutcome run_probe(const image::Image& image, const ProbeRunOptions& options) {
    if (options.probe_binary.empty() || !fs::is_regular_file(options.probe_binary))
        fail_usage("cuvet-probe not found (build it, or pass --probe PATH)");
    ProbeOutcome outcome;
    ProbeRunOptions resolved = options;
    resolved.runtime = resolve_runtime(options.runtime);
    outcome.runtime = resolved.runtime;
    if (resolved.runtime == "builtin") {
        outcome.process = run_builtin(image, resolved, outcome);
    } else if (resolved.runtime == "docker" || resolved.runtime == "podman") {
        outcome.process = run_container(image, resolved, outcome);
    } else {
        fail_usage("unknown --probe-runtime '" + options.runtime +
                   "' (auto, builtin, docker, podman)");
    }
    try {
        if (!outcome.process.output_truncated)
            outcome.report = parse_probe_report(outcome.process.out);
    } catch (const Error&) {
        outcome.report.reset();
    }
    if (outcome.report) {
        outcome.findings = probe_findings(*outcome.report, outcome.plan);
        // A self-test is run where no GPU is expected: "no device" is its normal result.
        for (report::Finding& finding : outcome.findings) {
            if (options.self_test && finding.id == "CUVG05")
                finding.severity = report::Severity::info;
        }
    } else {
        outcome.findings.push_back(probe_failed_finding(outcome.process, outcome.runtime));
    }
    for (const SmokeResult& result : outcome.frameworks) {
        for (report::Finding& finding : smoke_findings(result))
            outcome.findings.push_back(std::move(finding));
    }
    return outcome;
}

}  // namespace cuvet::sandbox
