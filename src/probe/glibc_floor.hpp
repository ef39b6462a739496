#pragma once
// Binds the dynamic-loader functions to their oldest symbol versions (see
// glibc_floor.cpp). .symver only affects references in the object that
// contains it, so every file that calls these includes this header.
// Only in the floor build: sanitizers intercept dlopen by its default version.
#ifdef CUVET_PROBE_GLIBC_FLOOR
__asm__(".symver dlopen,dlopen@GLIBC_2.2.5");
__asm__(".symver dlsym,dlsym@GLIBC_2.2.5");
__asm__(".symver dlerror,dlerror@GLIBC_2.2.5");
__asm__(".symver dlinfo,dlinfo@GLIBC_2.3.3");
__asm__(".symver dl_iterate_phdr,dl_iterate_phdr@GLIBC_2.2.5");
#endif
