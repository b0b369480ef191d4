#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The shipped deployment configs (issue #37 item 4, docs/deploy.md), label unit, seconds.

1. deploy/monitoring/grafana-dashboard.json: valid JSON; every panel has a PromQL expr; every
   metric name in every expr (and in the templating queries) is one the daemon exports.
   The oracle is the daemon itself: cuzk-daemon on an empty parameter directory and a unix socket
   with a status listener on 127.0.0.1, GET /metrics. A fresh daemon writes the # HELP/# TYPE
   header of every family even before it has a series, so its # TYPE lines name every family
   (a histogram's series are NAME_bucket, NAME_sum, NAME_count). A name the daemon does not
   print is then looked up in src/server/metrics.cpp's string literals (series that only
   appear after a job); the test prints which names came from that fallback.
2. deploy/monitoring/prometheus.yml scrapes /metrics.
3. deploy/fleet/haproxy.cfg passes `haproxy -c` (its /etc/haproxy/cuzk/ files replaced by
   certificates made here with openssl). A missing haproxy or openssl is a failure.
usage: deploy_configs_test.py CUZK_DAEMON SOURCE_DIR
"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

PROMQL_WORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "offset",
                "bool", "and", "or", "unless", "inf", "nan", "le"}
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def metric_names(expr):
    """The metric names of a PromQL expression: identifiers that are not functions, keywords,
    label names (inside {} or by/without/on/ignoring (...)), strings, ranges or Grafana
    variables."""
    e = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)        # strings
    e = re.sub(r"\$\{[^}]*\}|\$\w+", "", e)             # Grafana variables
    e = re.sub(r"\{[^}]*\}", "", e)                     # label matchers
    e = re.sub(r"\[[^\]]*\]", "", e)                    # ranges
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", e)
    names = set()
    for m in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", e):
        rest = e[m.end():].lstrip()
        if rest.startswith("("):
            continue                                    # a function or aggregation
        if m.group(0).lower() in PROMQL_WORDS:
            continue
        if m.start() > 0 and (e[m.start() - 1].isdigit() or e[m.start() - 1] == "."):
            continue                                    # 1e9 and the like
        names.add(m.group(0))
    return names


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def daemon_metrics(daemon, work):
    os.makedirs(os.path.join(work, "params"))
    port = free_port()
    cfg = os.path.join(work, "cuzk.toml")
    with open(cfg, "w") as f:
        f.write('[daemon]\nlisten = "unix://%s/cuzk.sock"\nstatus_listen = "127.0.0.1:%d"\n'
                '[srs]\nparam_cache = "%s/params"\n[memory]\ntotal_budget = "1GiB"\n'
                % (work, port, work))
    log = open(os.path.join(work, "daemon.log"), "w")
    p = subprocess.Popen([daemon, "-c", cfg], stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 20
        while True:
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=2) as r:
                    return r.read().decode()
            except OSError:
                if p.poll() is not None or time.time() > deadline:
                    log.flush()
                    print(open(os.path.join(work, "daemon.log")).read(), file=sys.stderr)
                    raise SystemExit("deploy_configs_test: FAILED: no /metrics from cuzk-daemon")
                time.sleep(0.1)
    finally:
        p.terminate()
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def exported_names(text):
    names = set()
    for line in text.splitlines():
        m = re.match(r"# TYPE (\S+) (\S+)", line)
        if m:
            names.add(m.group(1))
            if m.group(2) in ("histogram", "summary"):
                names.update(m.group(1) + s for s in ("_bucket", "_sum", "_count"))
        elif line and not line.startswith("#"):
            names.add(re.match(r"[^{ ]+", line).group(0))
    return names


def check_dashboard(path, daemon_names, source_names):
    try:
        dash = json.load(open(path))
    except (OSError, ValueError) as e:
        fail("%s: %s" % (path, e))
        return
    exprs = []
    panels = list(dash.get("panels", []))
    for row in dash.get("panels", []):
        panels.extend(row.get("panels", []))                 # collapsed rows
    if not panels:
        fail("%s: no panels" % path)
    for p in panels:
        if p.get("type") == "row":
            continue
        ex = [t.get("expr", "") for t in p.get("targets", []) if t.get("expr")]
        if not ex:
            fail("panel %r has no PromQL expr" % p.get("title"))
        exprs += [(p.get("title"), e) for e in ex]
    for v in dash.get("templating", {}).get("list", []):
        q = v.get("query")
        q = q.get("query", "") if isinstance(q, dict) else (q or "")
        m = re.match(r"\s*label_values\((.*),\s*\w+\)\s*$", q)
        if m:
            exprs.append(("variable " + v.get("name", "?"), m.group(1)))
    used, fallback = set(), set()
    for title, e in exprs:
        names = metric_names(e)
        if not names:
            fail("panel %r: no metric name in %r" % (title, e))
        for n in names:
            used.add(n)
            if n in daemon_names:
                continue
            if n in source_names:
                fallback.add(n)
                continue
            fail("panel %r uses %s, which cuzk-daemon does not export" % (title, n))
    print("dashboard: %d panels, %d exprs, metrics %s" % (len(panels), len(exprs), sorted(used)))
    if fallback:
        print("  found only in src/server/metrics.cpp (not in a fresh daemon's /metrics): %s"
              % sorted(fallback))


def check_prometheus(path):
    text = open(path).read()
    if not re.search(r"^\s*metrics_path:\s*/metrics\s*$", text, re.M):
        fail("%s: no metrics_path: /metrics" % path)
    if "\t" in text:
        fail("%s: tabs in YAML" % path)


def check_haproxy(path, work):
    haproxy = shutil.which("haproxy") or ("/usr/sbin/haproxy" if os.access("/usr/sbin/haproxy", os.X_OK) else None)
    if not haproxy or not shutil.which("openssl"):
        fail("haproxy or openssl not installed (scripts/install_deps.sh installs both)")
        return
    d = os.path.join(work, "haproxy")
    os.makedirs(d)
    cfg = open(path).read()
    files = set(re.findall(r"/etc/haproxy/cuzk/([A-Za-z][\w.-]*\w)", cfg))
    for name in files:
        if name.endswith(".map"):
            open(os.path.join(d, name), "w").write("curio-a 0123456789abcdef0123456789abcdef\n")
            continue
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                        "ec_paramgen_curve:P-256", "-nodes", "-keyout", os.path.join(d, "k"),
                        "-subj", "/CN=" + name, "-days", "1", "-out", os.path.join(d, "c")],
                       check=True, capture_output=True)
        with open(os.path.join(d, name), "w") as out:  # certificate + key (crt accepts both)
            out.write(open(os.path.join(d, "c")).read() + open(os.path.join(d, "k")).read())
    cfg = cfg.replace("/etc/haproxy/cuzk/", d + "/").replace("log /dev/log", "log stdout")
    test_cfg = os.path.join(d, "haproxy.cfg")
    open(test_cfg, "w").write(cfg)
    r = subprocess.run([haproxy, "-c", "-f", test_cfg], capture_output=True, text=True)
    if r.returncode != 0:
        fail("haproxy -c %s:\n%s%s" % (path, r.stdout, r.stderr))
    else:
        print("haproxy -c: " + r.stdout.strip())
    for word in ("balance leastconn", "option httpchk", "http-check send meth GET uri /healthz",
                 "http-check expect status 200", "alpn h2"):
        if word not in cfg:
            fail("%s: no '%s'" % (path, word))


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: deploy_configs_test.py CUZK_DAEMON SOURCE_DIR")
    daemon, src = sys.argv[1], sys.argv[2]
    # The extractor itself: names found, functions, labels, ranges and variables not.
    got = metric_names('histogram_quantile(0.9, sum by (le, kind) (rate(a_bucket{kind="x",'
                       'instance=~"$instance"}[$__rate_interval]))) / on (kind) b_total * 1e9 '
                       '+ ignoring (z) c offset 5m')
    if got != {"a_bucket", "b_total", "c"}:
        raise SystemExit("deploy_configs_test: FAILED: metric_names found %s" % sorted(got))
    source_names = set(re.findall(r'"(cuzk_[a-z0-9_]+)',
                                  open(os.path.join(src, "src/server/metrics.cpp")).read()))
    with tempfile.TemporaryDirectory(prefix="cuzk-deploy-") as work:
        daemon_names = exported_names(daemon_metrics(daemon, work))
        print("cuzk-daemon exports %d names" % len(daemon_names))
        check_dashboard(os.path.join(src, "deploy/monitoring/grafana-dashboard.json"),
                        daemon_names, source_names)
        check_prometheus(os.path.join(src, "deploy/monitoring/prometheus.yml"))
        check_haproxy(os.path.join(src, "deploy/fleet/haproxy.cfg"), work)
    if failures:
        raise SystemExit("deploy_configs_test: FAILED (%d)" % len(failures))
    print("deploy_configs_test: all checks passed")


if __name__ == "__main__":
    main()
