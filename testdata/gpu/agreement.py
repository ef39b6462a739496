#!/usr/bin/env python3
"""agreement.py SMOKE_JSONL CUVET_DIR: per variant and framework, the real
outcome (the framework run directly, framework_variants.sh) vs cuvet validate's
static verdict vs cuvet validate --probe's live verdict; a markdown table and
the agreement numbers. CUVET_DIR holds VARIANT.static.json and, where run,
VARIANT.probe.json (cuvet's json report)."""
import json
import os
import re
import sys

# How a finding names a framework: its package directories and names.
NEEDLES = {
    "torch": ["packages/torch/", "packages/torch ", "packages/torch\n", "torch ", "libtorch"],
    "jax": ["packages/jax/", "packages/jax ", "packages/jaxlib/", "/jax_plugins/", "jax_cuda", "jax ", "jaxlib ",
            "xla_cuda"],
    "cupy": ["packages/cupy/", "packages/cupy ", "/cupy_backends/", "cupy ", "cupy-cuda"],
    "onnxruntime": ["packages/onnxruntime/", "packages/onnxruntime ", "onnxruntime "],
    "triton": ["packages/triton/", "packages/triton ", "packages/triton\n", "triton ", "Triton "],
}
LIVE_BROKEN = {"error", "cpu_fallback", "wrong_result", None}


# Checks that judge each root by what its own convolution opens and name every root they break
# (issue 36): their trace runs through the path that found the library ("…/torch/lib/../../nvidia/
# cudnn/lib"), which names no root they break, so only the message and the roots count.
PER_ROOT = {"CUV005", "CUV019"}


def text_of(finding):
    if finding.get("id") in PER_ROOT:
        parts = [finding.get("message", ""), finding.get("loaded_by", "") + " "]
        parts += [line + " " for line in finding.get("evidence", []) if line.startswith("also loaded: ")]
        return "\n".join(parts) + "\n"
    # Paths end a line or a word: "…/site-packages/torch" alone must match "packages/torch\n".
    parts = [finding.get("message", ""), finding.get("title", "")]
    parts += [loc.get("file", "") if isinstance(loc, dict) else str(loc) for loc in finding.get("locations", [])]
    # Evidence lines end a word too: "also loaded: imported by jax" names a root as loaded_by does.
    parts += [line + " " for line in finding.get("evidence", [])]
    # The root whose load closure holds the broken file: "imported by torch" (a word, hence the space).
    if finding.get("loaded_by"):
        parts.append(finding["loaded_by"] + " ")
    return "\n".join(parts) + "\n"


def concerns(finding, framework):
    text = text_of(finding)
    return any(needle in text for needle in NEEDLES[framework])


def load(path):
    if not os.path.exists(path):
        return None
    try:
        with open(path) as f:
            return json.load(f)
    except ValueError:
        return None


def main():
    smoke, cuvet_dir = sys.argv[1], sys.argv[2]
    rows = [json.loads(line) for line in open(smoke) if line.strip()]
    frameworks = ["torch", "jax", "cupy", "onnxruntime"]
    variants = []
    for row in rows:
        if row["variant"] != "host" and row["variant"] not in variants:
            variants.append(row["variant"])
    live = {(r["variant"], r["framework"]): (r["result"] or {}).get("verdict") for r in rows}
    print("| variant | framework | real outcome | static (cuvet validate) | live (cuvet validate --probe) | static agrees | probe agrees |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    n = agree = probe_n = probe_agree = false_errors = missed = 0
    unattributed = {}
    for variant in variants:
        static = load(os.path.join(cuvet_dir, variant + ".static.json"))
        probe = load(os.path.join(cuvet_dir, variant + ".probe.json"))
        static_errors = [f for f in (static or {}).get("findings", []) if f.get("severity") == "error"]
        owned = set()
        for framework in frameworks:
            real = live.get((variant, framework))
            broken = real in LIVE_BROKEN
            mine = [f for f in static_errors if concerns(f, framework)]
            owned.update(id(f) for f in mine)
            ids = sorted({f["id"] for f in mine})
            static_text = "not run" if static is None else ("error " + ",".join(ids) if mine else "ok")
            ok_static = static is not None and bool(mine) == broken
            if static is not None:
                n += 1
                agree += ok_static
                false_errors += bool(mine) and not broken
                missed += broken and not mine
            probe_text, ok_probe = "–", None
            if probe is not None:
                live_findings = [f for f in probe.get("findings", []) if f["id"] in
                                 ("CUVG10", "CUVG11", "CUVG12", "CUVG13", "CUVG14", "CUVG16") and concerns(f, framework)]
                bad = sorted({f["id"] for f in live_findings if f.get("severity") == "error"})
                seen = bool(live_findings)
                probe_text = ("error " + ",".join(bad)) if bad else ("ok" if seen else "not probed")
                if seen:
                    ok_probe = bool(bad) == broken
                    probe_n += 1
                    probe_agree += ok_probe
            print("| %s | %s | %s | %s | %s | %s | %s |" % (
                variant, framework, real, static_text, probe_text, "yes" if ok_static else "**no**",
                "–" if ok_probe is None else ("yes" if ok_probe else "**no**")))
        rest = [f for f in static_errors if id(f) not in owned]
        if rest:
            unattributed[variant] = sorted({f["id"] + ": " + f["message"][:160] for f in rest})
    print()
    if n:
        print("static agreement: %d/%d = %.1f%%; false errors (static error, framework works): %d; "
              "missed (framework broken, no static error): %d" % (agree, n, 100.0 * agree / n, false_errors, missed))
    if probe_n:
        print("cuvet --probe agreement with the real outcome: %d/%d = %.1f%%" % (probe_agree, probe_n, 100.0 * probe_agree / probe_n))
    # Triton (torch.compile's compiler) runs only when the workload compiles kernels, so cuvet's
    # verdict on it is a CUV016 warning (no C compiler, a ptxas that does not know the GPU) or any
    # error that breaks torch's import: scored on its own, beside the table above.
    others = [r for r in rows if r["framework"] not in frameworks]
    if others:
        print()
        print("| variant | framework | real outcome | stage | error | cuvet (errors; CUV016 warnings) | agrees |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        t_n = t_agree = t_false = t_missed = 0
        for r in others:
            result = r["result"] or {}
            static = load(os.path.join(cuvet_dir, r["variant"] + ".static.json"))
            findings = (static or {}).get("findings", [])
            said = sorted({f["id"] + ("" if f.get("severity") == "error" else " (warning)") for f in findings
                           if (f.get("severity") == "error" and (concerns(f, r["framework"]) or concerns(f, "torch")))
                           or (f["id"] == "CUV016" and f.get("severity") == "warning" and concerns(f, r["framework"]))})
            agrees = "–"
            if static is not None and r["variant"] != "host":
                broken = result.get("verdict") in LIVE_BROKEN
                ok = bool(said) == broken
                t_n += 1
                t_agree += ok
                t_false += bool(said) and not broken
                t_missed += broken and not said
                agrees = "yes" if ok else "**no**"
            print("| %s | %s | %s | %s | %s | %s | %s |" % (r["variant"], r["framework"], result.get("verdict"),
                  result.get("stage"), (result.get("error") or "").replace("|", "/").replace("\n", " ")[:140],
                  ", ".join(said) or "–", agrees))
        print()
        if t_n:
            print("triton agreement (a CUV016 warning or an error that breaks torch counts as 'breaks'): "
                  "%d/%d = %.1f%%; said broken, works: %d; broken, not said: %d" %
                  (t_agree, t_n, 100.0 * t_agree / t_n, t_false, t_missed))
        print()
    words(rows, cuvet_dir)
    exit_codes(rows, variants, frameworks, cuvet_dir)
    for variant, lines in unattributed.items():
        print("static errors no framework owns in %s:" % variant)
        for line in lines:
            print("  " + line)


# Variants the fixes were not tuned on (framework_variants.sh HELDOUT): scored apart.
HELDOUT = set(os.environ.get("HELDOUT", "").split())


def exit_codes(rows, variants, frameworks, cuvet_dir):
    """The gate's real output: cuvet validate's exit code per variant. Expected 1 when any of
    torch, JAX, CuPy or ONNX Runtime is broken in the real run (and every broken one named by an
    error), else 0. An image-level false error is an exit 1 on a variant where all of them work.
    Triton's verdict is a CUV016 warning by design (only workloads that compile kernels fail), so
    it is scored in its own table, not here."""
    live = {(r["variant"], r["framework"]): (r["result"] or {}).get("verdict") for r in rows}
    print("| variant | set | broken frameworks | cuvet exit | expected | frameworks named | agrees |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    score = {"tuned": [0, 0, 0], "held-out": [0, 0, 0]}  # agree, n, image-level false errors
    for variant in variants:
        static = load(os.path.join(cuvet_dir, variant + ".static.json"))
        if static is None:
            continue
        rc_path = os.path.join(cuvet_dir, variant + ".static.rc")
        errors = [f for f in static.get("findings", []) if f.get("severity") == "error"]
        rc = int(open(rc_path).read().strip()) if os.path.exists(rc_path) else (1 if errors else 0)
        broken = [fw for fw in frameworks if live.get((variant, fw)) in LIVE_BROKEN]
        named = [fw for fw in broken if any(concerns(f, fw) for f in errors)]
        expected = 1 if broken else 0
        ok = rc == expected and len(named) == len(broken)
        kind = "held-out" if variant in HELDOUT else "tuned"
        score[kind][0] += ok
        score[kind][1] += 1
        score[kind][2] += rc != 0 and not broken
        print("| %s | %s | %s | %d | %d | %s | %s |" % (variant, kind, ", ".join(broken) or "none", rc, expected,
              ", ".join(named) or "–", "yes" if ok else "**no**"))
    print()
    for kind, (agree, n, false_image) in score.items():
        if n:
            print("exit code (%s variants): %d/%d = %.1f%% agree; image-level false errors (exit 1, every "
                  "framework works): %d" % (kind, agree, n, 100.0 * agree / n, false_image))
    print()


def squash(text):
    return " ".join(text.split())


def said_in(quote, real):
    # A quote may elide ("…") what varies between runs: its parts must appear in order.
    at = 0
    for part in (squash(p) for p in quote.split("…")):
        if not part:
            continue
        at = real.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return True


def words(rows, cuvet_dir):
    """Whether cuvet names a real failure in the framework's own words: for each framework run
    that failed with an error text, the quoted passages (20+ characters) of cuvet's static
    findings about that framework; the run counts as quoted verbatim when one of them appears,
    whitespace aside, in what the framework printed."""
    runs = verbatim = 0
    unquoted, other = [], []
    for r in rows:
        real = squash((r["result"] or {}).get("error") or "")
        if r["variant"] == "host" or not real:
            continue
        static = load(os.path.join(cuvet_dir, r["variant"] + ".static.json"))
        if static is None:
            continue
        # Triton's run also fails with torch's import; a Triton (CUV016) warning is Triton's alone.
        def about(f):
            if r["framework"] == "triton":
                return (f.get("severity") == "error" and (concerns(f, "torch") or concerns(f, "triton"))) or \
                    (f["id"] == "CUV016" and concerns(f, "triton"))
            return f.get("severity") == "error" and concerns(f, r["framework"])
        # Quotes inside a quote are escaped (\"libnvrtc.so.13\").
        quotes = [q.replace('\\"', '"') for f in static.get("findings", []) if about(f)
                  for q in re.findall(r'"((?:[^"\\]|\\.){20,})"', f.get("message", ""))]
        runs += 1
        if any(said_in(q, real) for q in quotes):
            verbatim += 1
        elif quotes:
            other.append("%s / %s: printed %r; cuvet quotes %r" % (r["variant"], r["framework"], real[:100],
                                                                   quotes[0][:100]))
        else:
            unquoted.append("%s / %s: %s" % (r["variant"], r["framework"], real[:100]))
    if runs:
        print("framework words: %d/%d failed runs named in the framework's own words (a passage cuvet "
              "quotes appears verbatim in what it printed); %d with other words, %d without a quote" %
              (verbatim, runs, len(other), len(unquoted)))
        for line in other:
            print("  other words: " + line)
        for line in unquoted:
            print("  no quote: " + line)
        print()


if __name__ == "__main__":
    main()
