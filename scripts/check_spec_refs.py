#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fails when a source file cites a Markdown file the repository does not have.

The facts the code relies on live in docs/spec/ and the design notes in docs/notes/ (issue #39
item 5): a comment such as "docs/spec/porep.md §3" must point at a file in this tree, not at a
document outside it. Scans the tracked and untracked (not ignored) files under src/, include/,
apps/, tests/, scripts/, bench/micro/, proto/, cmake/ and CMakeLists.txt for names ending in .md
and resolves each one: a path from the repository root or from the citing file's directory; a
bare name also in docs/spec/, docs/notes/ or docs/. Upstream documents a comment names with their
project (EXTERNAL) are allowed, and so are the citations listed in EXCEPTIONS.
Usage: python3 scripts/check_spec_refs.py   (exit 1 and one line per bad citation)
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCANNED = ["src", "include", "apps", "tests", "scripts", "bench/micro", "proto", "cmake",
           "CMakeLists.txt"]
BARE_DIRS = ["docs/spec", "docs/notes", "docs"]

# Documents of other projects, cited together with the project's name; they are not this
# repository's to hold.
EXTERNAL = {
    "spec/poseidon_spec.md",  # neptune's Poseidon specification
    "poseidon_spec.md",
    "cuzk-project.md",  # curio extern/cuzk, the Rust cuzk's design document
    "PROVENANCE.md",  # ../shared/fixtures/filecoin/: where each upstream fixture came from
}
EXTERNAL_PREFIXES = ("content/en/",)  # filecoin-project/lotus-docs pages

# Files a script writes or installs, not documents it cites.
OUTPUTS = {"summary.md", "out/summary.md", "./usr/share/doc/cuzk/README.md"}

# Citations not yet rewritten, as (file, cited name): each names the issue that removes it.
EXCEPTIONS: set[tuple[str, str]] = set()

CITATION = re.compile(r"(?<![A-Za-z0-9_./-])((?:\.{1,2}/)*[A-Za-z0-9_][A-Za-z0-9_./-]*\.md)\b")


def scanned_files():
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "--"]
                         + SCANNED, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    for path in sorted(set(out.split())):
        if "node_modules/" in path or path == "scripts/check_spec_refs.py":
            continue  # this script names the retired documents in EXCEPTIONS
        if not os.path.isfile(os.path.join(ROOT, path)):
            continue
        yield path


def resolves(cited, citing):
    if cited in EXTERNAL or cited.split("/")[-1] in EXTERNAL or cited in OUTPUTS:
        return True
    if cited.startswith(EXTERNAL_PREFIXES):
        return True
    here = os.path.dirname(citing)
    bases = ["", here] + ([] if "/" in cited else BARE_DIRS)
    return any(os.path.isfile(os.path.normpath(os.path.join(ROOT, b, cited))) for b in bases)


def main():
    bad = []
    for path in scanned_files():
        try:
            text = open(os.path.join(ROOT, path), encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue  # binary data, not a comment
        for lineno, line in enumerate(text.splitlines(), 1):
            for m in CITATION.finditer(line):
                cited = m.group(1)
                if "://" in line[max(0, m.start() - 80):m.start()] and "http" in line:
                    continue  # part of a URL
                name = cited.split("/")[-1]
                if (path, name) in EXCEPTIONS or resolves(cited, path):
                    continue
                bad.append(f"{path}:{lineno}: cites {cited}, which is not in the repository")
    for line in bad:
        print(line)
    if bad:
        print(f"check_spec_refs: {len(bad)} citation(s) of files outside the repository; the "
              "facts belong in docs/spec/ (docs/spec/README.md)", file=sys.stderr)
        return 1
    print("check_spec_refs: every cited .md file is in the repository")
    return 0


if __name__ == "__main__":
    sys.exit(main())
