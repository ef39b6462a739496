#!/usr/bin/env python3
"""Builds the hostile inputs of issue 22 (bench/hostile_inputs.sh times them).

    hostile_inputs.py OUT_DIR LIBRARY

LIBRARY is a small gcc-built shared object (the ELF the sparse and zstd cases
carry). Every image is a docker-archive (Docker 25+ blobs layout) or an OCI
layout with real digests; layers are compressed by the real gzip and zstd
programs. Each image is a few KB to a few hundred KB on disk.
"""
import hashlib
import itertools
import json
import os
import struct
import subprocess
import sys

GIB = 1 << 30


def octal(value, width):
    return ("%0*o" % (width - 1, value)).encode() + b"\0"


def number(value):
    """A 12-byte tar number; base-256 past 11 octal digits (GNU)."""
    if value < 1 << 33:
        return octal(value, 12)
    return b"\x80" + value.to_bytes(11, "big")


def header(name, size, kind=b"0", mode=0o755, link=b"", magic=b"ustar\x0000", extra=None):
    h = bytearray(512)
    h[0:len(name)] = name
    h[100:108] = octal(mode, 8)
    h[108:116] = octal(0, 8)
    h[116:124] = octal(0, 8)
    h[124:136] = number(size)
    h[136:148] = octal(1700000000, 12)
    h[156:157] = kind
    h[157:157 + len(link)] = link
    h[257:265] = magic
    if extra:
        extra(h)
    h[148:156] = b" " * 8
    h[148:156] = ("%06o\0 " % sum(h)).encode()
    return bytes(h)


def pad(data):
    return data + b"\0" * (-len(data) % 512)


def pax(records):
    body = b""
    for key, value in records:
        item = b" %s=%s\n" % (key, value)
        length = len(item) + 1
        while len(str(length)) + len(item) != length:
            length += 1
        body += str(length).encode() + item
    return header(b"PaxHeaders/x", len(body), b"x", 0o644) + pad(body)


def gnu_sparse(name, real, regions):
    def extra(h):
        for i, (offset, data) in enumerate(regions[:4]):
            h[386 + 24 * i:398 + 24 * i] = number(offset)
            h[398 + 24 * i:410 + 24 * i] = number(len(data))
        h[483:495] = number(real)
    data = b"".join(d for _, d in regions)
    return header(name, len(data), b"S", magic=b"ustar  \0", extra=extra) + pad(data)


def pax_sparse(name, real, regions):
    amap = b"%d\n" % len(regions) + b"".join(b"%d\n%d\n" % (o, len(d)) for o, d in regions)
    body = pad(amap) + b"".join(d for _, d in regions)
    return (pax([(b"GNU.sparse.major", b"1"), (b"GNU.sparse.minor", b"0"), (b"GNU.sparse.name", name),
                 (b"GNU.sparse.realsize", b"%d" % real)]) +
            header(b"GNUSparseFile.0/" + name.split(b"/")[-1], len(body)) + pad(body))


def dirs(*names):
    return b"".join(header(n, 0, b"5") for n in names)


def end():
    return b"\0" * 1024


class Blobs:
    """blobs/sha256 of an image being written."""

    def __init__(self, root):
        self.root = root
        os.makedirs(os.path.join(root, "blobs", "sha256"), exist_ok=True)

    def put(self, data):
        digest = hashlib.sha256(data).hexdigest()
        with open(os.path.join(self.root, "blobs", "sha256", digest), "wb") as f:
            f.write(data)
        return "sha256:" + digest, len(data)

    def put_layer(self, chunks, compressor):
        """Streams tar chunks through the compressor; returns (blob digest, size, diff_id)."""
        tmp = os.path.join(self.root, "layer.tmp")
        tar_hash = hashlib.sha256()
        with open(tmp, "wb") as out:
            proc = subprocess.Popen(compressor, stdin=subprocess.PIPE, stdout=out)
            for chunk in chunks:
                tar_hash.update(chunk)
                proc.stdin.write(chunk)
            proc.stdin.close()
            assert proc.wait() == 0
        data = open(tmp, "rb").read()
        os.remove(tmp)
        digest, size = self.put(data)
        return digest, size, "sha256:" + tar_hash.hexdigest()


def config_json(diff_ids):
    return json.dumps({"architecture": "amd64", "os": "linux",
                       "config": {"Env": ["PATH=/usr/bin:/bin"]},
                       "rootfs": {"type": "layers", "diff_ids": diff_ids},
                       "history": [{"created_by": "hostile"} for _ in diff_ids]}).encode()


def docker_archive(path, layers):
    """layers: [(chunks, compressor)] -> a docker-archive tar (blobs layout) at path."""
    root = path + ".d"
    blobs = Blobs(root)
    names, diff_ids = [], []
    for chunks, compressor in layers:
        digest, _, diff_id = blobs.put_layer(chunks, compressor)
        names.append("blobs/sha256/" + digest[7:])
        diff_ids.append(diff_id)
    config, _ = blobs.put(config_json(diff_ids))
    with open(os.path.join(root, "manifest.json"), "w") as f:
        json.dump([{"Config": "blobs/sha256/" + config[7:], "RepoTags": ["hostile:1"], "Layers": names}], f)
    subprocess.check_call(["tar", "-C", root, "-cf", path, "."])
    subprocess.check_call(["rm", "-rf", root])


def zeros(total, step=16 << 20):
    block = b"\0" * step
    while total > 0:
        yield block if total >= step else block[:total]
        total -= min(step, total)


def elf_with_dynamic(soname, needed, count):
    """A minimal ELF64 shared object (no section headers) whose PT_DYNAMIC
    holds `count` DT_NEEDED entries cycling over the names in `needed`."""
    strtab = b"\0" + soname + b"\0"
    offsets = []
    for name in needed:
        offsets.append(len(strtab))
        strtab += name + b"\0"
    dyn_off = 64 + 56 * 2
    entries = [(14, 1)] + [(1, offsets[i % len(offsets)]) for i in range(count)]
    str_off = dyn_off + 16 * (len(entries) + 3)
    entries += [(5, str_off), (10, len(strtab)), (0, 0)]
    dynamic = b"".join(struct.pack("<qQ", t, v) for t, v in entries)
    size = str_off + len(strtab)
    ehdr = (b"\x7fELF\x02\x01\x01" + b"\0" * 9 +
            struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, 64, 0, 0, 64, 56, 2, 64, 0, 0))
    load = struct.pack("<IIQQQQQQ", 1, 5, 0, 0, 0, size, size, 0x1000)
    dyn = struct.pack("<IIQQQQQQ", 2, 6, dyn_off, dyn_off, dyn_off, len(dynamic), len(dynamic), 8)
    return ehdr + load + dyn + dynamic + strtab


def main():
    out, library = sys.argv[1], sys.argv[2]
    only = sys.argv[3:]  # case name prefixes to (re)build; none: all

    def want(name):
        return not only or any(name.startswith(prefix) for prefix in only)

    os.makedirs(out, exist_ok=True)
    lib = open(library, "rb").read()
    gz = ["gzip", "-6"]
    zst = ["zstd", "-q", "-3", "-c"]
    usr = dirs(b"usr/", b"usr/lib/")

    for kind, real in (("gnu", 64 * GIB), ("pax", 3 * GIB), ("pax", 64 * GIB)) if want("sparse") else ():
        make = gnu_sparse if kind == "gnu" else pax_sparse
        entry = make(b"usr/lib/libsparse.so", real, [(0, lib), (real - 512, b"x" * 512)])
        docker_archive(os.path.join(out, "sparse-%s-%dG.tar" % (kind, real // GIB)), [([usr + entry + end()], gz)])

    # 1, 3 and 8 GiB: the library's bytes, then zeros, in a zstd layer.
    for gib in (1, 3, 8) if want("zstd") else ():
        size = gib * GIB
        chunks = itertools.chain([usr, header(b"usr/lib/libzeros.so", size), lib], zeros(size - len(lib)), [end()])
        docker_archive(os.path.join(out, "zstd-%dG-elf.tar" % gib), [(chunks, zst)])

    # Nested OCI indexes: fan-out 10 over 7 levels, one manifest at the bottom.
    if want("nested"):
        nested_index(os.path.join(out, "nested-index"), usr, gz)
    if want("symlinks"):
        symlinks(out, usr, gz)
    if want("needed"):
        needed(out, usr, gz)


def nested_index(root, usr, gz):
    blobs = Blobs(root)
    layer_digest, layer_size, diff_id = blobs.put_layer([usr + end()], gz)
    config, config_size = blobs.put(config_json([diff_id]))
    manifest, manifest_size = blobs.put(json.dumps({
        "schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": config, "size": config_size},
        "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": layer_digest,
                    "size": layer_size}]}).encode())
    child = {"mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": manifest, "size": manifest_size,
             "platform": {"os": "linux", "architecture": "amd64"}}
    for _ in range(7):
        digest, length = blobs.put(json.dumps({"schemaVersion": 2, "manifests": [child] * 10}).encode())
        child = {"mediaType": "application/vnd.oci.image.index.v1+json", "digest": digest, "size": length}
    with open(os.path.join(root, "index.json"), "w") as f:
        json.dump({"schemaVersion": 2, "manifests": [child]}, f)
    with open(os.path.join(root, "oci-layout"), "w") as f:
        json.dump({"imageLayoutVersion": "1.0.0"}, f)


def symlinks(out, usr, gz):
    # Chained symlinks: 10 links, each target padded with "./" to N bytes,
    # and 20k files placed through the last one (each entry's parent is resolved).
    for name, target_size in (("symlinks-400K", 400 << 10), ("symlinks-4K", 4095)):
        parts = [usr, dirs(b"d/")]
        previous = b"d"
        for i in range(10):
            target = b"./" * ((target_size - len(previous)) // 2) + previous
            parts.append(pax([(b"linkpath", target)]) + header(b"l%d" % i, 0, b"2", 0o777))
            previous = b"l%d" % i
        parts += [header(b"%s/f%d" % (previous, i), 0) for i in range(20000)]
        parts.append(end())
        docker_archive(os.path.join(out, name + ".tar"), [(iter(parts), gz)])


def needed(out, usr, gz):
    # One ELF with 1M DT_NEEDED entries; N libraries each needing all N.
    one = elf_with_dynamic(b"libmany.so", [b"libc.so.6"], 1000000)
    docker_archive(os.path.join(out, "needed-1M.tar"),
                   [([usr, header(b"usr/lib/libmany.so", len(one)), pad(one), end()], gz)])
    # 1000 x 1000 stays under the default needed limit: the cost that remains.
    for count in (2000, 1000):
        names = [b"libn%d.so" % i for i in range(count)]
        parts = [usr]
        for name in names:
            data = elf_with_dynamic(name, names, len(names))
            parts += [header(b"usr/lib/" + name, len(data)), pad(data)]
        parts.append(end())
        docker_archive(os.path.join(out, "needed-%dx%d.tar" % (count, count)), [(iter(parts), gz)])


if __name__ == "__main__":
    main()
