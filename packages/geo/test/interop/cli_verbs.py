"""GeoPandas' answers for the CLI verb tests: sjoin, to_crs and dissolve on the files the test
wrote. python cli_verbs.py POINTS POLYGONS -> JSON."""
import json
import sys
import warnings

import geopandas as gpd
import shapely

warnings.simplefilter("ignore")
points, polygons = gpd.read_parquet(sys.argv[1]), gpd.read_parquet(sys.argv[2])
out = {}
for how in ["inner", "left"]:
    j = gpd.sjoin(points, polygons, how=how, predicate="within")
    out[f"sjoin_{how}"] = sorted([int(p), None if r != r else int(r)] for p, r in zip(j["pid"], j["index_right"]))
t = points.to_crs("EPSG:4326")
out["to_crs"] = [None if g is None else [g.x, g.y] for g in t.geometry]
d = polygons.dissolve(by="g", aggfunc="sum").reset_index()
out["dissolve"] = {"g": d["g"].tolist(), "gid": [int(v) for v in d["gid"]], "area": d.geometry.area.tolist()}
json.dump(out, sys.stdout)
