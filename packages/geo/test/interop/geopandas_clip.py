"""What geopandas.clip keeps of polygons clipped to a region, and the type of each row.

stdin: {"cells": [wkt, ...], "region": wkt}
stdout: {"index": [i, ...], "types": [geom_type, ...], "areas": [area, ...],
         "intersection_types": [geom_type of cell.intersection(region), ...]}
"""
import json
import sys

import geopandas as gpd
import shapely

request = json.load(sys.stdin)
cells = gpd.GeoSeries(shapely.from_wkt(request["cells"]))
region = shapely.from_wkt(request["region"])
clipped = gpd.clip(cells, region, keep_geom_type=True)
json.dump({
    "index": [int(i) for i in clipped.index],
    "types": list(clipped.geom_type),
    "areas": [float(a) for a in clipped.area],
    "intersection_types": list(cells.intersection(region).geom_type),
}, sys.stdout)
