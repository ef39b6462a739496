#!/usr/bin/env python3
"""Where real ELF libraries keep what cuvet reads, for sizing the streamed ELF reader.

For every ELF file of at least 1 MB under the given directories, prints one TSV
row: the file's size; how far into the file its dynamic-linking tables end
(.dynsym, .dynstr, hash, version tables, .dynamic); their bytes; where
.shstrtab starts and how many bytes lie between it and the section headers;
.rodata's offset and size; GPU payload bytes (.nv_fatbin, .ldata,
.cask_resource); and the bytes of executable, other loadable and unloaded
(debug, symbol table) parts. Only the standard library: runs anywhere.
"""
import os
import struct
import sys

FATBIN = {".nv_fatbin", ".ldata", ".cask_resource"}
TABLE_TYPES = {11, 5, 0x6FFFFFF6, 0x6FFFFFFF, 0x6FFFFFFE, 0x6FFFFFFD}  # dynsym hash gnu_hash versym verneed verdef


def read_layout(path):
    with open(path, "rb") as f:
        head = f.read(64)
        if len(head) < 64 or head[:4] != b"\x7fELF" or head[4] != 2 or head[5] != 1:
            return None
        size = os.fstat(f.fileno()).st_size
        phoff, shoff = struct.unpack_from("<QQ", head, 32)
        phentsize, phnum, shentsize, shnum, shstrndx = struct.unpack_from("<HHHHH", head, 54)
        f.seek(phoff)
        phdrs = [struct.unpack_from("<IIQQQQQQ", f.read(phentsize)) for _ in range(phnum)]
        if shnum == 0 or shoff == 0:
            return None
        f.seek(shoff)
        raw = [struct.unpack_from("<IIQQQQIIQQ", f.read(shentsize)) for _ in range(shnum)]
        names_off, names_size = raw[shstrndx][4], raw[shstrndx][5]
        f.seek(names_off)
        names = f.read(names_size)

    def name(s):
        end = names.find(b"\0", s[0])
        return names[s[0]:end].decode("latin1")

    sections = [(name(s), s) for s in raw]
    dynsym_links = {s[6] for _, s in sections if s[1] == 11}
    tables = [s for i, (_, s) in enumerate(sections) if s[1] in TABLE_TYPES or (i in dynsym_links and s[1] == 3)]
    tables_end = max((s[4] + s[5] for s in tables), default=0)
    tables_bytes = sum(s[5] for s in tables)
    dynamic = next((s for _, s in sections if s[1] == 6), None)
    rodata = next((s for n, s in sections if n == ".rodata"), None)
    gpu = sum(s[5] for n, s in sections if n in FATBIN and s[1] != 8)
    # Loadable bytes outside GPU payloads, split by the flags of their segment.
    loads = [p for p in phdrs if p[0] == 1]
    load_bytes = sum(p[5] for p in loads)
    gpu_in_exec = sum(s[5] for n, s in sections if n in FATBIN and s[1] != 8 and any(
        p[1] & 1 and p[2] <= s[4] < p[2] + p[5] for p in loads))
    exec_bytes = sum(p[5] for p in loads if p[1] & 1) - gpu_in_exec
    return {
        "size": size,
        "dynsym_tables_end": tables_end,
        "tables_bytes": tables_bytes,
        "dynamic_off": dynamic[4] if dynamic else -1,
        "shstrtab": names_off,
        "shstrtab_gap": shoff - (names_off + names_size),
        "rodata_off": rodata[4] if rodata else -1,
        "rodata_size": rodata[5] if rodata else 0,
        "gpu": gpu,
        "exec": exec_bytes,
        "other_load": load_bytes - exec_bytes - gpu,
        "unloaded": size - load_bytes,
    }


def main(roots):
    columns = None
    seen = set()
    for root in roots:
        for directory, _, files in os.walk(root):
            for file in files:
                path = os.path.join(directory, file)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                if st.st_size < (1 << 20) or (st.st_dev, st.st_ino) in seen or not os.path.isfile(path):
                    continue
                seen.add((st.st_dev, st.st_ino))
                try:
                    layout = read_layout(path)
                except (OSError, struct.error, IndexError):
                    continue
                if not layout:
                    continue
                if columns is None:
                    columns = list(layout)
                    print("path\t" + "\t".join(columns))
                print(path + "\t" + "\t".join(str(layout[c]) for c in columns))


if __name__ == "__main__":
    main(sys.argv[1:])
