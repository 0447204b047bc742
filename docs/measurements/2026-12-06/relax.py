# relax.py DATA NET W OUT: targets V + W (T^K(V) - V) from a `senet fvi backup` export (--relax 1)
# and the network NET that made it (as `senet fvi backup --relax W` computes them; clip [0.0005, 0.9995])
import sys
import numpy as np
sys.path.insert(0, "/work/main/scripts")
import train_endgame as te
data_path, net, w, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
with open(data_path, "rb") as f:
    header = f.readline()
rules, ni, data = te.read_data(data_path)
_, _, _, p = te.read_weights(net)
n = len(data)
y = data["y"].astype(np.float64)
v = np.empty(n)
CHUNK = 1 << 18
for a in range(0, n, CHUNK):
    d = data[a:a + CHUNK]
    x = np.zeros((len(d), ni + 1), dtype=np.float32)
    idx = d["idx"].astype(np.int64); idx[idx == 255] = ni
    np.put_along_axis(x, idx, d["val"], axis=1)
    xi = x[:, :ni]
    z = np.maximum(xi @ p["w"] + p["c"], 0) @ p["v"] + xi @ p["skip"] + p["b"][0]
    v[a:a + len(d)] = 1 / (1 + np.exp(-z.astype(np.float64)))
r = y - v
print(f"{n} positions: mean |T(V) - V| {np.abs(r).mean():.5f}, bias {r.mean():+.5f}")
data["y"] = np.clip(v + w * r, 0.0005, 0.9995).astype(np.float32)
with open(out, "wb") as f:
    f.write(header); data.tofile(f)
