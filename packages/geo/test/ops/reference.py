"""GeoPandas/shapely/pyproj answers for the ops tests: a JSON list of tasks on stdin, a JSON list
of results on stdout (one per task; {"error": message} where GeoPandas raises)."""
import json
import math
import sys
import warnings

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
from pyproj import CRS, Transformer

warnings.simplefilter("ignore")


def series(wkb_hex, crs=None):
    geoms = [None if h is None else shapely.from_wkb(bytes.fromhex(h)) for h in wkb_hex]
    return gpd.GeoSeries(geoms, crs=crs)


def frame(spec):
    cols = dict(spec.get("columns", {}))
    cols["geometry"] = series(spec["wkb"], spec.get("crs"))
    return gpd.GeoDataFrame(cols, geometry="geometry", crs=spec.get("crs"))


def hexes(s):
    # GEOS answers some empties (convex_hull of an empty row) as GEOMETRYCOLLECTION EMPTY, which
    # no geoframe column holds; geoframe answers POLYGON EMPTY there (docs/api.md says so)
    fix = lambda g: shapely.Polygon() if g.geom_type == "GeometryCollection" and g.is_empty else g
    return [None if g is None else shapely.to_wkb(fix(g), hex=True) for g in s]


def plain(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating,)):
        return None if math.isnan(v) else float(v)
    if isinstance(v, shapely.Geometry):
        return shapely.to_wkb(v, hex=True)
    if v is pd.NA:
        return None
    return v


def table(df):
    out = {"columns": list(df.columns), "index": [plain(i) for i in df.index]}
    out["data"] = {c: [plain(v) for v in df[c]] for c in df.columns}
    return out


def run(task):
    op = task["op"]
    if op == "to_crs":
        s = series(task["wkb"], task["crs"]).to_crs(task["target"])
        return {"coords": shapely.get_coordinates(s.values).ravel().tolist(), "wkb": hexes(s)}
    if op == "estimate_utm":
        return {"crs": series(task["wkb"], task["crs"]).estimate_utm_crs().to_string()}
    if op == "projjson":
        return {"projjson": json.loads(CRS.from_user_input(task["crs"]).to_json())}
    if op == "predicates":
        a, b = series(task["left"]), series(task["right"])
        out = {name: [bool(v) for v in getattr(a, name)(b, align=False)] for name in task["names"]}
        out["distance"] = [plain(v) for v in a.distance(b, align=False)]
        return out
    if op == "sindex_query":
        tree = series(task["tree"])
        res = tree.sindex.query(series(task["query"]).values, predicate=task.get("predicate"), sort=True)
        return {"pairs": res.tolist()}
    if op == "sindex_nearest":
        tree = series(task["tree"])
        res = tree.sindex.nearest(series(task["query"]).values, return_all=True, max_distance=task.get("max_distance"), return_distance=True)
        return {"pairs": res[0].tolist(), "distance": res[1].tolist()}
    if op == "sjoin":
        r = gpd.sjoin(frame(task["left"]), frame(task["right"]), how=task["how"], predicate=task["predicate"])
        return table(r)
    if op == "sjoin_nearest":
        r = gpd.sjoin_nearest(frame(task["left"]), frame(task["right"]), how=task["how"],
                              max_distance=task.get("max_distance"), distance_col=task.get("distance_col"))
        return table(r)
    if op == "unary":
        s = series(task["wkb"])
        fn = getattr(s, task["name"])
        r = fn(*task.get("args", [])) if callable(fn) else fn
        if isinstance(r, gpd.GeoSeries):
            return {"wkb": hexes(r)}
        if isinstance(r, shapely.Geometry):
            return {"wkb": hexes([r])}
        return {"values": [plain(v) for v in r]}
    if op == "binary":
        a, b = series(task["left"]), series(task["right"])
        return {"wkb": hexes(getattr(a, task["name"])(b, align=False))}
    if op == "frame":
        df = frame(task["frame"])
        name, kwargs = task["name"], task.get("kwargs", {})
        if name == "overlay":
            r = gpd.overlay(df, frame(task["other"]), **kwargs)
        elif name == "clip":
            r = gpd.clip(df, series(task["mask"]), **kwargs)
        else:
            r = getattr(df, name)(**kwargs)
        if isinstance(r, gpd.GeoDataFrame):
            r = r.reset_index() if name == "dissolve" else r
        return table(r)
    if op == "compare":
        out = []
        for a, b in zip(series(task["ours"]), series(task["theirs"])):
            if a is None or b is None:
                out.append({"null": [a is None, b is None]})
                continue
            both_empty = a.is_empty and b.is_empty
            out.append({
                "types": [a.geom_type, b.geom_type],
                "empty": [a.is_empty, b.is_empty],
                "hausdorff": 0.0 if both_empty else (None if a.is_empty or b.is_empty else float(shapely.hausdorff_distance(a, b))),
                "symdiff": 0.0 if both_empty else float(shapely.symmetric_difference(a, b).area),
                "area": float(b.area),
            })
        return {"rows": out}
    raise ValueError(f"unknown op {op}")


def main():
    results = []
    for task in json.load(sys.stdin):
        try:
            results.append(run(task))
        except Exception as e:  # noqa: BLE001 - the error is the answer
            results.append({"error": f"{type(e).__name__}: {e}"})
    json.dump(results, sys.stdout)


main()
