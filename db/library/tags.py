"""Tags: adding and removing them on a paper, renaming, merging and deleting them library-wide, and the tag
counts and carriers. A tag is matched by its key (db.text.cleaning.tag_key: case-insensitive in NFC) and
stored as `clean_tag` gives it. Each mutation is one write transaction of the store and returns its Changes."""

from __future__ import annotations

from collections.abc import Iterable

from db.changes import NOTHING, TAGS, Changes
from db.library.annotations import annotate
from db.library.reading import paper
from db.library.store import Store, wall_ms
from db.library.works import versions_in
from db.text.cleaning import clean_tag, tag_key


def add_tags(store: Store, paper_id: str, names: Iterable[str]) -> Changes:
    """Add tags to a paper, reusing an existing tag that matches case-insensitively in NFC (each tag as
    `clean_tag` stores it: no C0 control characters, whitespace collapsed; `Paper.tags` gives the names).
    A tag no paper carries (untagged, or only an interest) takes the spelling given now, keeping its interest
    and dismissals: the spelling of a tag in use is the one its papers show.

    Raises ValueError for an empty tag, KeyError for an unknown paper."""
    cleaned = [clean_tag(name) for name in names]
    changed = []
    with store.transaction() as conn:
        annotate(store, conn, paper_id)
        for version in versions_in(conn, paper_id):  # a tag is the work's: every version carries it
            annotate(store, conn, version)
            added = 0
            for name in cleaned:
                key = tag_key(name)
                conn.execute("INSERT OR IGNORE INTO tags (name, key) VALUES (?, ?)", (name, key))
                tag_id, spelled = conn.execute("SELECT id, name FROM tags WHERE key = ?", (key,)).fetchone()
                if spelled != name and not conn.execute("SELECT 1 FROM paper_tags WHERE tag_id = ?",
                                                        (tag_id,)).fetchone():
                    conn.execute("UPDATE tags SET name = ? WHERE id = ?", (name, tag_id))
                added += conn.execute("INSERT OR IGNORE INTO paper_tags VALUES (?, ?)", (version, tag_id)).rowcount
            if added:
                changed.append(version)
        return store.log(conn, changed, TAGS) if changed else NOTHING


def remove_tags(store: Store, paper_id: str, names: Iterable[str]) -> Changes:
    """Remove tags (matched case-insensitively in NFC) from a paper; unknown tags are ignored. Raises KeyError
    for an unknown paper."""
    keys = [tag_key(name) for name in names]
    changed = []
    with store.transaction() as conn:
        annotate(store, conn, paper_id)
        for version in versions_in(conn, paper_id):  # from every version of the work
            removed = sum(conn.execute("DELETE FROM paper_tags WHERE paper_id = ? AND tag_id IN"
                                       " (SELECT id FROM tags WHERE key = ?)", (version, key)).rowcount for key in keys)
            if removed:
                changed.append(version)
        return store.log(conn, changed, TAGS) if changed else NOTHING


def set_tags(store: Store, paper_id: str, names: Iterable[str]) -> Changes:
    """Make the paper's tags exactly `names` (matched case-insensitively). Raises KeyError for an unknown
    paper, ValueError for an empty tag."""
    wanted = {tag_key(clean_tag(name)): name for name in names}
    current = {tag_key(name) for name in paper(store, paper_id).tags}
    return (remove_tags(store, paper_id, [key for key in current if key not in wanted])
            | add_tags(store, paper_id, list(wanted.values())))


def rename_tag(store: Store, old: str, new: str) -> Changes:
    """Rename tag `old` to `new` on every paper; when `new` exists already, the two tags are merged (under the
    spelling `new` gives when no paper carries that tag, as in `add_tags`).

    Raises KeyError when `old` does not exist, ValueError when `new` is empty or too long."""
    new_name = clean_tag(new)
    old_key, new_key = tag_key(old), tag_key(new_name)
    with store.transaction() as conn:
        row = conn.execute("SELECT id, name FROM tags WHERE key = ?", (old_key,)).fetchone()
        if row is None:
            raise KeyError(old)
        old_id, old_name = row
        if old_name == new_name:
            return NOTHING
        ids = [r[0] for r in conn.execute("SELECT paper_id FROM paper_tags WHERE tag_id = ?", (old_id,))]
        target = conn.execute("SELECT id FROM tags WHERE key = ?", (new_key,)).fetchone()
        if target is None or target[0] == old_id:
            conn.execute("UPDATE tags SET name = ?, key = ? WHERE id = ?", (new_name, new_key, old_id))
        else:
            if not conn.execute("SELECT 1 FROM paper_tags WHERE tag_id = ?", (target[0],)).fetchone():
                conn.execute("UPDATE tags SET name = ? WHERE id = ?", (new_name, target[0]))  # as add_tags
            conn.execute("INSERT OR IGNORE INTO paper_tags SELECT paper_id, ? FROM paper_tags WHERE tag_id = ?",
                         (target[0], old_id))
            conn.execute("DELETE FROM tags WHERE id = ?", (old_id,))
        # a sync replays the rename as an operation (db.sync), so papers tagged `old` elsewhere follow it
        conn.execute("INSERT INTO tag_renames (old_key, new_name, at) VALUES (?, ?, ?)", (old_key, new_name, wall_ms()))
        return store.log(conn, ids, TAGS)


def delete_tag(store: Store, name: str) -> Changes:
    """Remove tag `name` from every paper (nothing changes when there is no such tag)."""
    with store.transaction() as conn:
        row = conn.execute("SELECT id FROM tags WHERE key = ?", (tag_key(name),)).fetchone()
        if row is None:
            return NOTHING
        ids = [r[0] for r in conn.execute("SELECT paper_id FROM paper_tags WHERE tag_id = ?", row)]
        conn.execute("DELETE FROM tags WHERE id = ?", row)
        return store.log(conn, ids, TAGS)


def tag_counts(store: Store) -> list[tuple[str, int]]:
    """Every tag with the number of papers carrying it, sorted by name (case-insensitive)."""
    return store.read("SELECT t.name, COUNT(pt.paper_id) FROM tags t LEFT JOIN paper_tags pt ON pt.tag_id = t.id"
                      " GROUP BY t.id HAVING COUNT(pt.paper_id) > 0 ORDER BY t.name COLLATE NOCASE")


def tagged_ids(store: Store, name: str) -> list[str]:
    """Ids of the papers carrying tag `name` (matched case-insensitively in NFC), in library order."""
    return store.column(
        "SELECT p.id FROM papers p JOIN paper_tags pt ON pt.paper_id = p.id JOIN tags t ON t.id = pt.tag_id"
        " WHERE t.key = ? ORDER BY p.position", (tag_key(name),))
