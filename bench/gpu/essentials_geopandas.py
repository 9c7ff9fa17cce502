"""GeoPandas' side of bench/gpu/essentials.ts: the same cases, medians of N runs in ms.
   python bench/gpu/essentials_geopandas.py [--small] [--runs N]"""
import sys
import time

import geopandas as gpd
import numpy as np
import shapely

small = "--small" in sys.argv
runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else (3 if small else 10)


def median_ms(fn):
    fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return float(np.median(times))


rng = np.random.default_rng(7)
print("| case | n | GeoPandas ms |\n| --- | ---: | ---: |")
for n in [10_000] if small else [1_000_000, 10_000_000]:
    pts = gpd.GeoSeries(gpd.points_from_xy(12 + 6 * rng.random(n), 45 + 10 * rng.random(n)), crs=4326)
    for target in ["EPSG:32633", "EPSG:3857"]:
        print(f"| to_crs → {target} | {n} | {median_ms(lambda: pts.to_crs(target)):.1f} |")
n_points, n_sites = (10_000, 100) if small else (1_000_000, 10_000)
sites = gpd.GeoDataFrame(geometry=gpd.points_from_xy(*(1000 * rng.random((2, n_sites)))), crs=3857)
box = shapely.box(0, 0, 1000, 1000)
cells = gpd.GeoDataFrame(geometry=sites.geometry.voronoi_polygons(extend_to=box).clip(box).values, crs=3857)
customers = gpd.GeoDataFrame(geometry=gpd.points_from_xy(*(1000 * rng.random((2, n_points)))), crs=3857)
print(f"| sindex build (cells) | {n_sites} | {median_ms(lambda: gpd.GeoSeries(cells.geometry.values).sindex.size):.1f} |")
print(f"| sjoin within (points into cells) | {n_points} | {median_ms(lambda: gpd.sjoin(customers, cells, predicate='within')):.1f} |")
print(f"| sjoin_nearest (points to sites) | {n_points} | {median_ms(lambda: gpd.sjoin_nearest(customers, sites)):.1f} |")
cell = cells.geometry.iloc[0]
print(f"| within one polygon (broadcast) | {n_points} | {median_ms(lambda: customers.geometry.within(cell)):.1f} |")
