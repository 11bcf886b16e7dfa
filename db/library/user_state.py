"""What the user made in a library beyond the papers' annotations, for backups and JSON exports: the highlight word
lists, the interests and their dismissals, the venues and files marked "papers I like", the saved searches and the
random progress checks. `state(store)` gives all of it as one JSON value; `restore_state(store, value)` puts it
back, adding what the library lacks and taking nothing away. The saved searches are this module's own table
(schema 9; before, the window kept them in QSettings: `save_search` takes them over once, see
desktop.docks.saved_searches).

The JSON value (key "state" of a Margin JSON document, db.exporters.margin_json):

    {"highlight": {"include": [str], "exclude": [str]}, "interests": [str],
     "dismissed": {tag: [paper id]}, "liked_sources": [[kind, value]],
     "saved_searches": [[name, query]], "checks": [{"scope": str, "drawn_at": str, "papers": [[id, drawn]]}]}
"""

from __future__ import annotations

from db.changes import NOTHING, Changes
from db.library.store import Store, now
from db.library.triage import _tag_id
from db.text.cleaning import clean_tag, strip_controls


# ----------------------------------------------------------------- saved searches
def saved_searches(store: Store) -> list[tuple[str, str]]:
    """The saved searches as (name, query), in the order saved."""
    return store.read("SELECT name, query FROM saved_searches ORDER BY position, rowid")


def save_search(store: Store, name: str, query: str) -> Changes:
    """Save `query` under `name` (whitespace collapsed, controls removed); a search of the same name (in any
    case) is replaced in its place. Changes no paper (the value returned is empty). Raises ValueError for an
    empty name."""
    name = " ".join(strip_controls(name).split())
    if not name:
        raise ValueError("a saved search needs a name")
    with store.transaction() as conn:
        old = conn.execute("SELECT position FROM saved_searches WHERE name = ? COLLATE NOCASE", (name,)).fetchone()
        position = old[0] if old else conn.execute("SELECT COALESCE(MAX(position), -1) + 1 FROM saved_searches"
                                                   ).fetchone()[0]
        conn.execute("DELETE FROM saved_searches WHERE name = ? COLLATE NOCASE", (name,))
        conn.execute("INSERT INTO saved_searches (name, query, position) VALUES (?, ?, ?)",
                     (name, strip_controls(query), position))
    return NOTHING


def remove_saved_search(store: Store, name: str) -> Changes:
    """Forget the saved search `name` (nothing happens when there is none)."""
    with store.transaction() as conn:
        conn.execute("DELETE FROM saved_searches WHERE name = ?", (name,))
    return NOTHING


# ----------------------------------------------------------------- the whole state, out and back
def state(store: Store) -> dict:
    """Everything of the module docstring's JSON value, read in one go."""
    with store.lock:
        words = store.read("SELECT kind, entry FROM highlight_words ORDER BY position")
        dismissed: dict[str, list[str]] = {}
        for name, paper_id in store.read("SELECT t.name, d.paper_id FROM dismissals d JOIN tags t ON t.id = d.tag_id"
                                         " ORDER BY d.dismissed_at, d.rowid"):
            dismissed.setdefault(name, []).append(paper_id)
        checks = []
        for sample_id, scope, drawn_at in store.read("SELECT id, scope, drawn_at FROM check_samples ORDER BY id"):
            checks.append({"scope": scope, "drawn_at": drawn_at, "papers": [
                [paper_id, bool(drawn)] for paper_id, drawn in store.read(
                    "SELECT paper_id, drawn FROM check_papers WHERE sample_id = ? ORDER BY rowid", (sample_id,))]})
        return {
            "highlight": {"include": [entry for kind, entry in words if kind == "include"],
                          "exclude": [entry for kind, entry in words if kind == "exclude"]},
            "interests": store.column("SELECT t.name FROM interests i JOIN tags t ON t.id = i.tag_id"
                                      " ORDER BY t.name COLLATE NOCASE"),
            "dismissed": dismissed,
            "liked_sources": [list(row) for row in store.read("SELECT kind, value FROM liked_sources"
                                                              " ORDER BY kind, value")],
            "saved_searches": [list(row) for row in saved_searches(store)],
            "checks": checks,
        }


def restore_state(store: Store, value: object) -> int:
    """Put a `state` value back in one transaction: highlight words, interests, dismissals, liked sources and saved
    searches the library lacks are added (a saved search of the same name keeps the library's query), and a
    check whose scope and time the library lacks is added with its papers that the library has. Malformed parts
    are skipped. Returns how many items were added."""
    if not isinstance(value, dict):
        return 0
    added = 0
    with store.transaction() as conn:
        def run(sql: str, params: tuple) -> int:
            return conn.execute(sql, params).rowcount

        highlight = value.get("highlight") if isinstance(value.get("highlight"), dict) else {}
        position = conn.execute("SELECT COALESCE(MAX(position), -1) + 1 FROM highlight_words").fetchone()[0]
        for kind in ("include", "exclude"):
            for entry in _strings(highlight.get(kind)):
                if not conn.execute("SELECT 1 FROM highlight_words WHERE kind = ? AND entry = ? COLLATE NOCASE",
                                    (kind, entry)).fetchone():
                    added += run("INSERT OR IGNORE INTO highlight_words VALUES (?, ?, ?)", (kind, entry, position))
                    position += 1
        for name in _strings(value.get("interests")):
            added += _with_tag(conn, name, lambda tag_id: run("INSERT OR IGNORE INTO interests VALUES (?)",
                                                              (tag_id,)))
        dismissed = value.get("dismissed") if isinstance(value.get("dismissed"), dict) else {}
        for name, ids in dismissed.items():
            for paper_id in _strings(ids):
                added += _with_tag(conn, str(name), lambda tag_id, paper_id=paper_id: run(
                    "INSERT OR IGNORE INTO dismissals SELECT id, ?, ? FROM papers WHERE id = ?",
                    (tag_id, now(), paper_id)))
        for pair in value.get("liked_sources") or []:
            if isinstance(pair, list) and len(pair) == 2 and pair[0] in ("venue", "source"):
                added += run("INSERT OR IGNORE INTO liked_sources VALUES (?, ?)", (pair[0], str(pair[1])))
        position = conn.execute("SELECT COALESCE(MAX(position), -1) + 1 FROM saved_searches").fetchone()[0]
        for pair in value.get("saved_searches") or []:
            if isinstance(pair, list) and len(pair) == 2 and " ".join(str(pair[0]).split()):
                name = " ".join(strip_controls(str(pair[0])).split())
                if not conn.execute("SELECT 1 FROM saved_searches WHERE name = ? COLLATE NOCASE", (name,)).fetchone():
                    added += run("INSERT INTO saved_searches VALUES (?, ?, ?)", (name, str(pair[1]), position))
                    position += 1
        for check in value.get("checks") or []:
            added += _restore_check(store, conn, check)
    return added


def _strings(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str) and item.strip()] if isinstance(value, list) else []


def _with_tag(conn, name: str, then) -> int:
    try:
        return then(_tag_id(conn, clean_tag(name)))
    except ValueError:
        return 0


def _restore_check(store: Store, conn, check: object) -> int:
    if not isinstance(check, dict) or not isinstance(check.get("scope"), str) or not check.get("drawn_at"):
        return 0
    scope, drawn_at = check["scope"], str(check["drawn_at"])
    if conn.execute("SELECT 1 FROM check_samples WHERE scope = ? AND drawn_at = ?", (scope, drawn_at)).fetchone():
        return 0
    sample_id = conn.execute("INSERT INTO check_samples (scope, drawn_at, seq) VALUES (?, ?, ?)",
                             (scope, drawn_at, store.last_change())).lastrowid
    conn.executemany("INSERT OR IGNORE INTO check_papers (sample_id, paper_id, drawn) SELECT ?, id, ? FROM papers"
                     " WHERE id = ?", [(sample_id, int(bool(pair[1])), str(pair[0])) for pair in check.get("papers")
                                       or [] if isinstance(pair, list) and len(pair) == 2])
    return 1
