"""The conference map as a picture: the colours of its dots (by rating, read state or one tag) and the PNG image
(Pillow), so that `margin map --output` and the window's File → Export map… draw the same picture."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from db.library.library import Library
from db.map.layout import COARSE, ConferenceMap

RATING_COLOURS = {  # 1★ … 5★: red to green, readable on white and on dark backgrounds
    1: (215, 48, 39), 2: (244, 109, 67), 3: (230, 180, 40), 4: (102, 189, 99), 5: (26, 152, 80)}
UNRATED = (84, 104, 140)
READ_COLOUR, UNREAD_COLOUR = (33, 110, 200), (150, 150, 160)
TAGGED_COLOUR = (200, 60, 160)
COLOUR_KINDS = ("rating", "read", "tag")


def colours(library: Library, ids: Sequence[str], by: str = "rating", tag: str | None = None) -> np.ndarray:
    """(len(ids), 3) uint8 RGB of each paper: `by` "rating" (RATING_COLOURS, UNRATED), "read" (READ_COLOUR,
    UNREAD_COLOUR) or "tag" (TAGGED_COLOUR for papers carrying `tag`, else UNRATED). Raises ValueError for
    another `by`."""
    if by not in COLOUR_KINDS:
        raise ValueError(f"colour by {by!r}: one of {', '.join(COLOUR_KINDS)}")
    out = np.empty((len(ids), 3), dtype=np.uint8)
    out[:] = UNREAD_COLOUR if by == "read" else UNRATED
    if by == "tag":
        on = set(library.tagged_ids(tag or ""))
        for j, paper_id in enumerate(ids):
            if paper_id in on:
                out[j] = TAGGED_COLOUR
        return out
    values = library.ratings() if by == "rating" else dict.fromkeys(library.read_ids(), 1)
    for j, paper_id in enumerate(ids):
        value = values.get(paper_id)
        if by == "rating" and value in RATING_COLOURS:
            out[j] = RATING_COLOURS[value]
        elif by == "read" and value:
            out[j] = READ_COLOUR
    return out


# ---------------------------------------------------------------------------------------------- the image
def render_png(conference_map: ConferenceMap, rgb: np.ndarray, path: Path | str, lit: Iterable[str] | None = None,
               size: tuple[int, int] = (1800, 1300), title: str = "", level: int = COARSE) -> None:
    """Draw the map as a PNG (Pillow): every paper a dot in its colour (`rgb`, one row per map row); with
    `lit`, the others faint grey; the regions of `level` named at their centres; `title` on top.
    Raises OSError when the file cannot be written."""
    from PIL import Image, ImageDraw, ImageFont

    width, height = size
    image = Image.new("RGB", size, (255, 255, 255))
    draw = ImageDraw.Draw(image)
    margin, top = 40, 70 if title else 40
    xy = conference_map.xy
    if len(xy):
        low, high = xy.min(axis=0), xy.max(axis=0)
        spread = np.maximum(high - low, 1e-9)
        room = np.array([width - 2 * margin, height - top - margin], dtype=np.float64)
        scale = float(min(room / spread))
        offset = np.array([margin, top]) + (room - spread * scale) / 2

        def to_pixel(points):
            points = (np.asarray(points, dtype=np.float64) - low) * scale + offset
            points[..., 1] = 2 * top + room[1] - points[..., 1]  # y grows upwards on the map
            return points

        pixels = to_pixel(xy)
        lit_mask = np.ones(len(xy), dtype=bool)
        if lit is not None:
            lit_mask[:] = False
            lit_mask[conference_map.rows_of(lit)] = True
        radius = 3 if len(xy) > 3000 else 4
        for i in np.flatnonzero(~lit_mask):
            x, y = pixels[i]
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=(222, 222, 228))
        for i in np.flatnonzero(lit_mask):
            x, y = pixels[i]
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=tuple(int(c) for c in rgb[i]))
        font = ImageFont.load_default(size=17)
        for region in conference_map.regions_at(level):
            if not region.terms:
                continue
            x, y = to_pixel(region.center)
            draw.text((x, y), region.label, font=font, fill=(30, 30, 30), anchor="mm", stroke_width=3,
                      stroke_fill=(255, 255, 255))
    if title:
        draw.text((margin, 22), title, font=ImageFont.load_default(size=24), fill=(20, 20, 20))
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    image.save(path, format="PNG")
