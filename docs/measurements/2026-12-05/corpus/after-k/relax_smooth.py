# relax_smooth.py DATA NET OMEGA OUT: targets T(V) + (omega-1) * S, S the least-squares linear fit
# (on the network's inputs) of T(V) - V: over-relax only the smooth part of the correction
import sys
from pathlib import Path

import numpy as np
sys.path.insert(0, str(Path(__file__).resolve().parents[5] / "scripts"))
import train_endgame as te
data_path, net, omega, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
with open(data_path, "rb") as f:
    header = f.readline()
rules, ni, data = te.read_data(data_path)
_, _, _, p = te.read_weights(net)
n = len(data)
y = data["y"].astype(np.float64)
CHUNK = 1 << 18
def rows(a):
    """The inputs of positions a.. a + CHUNK, with a constant 1 last."""
    d = data[a:a + CHUNK]
    x = np.zeros((len(d), ni + 1), dtype=np.float32)
    idx = d["idx"].astype(np.int64); idx[idx == 255] = ni
    np.put_along_axis(x, idx, d["val"], axis=1); x[:, ni] = 1
    return x
# One pass: the network's V, and the normal equations of the fit of T(V) - V.
r = np.empty(n); A = np.zeros((ni + 1, ni + 1)); b = np.zeros(ni + 1)
for a in range(0, n, CHUNK):
    x = rows(a); xi = x[:, :ni]
    z = np.maximum(xi @ p["w"] + p["c"], 0) @ p["v"] + xi @ p["skip"] + p["b"][0]
    r[a:a + len(x)] = y[a:a + len(x)] - 1 / (1 + np.exp(-z.astype(np.float64)))
    x = x.astype(np.float64); A += x.T @ x; b += x.T @ r[a:a + len(x)]
beta = np.linalg.solve(A + 1e-3 * np.eye(ni + 1), b)
s = np.concatenate([rows(a).astype(np.float64) @ beta for a in range(0, n, CHUNK)])
print(f"mean |T(V) - V| {np.abs(r).mean():.5f}, bias {r.mean():+.5f}; smooth part mean |S| {np.abs(s).mean():.5f}, "
      f"explains {1 - ((r - s) ** 2).mean() / (r ** 2).mean():.3f} of its square")
data["y"] = np.clip(y + (omega - 1) * s, 0.0005, 0.9995).astype(np.float32)
with open(out, "wb") as f:
    f.write(header); data.tofile(f)
