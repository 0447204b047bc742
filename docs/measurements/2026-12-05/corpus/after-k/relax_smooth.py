# relax2.py DATA NET OMEGA OUT: targets T(V) + (omega-1) * S, S the least-squares linear fit
# (on the network's inputs) of T(V) - V: over-relax only the smooth part of the correction
import sys, numpy as np
sys.path.insert(0, "/work/main/scripts")
import train_endgame as te
data_path, net, omega, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
with open(data_path, "rb") as f:
    header = f.readline()
rules, ni, data = te.read_data(data_path)
_, h, _, p = te.read_weights(net)
n = len(data); v = np.empty(n)
def dense(d):
    x = np.zeros((len(d), ni + 1), dtype=np.float32)
    idx = d["idx"].astype(np.int64); idx[idx == 255] = ni
    np.put_along_axis(x, idx, d["val"], axis=1); return x[:, :ni]
for a in range(0, n, 1 << 18):
    x = dense(data[a:a + (1 << 18)])
    z = np.maximum(x @ p["w"] + p["c"], 0) @ p["v"] + x @ p["skip"] + p["b"][0]
    v[a:a + len(x)] = 1 / (1 + np.exp(-z.astype(np.float64)))
y = data["y"].astype(np.float64)
r = y - v
A = np.zeros((ni + 1, ni + 1)); b = np.zeros(ni + 1)
for a in range(0, n, 1 << 18):
    x = np.hstack([dense(data[a:a + (1 << 18)]).astype(np.float64), np.ones((min(1 << 18, n - a), 1))])
    A += x.T @ x; b += x.T @ r[a:a + len(x)]
beta = np.linalg.solve(A + 1e-3 * np.eye(ni + 1), b)
s = np.empty(n)
for a in range(0, n, 1 << 18):
    x = np.hstack([dense(data[a:a + (1 << 18)]).astype(np.float64), np.ones((min(1 << 18, n - a), 1))])
    s[a:a + len(x)] = x @ beta
print(f"mean |T(V) - V| {np.abs(r).mean():.5f}, bias {r.mean():+.5f}; smooth part mean |S| {np.abs(s).mean():.5f}, "
      f"explains {1 - ((r - s) ** 2).mean() / (r ** 2).mean():.3f} of its square")
data["y"] = np.clip(y + (omega - 1) * s, 0.0005, 0.9995).astype(np.float32)
with open(out, "wb") as f:
    f.write(header); data.tofile(f)
