import os, re, subprocess, sys, time, urllib.request, tempfile
binary, tables = sys.argv[1], sys.argv[2]
for run in range(5):
    d = tempfile.mkdtemp()
    env = dict(os.environ, SENET_TABLES=tables)
    t0 = time.monotonic()
    p = subprocess.Popen([binary, "serve", "--addr", "127.0.0.1:0", "--db", os.path.join(d, "s.sqlite")],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
    addr = None
    lines = []
    while addr is None:
        line = p.stdout.readline()
        if not line:
            break
        lines.append(line)
        m = re.search(r"http://[0-9.]+:[0-9]+", line)
        if m:
            addr = m.group(0)
    t_line = time.monotonic() - t0
    ok = None
    while time.monotonic() - t0 < 10:
        try:
            with urllib.request.urlopen(addr + "/", timeout=2) as r:
                ok = r.status
                break
        except Exception:
            time.sleep(0.005)
    t_ok = time.monotonic() - t0
    p.terminate(); p.wait()
    print(f"run {run}: address printed after {t_line*1000:.0f} ms, first page ({ok}) after {t_ok*1000:.0f} ms", "" if addr else lines)
