"""The conference map: one point per paper, placed by text similarity, with named regions; cached in
`<library>/map/map.npz`. This module is the map's face; the concepts live beside it:

| module            | holds                                                                     |
|-------------------|---------------------------------------------------------------------------|
| db.map.layout     | ConferenceMap, Region; placement (SVD, t-SNE, placing new papers), regions |
| db.map.cache      | MapCache (load, save, refresh: unchanged, placed or fitted), RefreshReport |
| db.map.picture    | the dot colours (by rating, read state or tag) and the PNG image            |

`from db.map import conference_map as cm` keeps working: every public name is here.
"""

from __future__ import annotations

from db.map.cache import CACHE_DIR, CACHE_FILE, CACHE_SCHEMA, REFIT_SHARE, MapCache, RefreshReport
from db.map.layout import (
    COARSE,
    FINE,
    MIN_TERM_SHARE,
    MIN_TSNE,
    NEIGHBOURS,
    SEED,
    SVD_DIMENSIONS,
    TERMS_PER_REGION,
    ConferenceMap,
    Region,
    cluster,
    compute,
    embed,
    extend,
    name_regions,
    place,
    points_in_polygon,
    reduce,
    region_count,
)
from db.map.picture import (
    COLOUR_KINDS,
    RATING_COLOURS,
    READ_COLOUR,
    TAGGED_COLOUR,
    UNRATED,
    UNREAD_COLOUR,
    colours,
    render_png,
)

__all__ = ["CACHE_DIR", "CACHE_FILE", "CACHE_SCHEMA", "COARSE", "COLOUR_KINDS", "FINE", "MIN_TERM_SHARE", "MIN_TSNE",
           "NEIGHBOURS", "RATING_COLOURS", "READ_COLOUR", "REFIT_SHARE", "SEED", "SVD_DIMENSIONS", "TAGGED_COLOUR",
           "TERMS_PER_REGION", "UNRATED", "UNREAD_COLOUR", "ConferenceMap", "MapCache", "Region", "RefreshReport",
           "cluster", "colours", "compute", "embed", "extend", "name_regions", "place", "points_in_polygon", "reduce",
           "region_count", "render_png"]
