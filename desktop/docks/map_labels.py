"""Where the conference map (desktop.docks.map) writes its region names: greedy by region size, each name at its
region's centre, or nudged a little when that spot would cover a name already placed, or left out when no spot
near its region is free. Names never overlap, at any zoom (the trial saw "regret · online · inference" over
"recurrent · term · long").

`place` works in pixels (no Qt): rectangles as (left, top, width, height)."""

from __future__ import annotations

GAP = 2.0  # pixels kept free between two names
# tried in turn, in label heights (vertical) and widths (horizontal) from the region's centre
NUDGES = ((0, 0), (0, -1.1), (0, 1.1), (0.35, 0), (-0.35, 0), (0.35, -1.1), (-0.35, -1.1), (0.35, 1.1),
          (-0.35, 1.1), (0, -2.2), (0, 2.2))

Box = tuple[float, float, float, float]


def _overlaps(a: Box, b: Box) -> bool:
    return (a[0] < b[0] + b[2] + GAP and b[0] < a[0] + a[2] + GAP
            and a[1] < b[1] + b[3] + GAP and b[1] < a[1] + a[3] + GAP)


def place(labels: list[tuple[float, float, float, float, int]], width: float, height: float
          ) -> list[tuple[float, float] | None]:
    """For each label (centre x, centre y, width, height, papers in its region), in pixels of a view `width` ×
    `height`: the centre it is drawn at, or None when it is left out. The biggest regions choose first; a
    name is kept inside the view (moved in from an edge) when the view is wide enough for it."""
    placed: list[Box] = []
    out: list[tuple[float, float] | None] = [None] * len(labels)
    for index in sorted(range(len(labels)), key=lambda i: -labels[i][4]):
        x, y, w, h, _papers = labels[index]
        for dx, dy in NUDGES:
            cx = x + dx * w
            cy = y + dy * h
            if width > w:
                cx = min(max(cx, w / 2), width - w / 2)
            if height > h:
                cy = min(max(cy, h / 2), height - h / 2)
            box = (cx - w / 2, cy - h / 2, w, h)
            if not any(_overlaps(box, other) for other in placed):
                placed.append(box)
                out[index] = (cx, cy)
                break
    return out


def show_labels(dock, level: int) -> None:
    """Show `dock`'s region names of `level` (a MapDock: `_labels` (level, item, papers), `_centres`,
    `view_box`), placed without overlaps; hide the others."""
    (x0, x1), (y0, y1) = dock.view_box.viewRange()
    px, py = dock.view_box.viewPixelSize()  # view units per pixel
    if not px or not py:
        return
    wanted = [(index, item) for index, (item_level, item, _papers) in enumerate(dock._labels) if item_level == level]
    boxes = []
    for index, item in wanted:
        centre, box = dock._centres[index], item.boundingRect()
        boxes.append(((centre[0] - x0) / px, (y1 - centre[1]) / py, box.width(), box.height(), dock._labels[index][2]))
    spots = place(boxes, (x1 - x0) / px, (y1 - y0) / py)
    shown = set()
    for (index, item), spot in zip(wanted, spots, strict=True):
        if spot is not None:
            item.setPos(x0 + spot[0] * px, y1 - spot[1] * py)
            shown.add(index)
    for index, (_level, item, _papers) in enumerate(dock._labels):
        item.setVisible(index in shown)
