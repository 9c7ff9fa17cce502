"""Writes one seeded GeoDataFrame per case with GeoPandas in every format geoframe reads (Feather
uncompressed/LZ4/Zstandard, Shapefile as files and as a zip, FlatGeobuf, GeoPackage), and answers
what GeoPandas reads back (columns, dtypes, values, WKT, CRS as EPSG where it has one), so the
test compares geoframe's reading to GeoPandas' own. With "check", reads files geoframe wrote.
   python vector_formats.py write OUTDIR | check FILE... | epsg (CRS strings on stdin)"""
import json
import math
import os
import sys
import warnings
import zipfile

import geopandas as gpd
import numpy as np
import shapely
import shapely.affinity

warnings.simplefilter("ignore")


def plain(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return None if math.isnan(v) else float(v)
    if hasattr(v, "isoformat"):
        return None if str(v) == "NaT" else v.isoformat()
    return v


def describe(df):
    crs = df.crs
    return {
        "columns": [str(c) for c in df.columns],
        "geometry": df.geometry.name,
        "dtypes": {str(c): str(df[c].dtype) for c in df.columns if c != df.geometry.name},
        "data": {str(c): [plain(v) for v in df[c]] for c in df.columns if c != df.geometry.name},
        "wkb": [None if g is None else shapely.to_wkb(g, hex=True) for g in df.geometry],
        "epsg": None if crs is None else crs.to_epsg(),
    }


def frames(seed):
    rng = np.random.default_rng(seed)
    n = 12
    x, y = 500000 + rng.random(n) * 1000, 4e6 + rng.random(n) * 1000
    points = [shapely.Point(a, b) for a, b in zip(x, y)]
    points[3] = None
    polys = [shapely.Point(a, b).buffer(5 + 10 * rng.random(), 3) for a, b in zip(x, y)]
    polys[2] = shapely.Polygon([(0, 0), (10, 0), (10, 10), (0, 10)], [[(2, 2), (2, 4), (4, 4), (4, 2)]])
    polys[5] = shapely.MultiPolygon([shapely.box(0, 0, 1, 1), shapely.box(2, 2, 3, 3)])
    polys[7] = shapely.Polygon([(0, 0), (2, 2), (2, 0), (0, 2)])  # a bowtie: invalid, kept as it is
    attrs = {
        "name": [None if i == 4 else f"r{i}-é" for i in range(n)],
        "count": rng.integers(-5, 1000, n).astype("int32"),
        "value": np.where(np.arange(n) == 6, np.nan, rng.normal(size=n) * 1e6),
        "flag": rng.random(n) > 0.5,
    }
    crs = [32633, 4326, 3857][seed % 3]
    if crs == 4326:
        points = [None if p is None else shapely.Point(12 + p.x / 1e6, 45 + p.y / 1e7) for p in points]
        polys = [shapely.affinity.scale(shapely.affinity.translate(p, -500000, -4e6), 1e-4, 1e-4, origin=(0, 0)) for p in polys]
    return {
        "points": gpd.GeoDataFrame(attrs, geometry=points, crs=crs),
        "polygons": gpd.GeoDataFrame(attrs, geometry=polys, crs=crs),
    }


def write(out):
    answers = {}
    for seed in [1, 3]:  # EPSG:4326 and a UTM zone
        for kind, df in frames(seed).items():
            base = os.path.join(out, f"{kind}{seed}")
            for comp in ["uncompressed", "lz4", "zstd"]:
                df.to_feather(f"{base}.{comp}.feather", compression=comp)
            df.to_file(f"{base}.shp", engine="pyogrio")
            with zipfile.ZipFile(f"{base}.zip", "w") as z:
                for ext in ["shp", "shx", "dbf", "prj", "cpg"]:
                    if os.path.exists(f"{base}.{ext}"):
                        z.write(f"{base}.{ext}", f"{kind}{seed}.{ext}")
            df.to_file(f"{base}.fgb", driver="FlatGeobuf", engine="pyogrio", SPATIAL_INDEX="NO")
            # a spatial index holds no null geometry
            df[df.geometry.notna()].to_file(f"{base}.indexed.fgb", driver="FlatGeobuf", engine="pyogrio")
            df.to_file(f"{base}.gpkg", driver="GPKG", engine="pyogrio", layer=f"{kind}{seed}")
            for ext in ["uncompressed.feather", "lz4.feather", "zstd.feather", "shp", "zip", "fgb", "indexed.fgb", "gpkg"]:
                path = f"{base}.{ext}"
                answers[path] = describe(gpd.read_feather(path) if ext.endswith("feather") else gpd.read_file(path))
    json.dump(answers, sys.stdout)


def check(paths):
    out = {}
    for p in paths:
        try:
            out[p] = describe(gpd.read_feather(p) if p.endswith((".arrow", ".feather")) else gpd.read_file(p))
        except Exception as e:
            out[p] = {"error": f"{type(e).__name__}: {e}"}
    json.dump(out, sys.stdout)


def epsg(crs_list):
    from pyproj import CRS
    json.dump([None if c is None else CRS.from_user_input(c).to_epsg() for c in crs_list], sys.stdout)


if sys.argv[1] == "epsg":
    epsg(json.load(sys.stdin))
elif sys.argv[1] == "write":
    write(sys.argv[2])
else:
    check(sys.argv[2:])
