#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The shipped /etc/cuzk/cuzk.toml (deploy/cuzk.toml, the Debian package's conffile) against the
# daemon that reads it, through `cuzk-daemon --check-config`:
#   - as shipped (every setting commented out) it is valid with no warning;
#   - with every commented `# key = value` line uncommented it is still valid with no warning:
#     each documented key is one the daemon knows, with a value it accepts;
#   - every key of config.hpp's key table is documented in it;
#   - --check-config itself: an unknown key gives exit 1 and names it, a bad value exit 2, a
#     missing file exit 1, and a flag is checked with the file (a bad --listen: exit 2).
# Usage: daemon_config_cli_test.sh /path/to/cuzk-daemon deploy/cuzk.toml src/server/config.hpp
set -u
daemon="$1"
shipped="$2"
table="$3"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

# check WANT_RC TEXT FILE [FLAGS…]: --check-config on FILE exits WANT_RC and prints TEXT
# (stdout + stderr; "" for any); WANT_RC 0 also means no warning line.
check() {
  local want=$1 text=$2 file=$3 rc=0
  shift 3
  "$daemon" -c "$file" "$@" --check-config >"$tmp/out" 2>&1 || rc=$?
  if [[ $rc -ne $want ]] || { [[ -n $text ]] && ! grep -qF -- "$text" "$tmp/out"; } ||
    { [[ $want -eq 0 ]] && grep -qi warn "$tmp/out"; }; then
    echo "FAIL: cuzk-daemon -c $file $* --check-config -> rc=$rc (want $want, '$text')"
    sed 's/^/  /' "$tmp/out" | tail -8
    fails=$((fails + 1))
  fi
}

check 0 "valid" "$shipped"
# The [tenants.NAME] example is written "#[tenants.x]" and "#  key = value": uncommented too.
sed -E 's/^# ([a-z_]+ = )/\1/; s/^#(\[tenants\.)/\1/; s/^#  ([a-z_]+ = )/\1/' "$shipped" \
  >"$tmp/uncommented.toml"
if ! grep -qE '^listen = ' "$tmp/uncommented.toml"; then
  echo "FAIL: uncommenting $shipped set no key (the '# key = value' form changed?)"
  fails=$((fails + 1))
fi
check 0 "valid" "$tmp/uncommented.toml"

# The key table: "// | section.key" and "// | tenants.NAME.key" rows; a key split over two rows
# ("pipeline." then "max_parallel_synthesis") is joined.
mapfile -t keys < <(awk '
  /^\/\/ \| [a-z_]+\.(NAME\.)?[a-z_]*[ (]/ {
    k = $3; if (k ~ /\.$/) { pending = k; next } print k; next }
  pending != "" && /^\/\/ \|   [a-z_]+/ { print pending $3; pending = ""; next }
  { pending = "" }' "$table")
if [[ ${#keys[@]} -lt 15 ]]; then
  echo "FAIL: read ${#keys[@]} keys from $table's key table (its layout changed?)"
  fails=$((fails + 1))
fi
for key in "${keys[@]}"; do
  section=${key%%.*}
  name=${key##*.}
  if [[ $key == *.NAME.* ]]; then
    # A per-name table: documented in the commented example table of that section.
    if ! awk -v s="#[$section." -v n="$name" '
        index($0, s) == 1 { in_ex = 1; next } /^\[/ { in_ex = 0 }
        in_ex && $0 ~ "^#  " n " = " { found = 1 } END { exit !found }' "$shipped"; then
      echo "FAIL: $key (config.hpp's key table) is not in $shipped's example [$section.…] table"
      fails=$((fails + 1))
    fi
    continue
  fi
  # The key's line must sit in its section: the last [section] header above it.
  if ! awk -v s="[$section]" -v n="$name" '
      /^\[/ { cur = $0 } cur == s && $0 ~ "^# " n " = " { found = 1 } END { exit !found }' \
      "$shipped"; then
    echo "FAIL: $key (config.hpp's key table) is not documented in $shipped as '# $name = …'"
    fails=$((fails + 1))
  fi
done

printf '[daemon]\nlisten = "unix:///tmp/x.sock"\nno_such_key = 1\n' >"$tmp/unknown.toml"
check 1 "daemon.no_such_key" "$tmp/unknown.toml"
printf '[memory]\nsafety_margin = "5 parsecs"\n' >"$tmp/bad.toml"
check 2 "memory.safety_margin" "$tmp/bad.toml"
check 1 "" "$tmp/does-not-exist.toml"
check 2 "--listen" "$shipped" --listen "unix://"

if [[ $fails -ne 0 ]]; then
  echo "daemon_config_cli: $fails failure(s)"
  exit 1
fi
echo "daemon_config_cli: ${#keys[@]} table keys documented; the shipped file valid as is" \
  "and uncommented"
