#!/usr/bin/env python3
"""Precision and recall of `cuvet lint` on a labelled Dockerfile corpus.

    bench/lint_corpus/score.py [--cuvet build/cuvet] [--corpus DIR] [--labels labels.tsv]
                               [--verdicts OUT.tsv] [-v]

Runs `cuvet lint --format json --fail-on never` on every *.Dockerfile of the corpus
and matches each finding to a label by (file, first line, check id); labels may
repeat when one line carries two problems. A finding with a label is true, one
without is false; a `problem` label no finding matches is a miss.

    precision = true findings / findings
    recall    = found problems / labelled problems
"""
import argparse
import collections
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def read_labels(path):
    labels = collections.defaultdict(list)  # (file, line, id) -> [(kind, note)]
    with open(path, encoding="utf-8") as f:
        for raw in f:
            if not raw.strip() or raw.startswith("#"):
                continue
            name, line, check, kind, note = raw.rstrip("\n").split("\t", 4)
            if kind not in ("problem", "acceptable"):
                sys.exit(f"{path}: unknown kind {kind!r}")
            labels[(name, int(line), check)].append((kind, note))
    return labels


def lint(cuvet, path):
    out = subprocess.run([cuvet, "lint", "--format", "json", "--fail-on", "never", path],
                         capture_output=True, text=True)
    if out.returncode not in (0, 1):
        return None, out.stderr.strip()
    findings = []
    for f in json.loads(out.stdout)["findings"]:
        line = f["locations"][0].get("line", 0) if f.get("locations") else 0
        findings.append((line, f["id"], f["severity"], f["message"]))
    return findings, None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cuvet", default="build/cuvet")
    p.add_argument("--corpus", default="../shared/corpus/dockerfiles")
    p.add_argument("--labels", default=os.path.join(HERE, "labels.tsv"))
    p.add_argument("--verdicts", help="write every finding with its verdict here")
    p.add_argument("-v", "--verbose", action="store_true")
    a = p.parse_args()

    labels = read_labels(a.labels)
    files = sorted(n for n in os.listdir(a.corpus) if n.endswith(".Dockerfile"))
    unknown = {k[0] for k in labels} - set(files)
    if unknown:
        sys.exit(f"labels name files not in the corpus: {sorted(unknown)}")

    verdicts, errors = [], []
    true = false = 0
    by_check = collections.defaultdict(lambda: [0, 0, 0])  # true, false, missed
    remaining = {k: list(v) for k, v in labels.items()}
    for name in files:
        findings, error = lint(a.cuvet, os.path.join(a.corpus, name))
        if findings is None:
            errors.append(f"{name}: {error}")
            continue
        for line, check, severity, message in findings:
            slot = remaining.get((name, line, check))
            if slot:
                kind, note = slot.pop(0)
                true += 1
                by_check[check][0] += 1
                verdicts.append((name, line, check, severity, "true", message))
            else:
                false += 1
                by_check[check][1] += 1
                verdicts.append((name, line, check, severity, "false", message))
    missed = [(k, kind, note) for k, v in remaining.items() for kind, note in v if kind == "problem"]
    for (name, line, check), _, _ in missed:
        by_check[check][2] += 1
    problems = sum(1 for v in labels.values() for kind, _ in v if kind == "problem")

    if a.verdicts:
        with open(a.verdicts, "w", encoding="utf-8") as f:
            f.write("# file\tline\tcheck\tseverity\tverdict\tmessage\n")
            for row in verdicts:
                f.write("\t".join(str(c) for c in row) + "\n")
            for (name, line, check), kind, note in sorted(missed):
                f.write(f"{name}\t{line}\t{check}\t-\tmissed\t{note}\n")
    if a.verbose:
        for row in verdicts:
            if row[4] == "false":
                print("FALSE  ", *row[:4], row[5][:160], sep="  ")
        for (name, line, check), kind, note in sorted(missed):
            print("MISSED ", name, line, check, note, sep="  ")
    for e in errors:
        print("ERROR  ", e)

    findings = true + false
    found = problems - len(missed)
    precision = true / findings if findings else 1.0
    recall = found / problems if problems else 1.0
    print(f"files {len(files)}  findings {findings}  true {true}  false {false}  "
          f"problems {problems}  found {found}  missed {len(missed)}  errors {len(errors)}")
    print(f"precision {precision:.1%}  recall {recall:.1%}")
    for check in sorted(by_check):
        t, f, m = by_check[check]
        print(f"  {check}: true {t}  false {f}  missed {m}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
