"""Reads files geoframe wrote with GeoPandas and prints what GeoPandas sees, as JSON.

Usage: python read_with_geopandas.py <file> [<file> ...]
For each file: CRS (as an authority string), columns, geometry column name, WKT, area and length
per row, and null flags. GeoParquet through read_parquet, Arrow IPC through pyarrow + from_arrow,
GeoJSON through read_file.
"""
import json
import sys

import geopandas as gpd
import pyarrow.feather as feather
import shapely


def load(path):
    if path.endswith(".parquet"):
        return gpd.read_parquet(path)
    if path.endswith((".arrow", ".feather")):
        return gpd.GeoDataFrame.from_arrow(feather.read_table(path))
    return gpd.read_file(path)


def describe(path):
    gdf = load(path)
    geoms = gdf.geometry
    crs = gdf.crs.to_string() if gdf.crs is not None else None
    return {
        "crs": crs,
        "columns": list(gdf.columns),
        "geometry": gdf.geometry.name,
        "wkt": [None if g is None else shapely.to_wkt(g, rounding_precision=-1) for g in geoms],
        "area": [None if g is None else float(g.area) for g in geoms],
        "length": [None if g is None else float(g.length) for g in geoms],
        "attributes": {
            c: [None if v is None or v != v else (v if isinstance(v, (str, bool)) else float(v)) for v in gdf[c].tolist()]
            for c in gdf.columns
            if c != gdf.geometry.name
        },
    }


print(json.dumps({path: describe(path) for path in sys.argv[1:]}))
