#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Include-layer lint: every quoted #include and every library link must point down the layer
table of docs/architecture.md (the table between the `layers:begin` and `layers:end` markers is
the single source of the rules). Exit 0 when clean, 1 with one line per violation otherwise.

A file belongs to the longest table directory that contains it. An include "a/b.hpp" resolves
against src/ first, then include/ (the public API), then against the including file's directory (a sibling header), then against
tests/support (test helpers, allowed only in test sources). A component may include itself and
everything reachable from it through the table's "may include" column (transitively). Library
links in src/**/CMakeLists.txt (cuzk_library/cuzk_cuda_library deps and target_link_libraries of
non-test targets) obey the same table.

The proof kinds (PROOF_KINDS: PoRep, PoSt, SnapDeals) stand side by side on src/filecoin/common:
none may reach another, neither through the table (a row that would let it is itself refused) nor
by an include or a link. What two of them need goes to src/filecoin/common; a test of several
kinds lives above them."""
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DOC = os.path.join(ROOT, "docs", "architecture.md")
SOURCE_EXT = (".hpp", ".cpp", ".cu", ".cuh", ".h", ".hpp.in")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
PROOF_KINDS = ("src/filecoin/porep", "src/filecoin/post", "src/filecoin/snap")
TEST_SOURCE = re.compile(r"(_test\.(cpp|cu)|_test_util\.hpp|_test_check\.hpp|test_circuits\.hpp"
                         r"|_fuzz\.cpp|_oracle_dump\.cpp)$")


def read_table():
    text = open(DOC, encoding="utf-8").read()
    m = re.search(r"<!-- layers:begin -->(.*?)<!-- layers:end -->", text, re.S)
    if not m:
        sys.exit(f"lint_layers: no layer table between the markers in {DOC}")
    deps = {}
    for line in m.group(1).splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0] or cells[0].startswith("-") or cells[0] == "directory":
            continue
        allowed = [] if cells[2] in ("", "—", "-") else [c.strip().strip("`") for c in
                                                         cells[2].split(",")]
        deps[cells[0].rstrip("/")] = allowed
    for comp, allowed in deps.items():
        for a in allowed:
            if a != "*" and a not in deps:
                sys.exit(f"lint_layers: {comp} may include {a}, which is not in the table")
    return deps


def closure(deps):
    out = {}
    for comp in deps:
        seen, todo = set(), [comp]
        while todo:
            c = todo.pop()
            if c in seen:
                continue
            seen.add(c)
            todo.extend(deps.get(c, []))
        out[comp] = seen
    return out


def component_of(rel, deps):
    best = None
    for comp in deps:
        if rel == comp or rel.startswith(comp + "/"):
            if best is None or len(comp) > len(best):
                best = comp
    return best


def proof_kind_errors(deps, reach):
    """The table itself may not let one proof kind reach another."""
    errors = []
    for kind in PROOF_KINDS:
        if kind not in deps:
            errors.append(f"docs/architecture.md: proof kind {kind} is not in the layer table")
            continue
        for other in PROOF_KINDS:
            if other != kind and other in reach[kind]:
                errors.append(f"docs/architecture.md: the layer table lets {kind} reach {other}; "
                              f"the proof kinds do not include each other (shared code goes to "
                              f"src/filecoin/common)")
    return errors


def sideways(src_comp, dst_comp):
    """A hint for an include or link from one proof kind into another."""
    if src_comp in PROOF_KINDS and dst_comp in PROOF_KINDS and src_comp != dst_comp:
        return " (the proof kinds do not include each other: move what they share to " \
               "src/filecoin/common)"
    return ""


def main():
    deps = read_table()
    reach = closure(deps)
    errors = proof_kind_errors(deps, reach)

    def allowed(src_comp, dst_comp):
        return "*" in reach[src_comp] or dst_comp in reach[src_comp]

    for top in ("include", "src", "apps", "bench", "tests"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = [d for d in dirnames if d != "node_modules"]
            for name in filenames:
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, ROOT)
                if name == "CMakeLists.txt" and top == "src":
                    errors += check_cmake(path, rel, deps, allowed)
                    continue
                if not name.endswith(SOURCE_EXT):
                    continue
                comp = component_of(rel, deps)
                if comp is None:
                    errors.append(f"{rel}: not under any directory of the layer table")
                    continue
                text = open(path, encoding="utf-8").read()
                for m in INCLUDE.finditer(text):
                    inc = m.group(1)
                    line = text.count("\n", 0, m.start()) + 1
                    where = f"{rel}:{line}"
                    if ".." in inc.split("/"):
                        errors.append(f'{where}: "{inc}" climbs out of its directory')
                        continue
                    if os.path.exists(os.path.join(ROOT, "src", inc)):
                        target = component_of(os.path.join("src", inc), deps)
                    elif os.path.exists(os.path.join(ROOT, "include", inc)):
                        target = component_of(os.path.join("include", inc), deps)
                    elif os.path.exists(os.path.join(dirpath, inc)):
                        target = comp
                    elif os.path.exists(os.path.join(ROOT, "tests", "support", inc)):
                        if not (TEST_SOURCE.search(name) or top in ("tests", "bench")):
                            errors.append(f'{where}: test helper "{inc}" in a non-test source')
                        continue
                    elif embedded_sibling(dirpath, inc):
                        target = comp  # a sibling file compiled in (cuzk_embed_file)
                    elif inc.startswith("base/version.hpp"):
                        target = "src/base"  # generated at build time
                    elif inc.startswith("cuzk/v1/") and inc.endswith(".pb.h"):
                        target = "proto"  # generated from proto/cuzk/v1/*.proto
                    else:
                        errors.append(f'{where}: "{inc}" does not resolve')
                        continue
                    if not allowed(comp, target):
                        errors.append(f'{where}: {comp} includes "{inc}" of {target}, '
                                      f"which its layer may not use{sideways(comp, target)}")
    for e in errors:
        print(e)
    print(f"lint_layers: {len(errors)} violation(s)", file=sys.stderr)
    return 1 if errors else 0


def embedded_sibling(dirpath, inc):
    """"page_html.hpp" is generated at build time from the sibling file page.html by
    cuzk_embed_file (cmake/cuzk_helpers.cmake)."""
    m = re.fullmatch(r"([A-Za-z0-9_]+)_([A-Za-z0-9]+)\.hpp", inc)
    return bool(m) and os.path.exists(os.path.join(dirpath, f"{m.group(1)}.{m.group(2)}"))


LIB_CALL = re.compile(r"cuzk_(?:cuda_)?library\(NAME\s+(\S+)(.*?)\)", re.S)
LINK_CALL = re.compile(r"target_link_libraries\((\S+)(.*?)\)", re.S)


def check_cmake(path, rel, deps, allowed):
    """Links of this directory's libraries point down the table (test executables may link
    anything: they are leaves)."""
    text = re.sub(r"#.*", "", open(path, encoding="utf-8").read())
    comp = component_of(rel, deps)
    libs = {}
    for m in LIB_CALL.finditer(text):
        libs[m.group(1)] = m.group(2)
    for m in LINK_CALL.finditer(text):
        if m.group(1) in libs:
            libs[m.group(1)] += " " + m.group(2)
    errors = []
    for lib, body in libs.items():
        for dep in re.findall(r"\bcuzk_\w+", body):
            if dep in ("cuzk_warnings", "cuzk_cuda_options", "cuzk_version", "cuzk_proto"):
                continue
            target = TARGETS.get(dep)
            if target is None:
                errors.append(f"{rel}: {lib} links {dep}, which no table directory defines")
            elif not allowed(comp, target):
                errors.append(f"{rel}: {lib} ({comp}) links {dep} of {target}, "
                              f"which its layer may not use{sideways(comp, target)}")
    return errors


def collect_targets():
    targets = {}
    deps = read_table()
    for dirpath, _, filenames in os.walk(os.path.join(ROOT, "src")):
        if "CMakeLists.txt" in filenames:
            text = open(os.path.join(dirpath, "CMakeLists.txt"), encoding="utf-8").read()
            comp = component_of(os.path.relpath(dirpath, ROOT), deps)
            for m in LIB_CALL.finditer(text):
                targets[m.group(1)] = comp
            for m in re.finditer(r"add_library\((cuzk_\w+)", text):
                targets[m.group(1)] = comp
    return targets


TARGETS = collect_targets() if os.path.exists(DOC) else {}

if __name__ == "__main__":
    sys.exit(main())
