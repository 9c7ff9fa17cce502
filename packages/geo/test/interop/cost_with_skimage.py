"""Cost distance with scikit-image's MCP_Geometric, the outside reference of costAllocation.

Usage: cost_with_skimage.py <dir>. Reads <dir>/problem.json ({width, height, spacing: [sx, sy],
sources: [[row, col], ...]}) and <dir>/values.f32 (row-major float32, NaN = barrier). Writes
<dir>/per_source.f64 (for each source, its own cumulative-cost raster, row-major float64) and
<dir>/all.f64 (the multi-start cumulative costs), and prints JSON {"labels": [...]}: per cell the
start its multi-start traceback ends at (-1 unreached; at exact ties this is MCP's own choice).
"""

import json
import sys

import numpy as np
from skimage.graph import MCP_Geometric

folder = sys.argv[1]
with open(f"{folder}/problem.json") as f:
    problem = json.load(f)
h, w = problem["height"], problem["width"]
sx, sy = problem["spacing"]
values = np.fromfile(f"{folder}/values.f32", dtype=np.float32).astype(np.float64).reshape(h, w)
# MCP treats infinite (and negative) costs as impassable; NaN is our barrier
values[np.isnan(values)] = np.inf
starts = [tuple(s) for s in problem["sources"]]

per_source = []
for start in starts:
    mcp = MCP_Geometric(values, fully_connected=True, sampling=(sy, sx))
    cumulative, _ = mcp.find_costs([start])
    per_source.append(cumulative)
np.asarray(per_source, dtype=np.float64).tofile(f"{folder}/per_source.f64")

mcp = MCP_Geometric(values, fully_connected=True, sampling=(sy, sx))
cumulative, traceback = mcp.find_costs(starts)
cumulative.astype(np.float64).tofile(f"{folder}/all.f64")
offsets = np.asarray(mcp.offsets)
index_of = {start: i for i, start in reversed(list(enumerate(starts)))}
labels = np.full((h, w), -1, dtype=np.int64)
for r in range(h):
    for c in range(w):
        if not np.isfinite(cumulative[r, c]):
            continue
        pr, pc = r, c
        while traceback[pr, pc] >= 0:
            dr, dc = offsets[traceback[pr, pc]]
            pr, pc = pr - dr, pc - dc
        labels[r, c] = index_of[(pr, pc)]
print(json.dumps({"labels": labels.ravel().tolist()}))
