#pragma once
// The ELF on-disk structures (System V gABI, <elf.h>), as typed views instead
// of raw offsets: each field is a little-endian integer stored as bytes, so a
// struct has the file's exact layout (alignment 1, no padding) on any host,
// and reading one is a bounds-checked copy (ElfFile::read). The two classes
// differ only in word size and field order; Elf32/Elf64 name their structs so
// that code reading either is written once, as a template over the class
// (the layout follows mold's elf.h).
#include <cstddef>
#include <cstdint>

namespace cuvet::elf::detail {

template <class T>
struct Le {
    unsigned char bytes[sizeof(T)];
    operator T() const {
        T value = 0;
        for (std::size_t i = 0; i < sizeof(T); ++i) value |= static_cast<T>(bytes[i]) << (8 * i);
        return value;
    }
};
using Le16 = Le<std::uint16_t>;
using Le32 = Le<std::uint32_t>;
using Le64 = Le<std::uint64_t>;

struct Elf64Ehdr {
    unsigned char ident[16];
    Le16 type, machine;
    Le32 version;
    Le64 entry, phoff, shoff;
    Le32 flags;
    Le16 ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};
struct Elf32Ehdr {
    unsigned char ident[16];
    Le16 type, machine;
    Le32 version;
    Le32 entry, phoff, shoff;
    Le32 flags;
    Le16 ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct Elf64Phdr {
    Le32 type, flags;
    Le64 offset, vaddr, paddr, filesz, memsz, align;
};
struct Elf32Phdr {
    Le32 type, offset, vaddr, paddr, filesz, memsz, flags, align;
};

struct Elf64Shdr {
    Le32 name, type;
    Le64 flags, addr, offset, size;
    Le32 link, info;
    Le64 addralign, entsize;
};
struct Elf32Shdr {
    Le32 name, type, flags, addr, offset, size, link, info, addralign, entsize;
};

struct Elf64Dyn {
    Le64 tag, value;
};
struct Elf32Dyn {
    Le32 tag, value;
};

struct Elf64Sym {
    Le32 name;
    unsigned char info, other;
    Le16 shndx;
    Le64 value, size;
};
struct Elf32Sym {
    Le32 name, value, size;
    unsigned char info, other;
    Le16 shndx;
};

// The GNU symbol-versioning records are the same in both classes.
struct Verneed {
    Le16 version, cnt;
    Le32 file, aux, next;
};
struct Vernaux {
    Le32 hash;
    Le16 flags, other;
    Le32 name, next;
};
struct Verdef {
    Le16 version, flags, ndx, cnt;
    Le32 hash, aux, next;
};
struct Verdaux {
    Le32 name, next;
};
// The headers of the symbol hash tables (DT_HASH, DT_GNU_HASH): the same in both classes; what
// follows a GNU header (its bloom words) is class-sized.
struct SysvHashHeader {
    Le32 nbucket, nchain;
};
struct GnuHashHeader {
    Le32 nbuckets, symoffset, bloom_size, bloom_shift;
};

// A class's structs by one name, for code written once for both.
struct Elf64 {
    using Ehdr = Elf64Ehdr;
    using Phdr = Elf64Phdr;
    using Shdr = Elf64Shdr;
    using Dyn = Elf64Dyn;
    using Sym = Elf64Sym;
};
struct Elf32 {
    using Ehdr = Elf32Ehdr;
    using Phdr = Elf32Phdr;
    using Shdr = Elf32Shdr;
    using Dyn = Elf32Dyn;
    using Sym = Elf32Sym;
};

static_assert(sizeof(Elf64Ehdr) == 64 && sizeof(Elf32Ehdr) == 52);
static_assert(sizeof(Elf64Phdr) == 56 && sizeof(Elf32Phdr) == 32);
static_assert(sizeof(Elf64Shdr) == 64 && sizeof(Elf32Shdr) == 40);
static_assert(sizeof(Elf64Dyn) == 16 && sizeof(Elf32Dyn) == 8);
static_assert(sizeof(Elf64Sym) == 24 && sizeof(Elf32Sym) == 16);
static_assert(sizeof(SysvHashHeader) == 8 && sizeof(GnuHashHeader) == 16);
static_assert(sizeof(Verneed) == 16 && sizeof(Vernaux) == 16 && sizeof(Verdef) == 20 &&
              sizeof(Verdaux) == 8);

}  // namespace cuvet::elf::detail
