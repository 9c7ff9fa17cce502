"""Checks CVT cells with shapely, the outside reference of centroidalVoronoi.

Reads JSON {cells: [WKT or null], region: WKT} on stdin and prints JSON {centroids: [[x, y] or
null], areas: [...], outside: area of the cells outside the region, overlap: the summed area of
pairwise intersections, union_area, region_area}.
"""

import json
import sys

import shapely
from shapely import wkt

data = json.load(sys.stdin)
cells = [wkt.loads(c) if c is not None else None for c in data["cells"]]
region = wkt.loads(data["region"])
present = [c for c in cells if c is not None and not c.is_empty]
tree = shapely.STRtree(present)
overlap = 0.0
for i, c in enumerate(present):
    for j in tree.query(c):
        if j > i:
            overlap += c.intersection(present[j]).area
union = shapely.union_all(present)
print(
    json.dumps(
        {
            "centroids": [
                None if c is None or c.is_empty else [c.centroid.x, c.centroid.y] for c in cells
            ],
            "areas": [0.0 if c is None else c.area for c in cells],
            "outside": union.difference(region).area,
            "overlap": overlap,
            "union_area": union.area,
            "region_area": region.area,
        }
    )
)
