"""Voronoi cells and Delaunay triangles of a point set by shapely (GEOS) at several tolerances.

stdin: {"xy": [x0, y0, x1, y1, ...], "tolerances": [t, ...], "extend_to": [xmin, ymin, xmax, ymax] | null}
stdout: {"geos": "3.13.1", "runs": [{"tolerance": t, "cells": [wkt, ...], "triangles": [wkt, ...]}]}
"""
import json
import sys

import shapely

request = json.load(sys.stdin)
xy = request["xy"]
coords = [(xy[i], xy[i + 1]) for i in range(0, len(xy), 2)]
points = shapely.multipoints(coords) if coords else shapely.from_wkt("MULTIPOINT EMPTY")
extend = request.get("extend_to")
extend_to = shapely.box(*extend) if extend else None
runs = []
for t in request["tolerances"]:
    cells = shapely.voronoi_polygons(points, tolerance=t, extend_to=extend_to)
    triangles = shapely.delaunay_triangles(points, tolerance=t)
    runs.append({
        "tolerance": t,
        "cells": [shapely.to_wkt(g, rounding_precision=-1) for g in shapely.get_parts(cells)],
        "triangles": [shapely.to_wkt(g, rounding_precision=-1) for g in shapely.get_parts(triangles)],
    })
json.dump({"geos": shapely.geos_version_string, "runs": runs}, sys.stdout)
