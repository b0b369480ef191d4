#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the Debian package from an already built build directory (cpack -G DEB; nothing is
# compiled: cpack's preinstall step finds the binaries up to date) and checks it:
#   - control: name, version, architecture, the conffile, executable maintainer scripts, and a
#     Depends (dpkg-shlibdeps), none of it CUDA's;
#   - contents (dpkg-deb -x into a scratch root): exactly the three binaries, cuzk.service,
#     cuzk.toml, the sysusers.d and tmpfiles.d files and the README; the deploy/ files byte for
#     byte;
#   - the binaries: no RUNPATH into the build or CUDA trees, no libcudart when the runtime is
#     static, every library found by ldd with no LD_LIBRARY_PATH (the package ships no private
#     library), each one they link directly owned by a package Depends names; `cuzk version`,
#     `cuzk-daemon --help` and `--version`, `cuzk-bench --help` run from the scratch root, and the
#     shipped config passes `cuzk-daemon --check-config`;
#   - as root, a real install into an empty dpkg database under another root (dpkg --root, the
#     maintainer scripts run with DPKG_ROOT: the user cuzk in the group curio, /run/curio 0770),
#     a reinstall that keeps an edited conffile, a remove, a purge; the running system is not
#     touched;
#   - systemd-analyze verifies the unit.
# Usage: scripts/package_test.sh [BUILD_DIR]   (default build/, as scripts/test.sh leaves it)
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
build=${1:-build}
bins=(cuzk cuzk-daemon cuzk-bench)
fails=0
fail() {
  echo "package_test: FAIL: $*" >&2
  fails=$((fails + 1))
}
for b in "${bins[@]}"; do
  if [[ ! -x $build/apps/$b/$b ]]; then
    echo "package_test: $build/apps/$b/$b missing: build first" >&2
    exit 1
  fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

rm -rf "$build/package"
if ! (cd "$build" && cpack -G DEB) >"$work/cpack.log" 2>&1; then
  cat "$work/cpack.log" >&2
  echo "package_test: FAIL: cpack" >&2
  exit 1
fi
mapfile -t debs < <(compgen -G "$build/package/cuzk_*.deb" || true)
if [[ ${#debs[@]} -ne 1 ]]; then
  echo "package_test: FAIL: want one cuzk_*.deb, got ${debs[*]:-none}" >&2
  exit 1
fi
deb=${debs[0]}
echo "package_test: $deb ($(du -h "$deb" | cut -f1), cpack $((SECONDS - start)) s)"
dpkg-deb --info "$deb" | sed 's/^/  /'

# ---- control ------------------------------------------------------------------------------
field() { dpkg-deb --field "$deb" "$1"; }
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
[[ $(field Package) == cuzk ]] || fail "Package is '$(field Package)'"
[[ $(field Version) == "$version" ]] || fail "Version '$(field Version)', project $version"
[[ $(field Architecture) == "$(dpkg --print-architecture)" ]] ||
  fail "Architecture $(field Architecture)"
depends=$(field Depends)
[[ -n $depends ]] || fail "no Depends (dpkg-shlibdeps did not run?)"
if grep -qi cuda <<<"$depends"; then fail "Depends names CUDA: $depends"; fi
dpkg-deb --control "$deb" "$work/control"
[[ $(cat "$work/control/conffiles" 2>/dev/null) == /etc/cuzk/cuzk.toml ]] ||
  fail "conffiles is not /etc/cuzk/cuzk.toml"
for s in postinst prerm postrm; do
  [[ -x $work/control/$s ]] || fail "control script $s missing or not executable"
  sh -n "$work/control/$s" || fail "$s: shell syntax"
done

# ---- contents -----------------------------------------------------------------------------
dpkg-deb --contents "$deb" | awk '$1 !~ /^d/ { print $6 }' | sort >"$work/files"
printf '%s\n' ./etc/cuzk/cuzk.toml ./lib/systemd/system/cuzk.service ./usr/bin/cuzk \
  ./usr/bin/cuzk-bench ./usr/bin/cuzk-daemon ./usr/lib/sysusers.d/cuzk.conf \
  ./usr/lib/tmpfiles.d/cuzk.conf ./usr/share/doc/cuzk/README.md | sort >"$work/want"
if ! diff -u "$work/want" "$work/files" >"$work/files.diff"; then
  fail "the package's files differ from the list (- missing, + extra):"
  sed 's/^/  /' "$work/files.diff" >&2
fi
root=$work/root
mkdir -p "$root"
dpkg-deb -x "$deb" "$root"
for pair in cuzk.toml:etc/cuzk/cuzk.toml systemd/cuzk.service:lib/systemd/system/cuzk.service \
  sysusers.d/cuzk.conf:usr/lib/sysusers.d/cuzk.conf \
  tmpfiles.d/cuzk.conf:usr/lib/tmpfiles.d/cuzk.conf; do
  src=deploy/${pair%%:*} dst=$root/${pair#*:}
  cmp -s "$src" "$dst" || fail "$dst differs from $src"
done

# ---- the binaries -------------------------------------------------------------------------
static_cudart=no
grep -q '^CUZK_CUDA_RUNTIME:STRING=Static' "$build/CMakeCache.txt" && static_cudart=yes
for b in "${bins[@]}"; do
  f=$root/usr/bin/$b
  if readelf -d "$f" | grep -E 'RPATH|RUNPATH'; then fail "$b has a RUNPATH"; fi
  if [[ $static_cudart == yes ]] && readelf -d "$f" | grep -q 'NEEDED.*libcudart'; then
    fail "$b needs libcudart.so although the CUDA runtime is static"
  fi
  env -u LD_LIBRARY_PATH ldd "$f" >"$work/ldd.$b"
  if grep 'not found' "$work/ldd.$b"; then fail "$b: a library not found"; fi
  # The libraries it links directly (NEEDED), where ldd found them.
  readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | while read -r soname; do
    awk -v s="$soname" '$1 == s && $3 ~ /^\// { print $3 }' "$work/ldd.$b"
  done >>"$work/libs"
done
# Every library the binaries link directly belongs to a Debian package that Depends names, by
# its name or one it Provides (ld.so aside; the packages bring their own libraries' packages).
# dpkg -S knows the /usr/lib path of a /lib one on a merged-/usr system.
tr ',|' '\n' <<<"$depends" | awk '{ print $1 }' >"$work/depends"
sort -u "$work/libs" | while read -r lib; do
  [[ $lib == */ld-linux* ]] && continue
  pkg=$(dpkg -S "$lib" 2>/dev/null || dpkg -S "/usr$lib" 2>/dev/null ||
    dpkg -S "$(readlink -f "$lib")" 2>/dev/null || true)
  pkg=${pkg%%:*}
  names=$(printf '%s\n' "$pkg"; dpkg-query -W -f='${Provides}\n' "$pkg" 2>/dev/null | tr ',' '\n' |
    awk 'NF { print $1 }')
  if [[ -z $pkg ]]; then
    echo "package_test: FAIL: $lib belongs to no Debian package" >&2
    echo x >>"$work/lib_fails"
  elif ! grep -qxF -f "$work/depends" <<<"$names"; then
    echo "package_test: FAIL: $lib is from $pkg, which Depends does not name" >&2
    echo x >>"$work/lib_fails"
  fi
done
if [[ -s $work/lib_fails ]]; then
  fail "$(wc -l <"$work/lib_fails") libraries not covered by Depends"
else
  echo "package_test: $(sort -u "$work/libs" | wc -l) libraries linked directly, each from a" \
    "package in Depends"
fi

run() {
  if ! env -u LD_LIBRARY_PATH "$@" >"$work/out" 2>&1; then
    fail "$* failed:"
    sed 's/^/  /' "$work/out" >&2
  else
    sed 's/^/  /' "$work/out" | head -4
  fi
}
run "$root/usr/bin/cuzk" version
run "$root/usr/bin/cuzk-daemon" --help
run "$root/usr/bin/cuzk-daemon" --version
run "$root/usr/bin/cuzk-bench" --help
run "$root/usr/bin/cuzk-daemon" -c "$root/etc/cuzk/cuzk.toml" --check-config

# ---- dpkg --root: the maintainer scripts into a scratch root -----------------------------------
# A real install into an empty dpkg database: --force-script-chrootless runs the maintainer
# scripts on this machine with DPKG_ROOT set, and they act on that root only (sysusers,
# tmpfiles; no systemctl); --force-depends since that database holds none of the libraries. As
# root only (tmpfiles chowns /run/curio).
if [[ $(id -u) -eq 0 ]]; then
  inst=$work/inst
  admin=$inst/var/lib/dpkg
  mkdir -p "$admin/info" "$admin/updates" "$inst/etc"
  : >"$admin/status"
  : >"$admin/available"
  dpkgr=(dpkg --root="$inst" --force-script-chrootless --force-depends --log=/dev/null)
  state() { dpkg-query --admindir="$admin" -W -f='${Status}' cuzk 2>/dev/null; }
  if ! "${dpkgr[@]}" -i "$deb" </dev/null >"$work/out" 2>&1 ||
    [[ $(state) != "install ok installed" ]]; then
    fail "dpkg --root -i: $(state); $(grep -v 'depends on\|not installed\|dependency problems' \
      "$work/out")"
  fi
  dpkg-query --admindir="$admin" -W -f='${Conffiles}' cuzk | grep -q '/etc/cuzk/cuzk.toml' ||
    fail "dpkg does not list /etc/cuzk/cuzk.toml among the conffiles"
  gid=$(awk -F: '$1 == "curio" { print $3 }' "$inst/etc/group" 2>/dev/null)
  awk -F: -v g="$gid" '$1 == "cuzk" && $4 == g && g != "" { ok = 1 } END { exit !ok }' \
    "$inst/etc/passwd" 2>/dev/null || fail "postinst: no user cuzk with primary group curio"
  [[ $(stat -c '%a %g' "$inst/run/curio" 2>/dev/null) == "770 $gid" ]] ||
    fail "postinst: /run/curio is '$(stat -c '%a %g' "$inst/run/curio" 2>/dev/null)'," \
      "want 770 $gid (curio)"
  run "$inst/usr/bin/cuzk-daemon" -c "$inst/etc/cuzk/cuzk.toml" --check-config
  # An edited conffile survives a reinstall (no prompt: stdin is empty), a remove keeps it, a
  # purge removes it.
  echo '# edited by package_test' >>"$inst/etc/cuzk/cuzk.toml"
  "${dpkgr[@]}" -i "$deb" </dev/null >"$work/out" 2>&1 || fail "dpkg --root -i again: $(state)"
  grep -q 'edited by package_test' "$inst/etc/cuzk/cuzk.toml" ||
    fail "a reinstall replaced the edited /etc/cuzk/cuzk.toml"
  "${dpkgr[@]}" -r cuzk </dev/null >"$work/out" 2>&1 || fail "dpkg --root -r: $(cat "$work/out")"
  [[ ! -e $inst/usr/bin/cuzk-daemon && -f $inst/etc/cuzk/cuzk.toml ]] ||
    fail "after dpkg -r: want the binaries gone and the conffile kept"
  "${dpkgr[@]}" -P cuzk </dev/null >"$work/out" 2>&1 || fail "dpkg --root -P: $(cat "$work/out")"
  [[ ! -e $inst/etc/cuzk/cuzk.toml && -z $(state) ]] ||
    fail "after dpkg -P: /etc/cuzk/cuzk.toml or the package's state is still there"
  echo "package_test: dpkg --root: installed (user, group, /run/curio), reinstalled (the edited" \
    "conffile kept), removed, purged"
else
  echo "package_test: not root: the dpkg --root install (maintainer scripts) is skipped"
fi

# The unit as systemd reads it, its ExecStart pointed at the unpacked binary (which must exist):
# any complaint (an unknown key, a missing command) fails.
mkdir -p "$work/unit"
sed "s#=/usr/bin/#=$root/usr/bin/#" "$root/lib/systemd/system/cuzk.service" \
  >"$work/unit/cuzk.service"
if ! systemd-analyze verify "$work/unit/cuzk.service" >"$work/out" 2>&1 || [[ -s $work/out ]]; then
  fail "systemd-analyze verify cuzk.service: $(cat "$work/out")"
fi

echo "package_test: the unit checked"

if [[ $fails -ne 0 ]]; then
  echo "package_test: $fails failure(s) ($((SECONDS - start)) s)" >&2
  exit 1
fi
echo "package_test: $deb passed ($((SECONDS - start)) s)"
