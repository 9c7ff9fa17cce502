"""pandas/GeoPandas answers for the frame-basics tests: a JSON list of tasks on stdin, a JSON list
of results on stdout ({"error": message} where pandas raises). Frames come as {columns, wkb, crs}."""
import json
import math
import sys
import warnings

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

warnings.simplefilter("ignore")


def frame(spec):
    geoms = [None if h is None else shapely.from_wkb(bytes.fromhex(h)) for h in spec["wkb"]]
    cols = {k: pd.Series(v, dtype=spec.get("dtypes", {}).get(k)) for k, v in spec["columns"].items()}
    cols["geometry"] = gpd.GeoSeries(geoms, crs=spec.get("crs"))
    df = gpd.GeoDataFrame(cols, geometry="geometry", crs=spec.get("crs"))
    return df[spec["order"]] if "order" in spec else df


def plain(v):
    if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)):
        return None
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return None if math.isnan(v) else float(v)
    if isinstance(v, shapely.Geometry):
        return shapely.to_wkt(v, rounding_precision=-1)
    return v


def table(df):
    out = {"columns": [str(c) for c in df.columns]}
    out["data"] = {str(c): [plain(v) for v in df[c]] for c in df.columns}
    out["crs"] = df.crs.to_string() if isinstance(df, gpd.GeoDataFrame) and df._geometry_column_name in df and df.crs else None
    out["geometry"] = df._geometry_column_name if isinstance(df, gpd.GeoDataFrame) else None
    return out


def run(task):
    op = task["op"]
    df = frame(task["frame"]) if "frame" in task else None
    if op == "sort":
        return table(df.sort_values(task["by"], ascending=task["ascending"], na_position=task["na"], kind="stable"))
    if op == "merge":
        right = frame(task["right"]).drop(columns="geometry") if not task.get("keep_right_geometry") else frame(task["right"])
        right = pd.DataFrame(right)
        kw = {k: task[k] for k in ["on", "left_on", "right_on"] if task.get(k) is not None}
        r = df.merge(right, how=task["how"], suffixes=tuple(task.get("suffixes", ["_x", "_y"])), **kw)
        return table(r)
    if op == "concat":
        return table(pd.concat([frame(f) for f in task["frames"]], ignore_index=True))
    if op == "value_counts":
        vc = df[task["column"]].value_counts(dropna=task["dropna"], normalize=task.get("normalize", False))
        return {"keys": [plain(k) for k in vc.index], "counts": [plain(v) for v in vc.values]}
    if op == "groupby_size":
        g = df.groupby(task["by"]).size()
        return {"keys": [plain(k) for k in g.index], "counts": [int(v) for v in g.values]}
    if op == "assign":
        return table(df.assign(**task["columns"]))
    if op == "rename":
        return table(df.rename(columns=task["mapping"], errors="raise"))
    if op == "drop":
        return table(df.drop(columns=task["columns"]))
    raise ValueError(op)


def safe(task):
    try:
        return run(task)
    except Exception as e:  # the test checks which cases raise
        return {"error": f"{type(e).__name__}: {e}"}


json.dump([safe(t) for t in json.load(sys.stdin)], sys.stdout)
