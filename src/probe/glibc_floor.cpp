// Keeps cuvet-probe runnable in images with an old glibc (CentOS 7's 2.17 and
// up), although it is built on a new one.
//
// The probe must link glibc dynamically (a static glibc cannot dlopen the
// image's glibc-linked libraries), so every glibc symbol it references carries
// the version of the build host's glibc unless told otherwise:
//  - dlopen & co. moved into libc.so.6 in glibc 2.34 with a new version; the
//    old GLIBC_2.2.5 versions still exist there, and in libdl.so.2 of older
//    glibcs, so the probe binds to those and keeps libdl.so.2 as a dependency.
//  - memcpy@GLIBC_2.14 becomes memmove@GLIBC_2.2.5 through the linker's --wrap.
//  - Scrt1.o calls __libc_start_main@GLIBC_2.34; our own _start calls the
//    GLIBC_2.2.5 version with an init function, the protocol every glibc
//    understands (2.34+ runs init when given one instead of walking
//    DT_INIT_ARRAY itself, older ones always relied on it).
//  - The C++ runtime is linked statically and without exceptions or RTTI, so
//    the unwinder (_dl_find_object@2.35) and libstdc++'s exception and
//    random_device objects (__libc_single_threaded@2.32, arc4random@2.36)
//    never come in; the few functions the headers still call are defined here.
// CMakeLists.txt checks the result with objdump after every link.
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

__asm__(".symver memmove,memmove@GLIBC_2.2.5");

extern "C" void* __wrap_memcpy(void* dst, const void* src, std::size_t n) {
    return std::memmove(dst, src, n);
}

[[noreturn]] static void die(const char* what) {
    std::fprintf(stderr, "cuvet-probe: fatal: %s\n", what);
    std::abort();
}

void* operator new(std::size_t size) {
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    die("out of memory");
}
void* operator new[](std::size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace std {
void __throw_bad_alloc() { die("bad_alloc"); }
void __throw_bad_array_new_length() { die("bad_array_new_length"); }
void __throw_length_error(const char* what) { die(what); }
void __throw_logic_error(const char* what) { die(what); }
void __throw_out_of_range(const char* what) { die(what); }
void __throw_out_of_range_fmt(const char* what, ...) { die(what); }
void __throw_invalid_argument(const char* what) { die(what); }
void __throw_bad_function_call() { die("bad_function_call"); }
}  // namespace std

extern "C" {
void* __dso_handle = &__dso_handle;  // normally from crtbeginS.o, which -nostartfiles drops

using InitFunction = void (*)(int, char**, char**);
extern InitFunction __init_array_start[] __attribute__((weak, visibility("hidden")));
extern InitFunction __init_array_end[] __attribute__((weak, visibility("hidden")));

// What libc_nonshared's __libc_csu_init did; DT_PREINIT_ARRAY is ld.so's job.
__attribute__((used, visibility("hidden"))) void cuvet_probe_init(int argc, char** argv,
                                                                  char** envp) {
    const std::size_t count = static_cast<std::size_t>(__init_array_end - __init_array_start);
    for (std::size_t i = 0; i < count; ++i) __init_array_start[i](argc, argv, envp);
}
}

// The x86-64 System V entry point, as glibc's start.S has it, but calling the
// GLIBC_2.2.5 __libc_start_main with cuvet_probe_init as `init`.
__asm__(R"(
    .symver __libc_start_main_old,__libc_start_main@GLIBC_2.2.5
    .text
    .globl _start
    .type _start,@function
_start:
    xor %ebp, %ebp
    mov %rdx, %r9
    pop %rsi
    mov %rsp, %rdx
    and $-16, %rsp
    push %rax
    push %rsp
    xor %r8d, %r8d
    lea cuvet_probe_init(%rip), %rcx
    mov main@GOTPCREL(%rip), %rdi
    call *__libc_start_main_old@GOTPCREL(%rip)
    hlt
    .size _start, .-_start
    .section .note.GNU-stack,"",@progbits
)");
