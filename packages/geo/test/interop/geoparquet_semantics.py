"""GeoPandas' and pyarrow's side of the GeoParquet semantics tests.

  write-mixed PATH    writes Polygon, MultiPolygon, null and empty rows with GeoPandas; prints their geom_type
  write-plain PATH    writes a Parquet file with a WKB column and no geo metadata; prints what GeoPandas says of it
  inspect PATH        prints the Arrow schema metadata keys, the Parquet key-value keys and GeoPandas' geom_type
"""
import json
import sys

import geopandas as gpd
import pyarrow as pa
import pyarrow.parquet as pq
import shapely

command, path = sys.argv[1], sys.argv[2]
if command == "write-mixed":
    geoms = shapely.from_wkt([
        "POLYGON ((0 0, 1 0, 1 1, 0 0))",
        "MULTIPOLYGON (((5 5, 6 5, 6 6, 5 5)), ((8 8, 9 8, 9 9, 8 8)))",
        None,
        "POLYGON EMPTY",
        "MULTIPOLYGON (((2 2, 3 2, 3 3, 2 2)))",
    ])
    frame = gpd.GeoDataFrame({"name": ["a", "b", "c", "d", "e"]}, geometry=list(geoms), crs="EPSG:4326")
    frame.index = [10, 11, 12, 13, 14]
    frame.to_parquet(path)
    print(json.dumps({"types": [t if isinstance(t, str) else None for t in frame.geom_type]}))
elif command == "write-plain":
    wkb = shapely.to_wkb(shapely.from_wkt(["POINT (1 2)", "POINT (3 4)"]))
    pq.write_table(pa.table({"id": [1, 2], "geometry": pa.array(list(wkb), pa.binary())}), path)
    try:
        gpd.read_parquet(path)
        said = None
    except Exception as error:  # GeoPandas refuses a file without geo metadata
        said = f"{type(error).__name__}: {error}"
    print(json.dumps({"geopandas": said}))
elif command == "inspect":
    schema = pq.read_schema(path)
    kv = pq.read_metadata(path).metadata or {}
    frame = gpd.read_parquet(path)
    print(json.dumps({
        "schema_keys": sorted(k.decode() for k in (schema.metadata or {})),
        "kv_keys": sorted(k.decode() for k in kv),
        "schema_geo": json.loads(schema.metadata[b"geo"]) if schema.metadata and b"geo" in schema.metadata else None,
        "types": [t if isinstance(t, str) else None for t in frame.geom_type],
    }))
