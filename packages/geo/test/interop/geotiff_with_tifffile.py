"""GeoTIFF through tifffile, an implementation independent of geotiff.js.

Usage:
  geotiff_with_tifffile.py read <file.tif>   prints JSON: width, height, values (NaN as null),
                                             pixel scale, tie point, GDAL no-data, EPSG, dtype
  geotiff_with_tifffile.py write <file.tif>  reads JSON {width, height, values, scale, tiepoint,
                                             nodata, epsg} from stdin and writes a tiled,
                                             zlib-compressed float32 GeoTIFF (as GDAL writes them)
"""

import json
import math
import sys

import numpy as np
import tifffile

mode, path = sys.argv[1], sys.argv[2]
if mode == "read":
    with tifffile.TiffFile(path) as tif:
        page = tif.pages[0]
        data = page.asarray()
        tags = page.tags
        geo = tif.geotiff_metadata or {}
        nodata = tags.get("GDAL_NODATA")
        out = {
            "width": int(data.shape[1]),
            "height": int(data.shape[0]),
            "dtype": str(data.dtype),
            "values": [None if isinstance(v, float) and math.isnan(v) else v for v in data.ravel().tolist()],
            "scale": list(tags["ModelPixelScaleTag"].value),
            "tiepoint": list(tags["ModelTiepointTag"].value),
            "nodata": nodata.value.strip("\x00") if nodata else None,
            "epsg": int(geo.get("ProjectedCSTypeGeoKey", geo.get("GeographicTypeGeoKey", 0)) or 0),
        }
    print(json.dumps(out))
else:
    spec = json.load(sys.stdin)
    values = np.array(
        [np.nan if v is None else v for v in spec["values"]], dtype=np.float32
    ).reshape(spec["height"], spec["width"])
    values[np.isnan(values)] = spec["nodata"]
    # GeoKeyDirectory: version 1.1.0, 3 keys: model type projected, raster type pixel-is-area, EPSG
    keys = [1, 1, 0, 3, 1024, 0, 1, 1, 1025, 0, 1, 1, 3072, 0, 1, spec["epsg"]]
    extratags = [
        (33550, "d", 3, spec["scale"], True),
        (33922, "d", 6, spec["tiepoint"], True),
        (34735, "H", len(keys), keys, True),
        (42113, "s", 0, str(spec["nodata"]), True),
    ]
    tifffile.imwrite(path, values, tile=(16, 16), compression="zlib", extratags=extratags)
