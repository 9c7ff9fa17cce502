"""GEOS's Voronoi cells of the sites on stdin (a flat JSON list x0, y0, x1, y1, …): how many are
not valid polygons, and why. python geos_voronoi_validity.py < sites.json -> JSON."""
import json
import sys

import numpy as np
import shapely

xy = np.array(json.load(sys.stdin), dtype=float).reshape(-1, 2)
cells = list(shapely.voronoi_polygons(shapely.multipoints(xy)).geoms)
invalid = [shapely.is_valid_reason(c) for c in cells if not c.is_valid]
json.dump({"cells": len(cells), "invalid": len(invalid), "reasons": invalid[:5]}, sys.stdout)
