# widen_zero.py NET H2 OUT: the network NET with H2 hidden units, the new ones with zero output
# weights (the same function). scripts/widen_net.py is the project's widening (twin units,
# halved output weights); this variant is what the m128 round ran.
import sys
from pathlib import Path

import numpy as np
sys.path.insert(0, str(Path(__file__).resolve().parents[5] / "scripts"))
import train_endgame as te
net, h2, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rules, h, ni, p = te.read_weights(net)
rng = np.random.default_rng(7)
w = np.hstack([p["w"], (rng.standard_normal((ni, h2 - h)) * np.sqrt(2.0 / 12)).astype(np.float32)])
c = np.concatenate([p["c"], np.zeros(h2 - h, np.float32)])
v = np.concatenate([p["v"], np.zeros(h2 - h, np.float32)])
flat = np.concatenate([w.ravel(), p["skip"], c, v, p["b"]])
te.write_weights(out, [f"{net} widened to {h2} units"], rules, h2, ni, flat)
