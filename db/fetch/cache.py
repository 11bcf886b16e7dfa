"""The response cache of the paper sources: each page fetched, kept for a day.

One file per URL under the cache folder (`platformdirs.user_cache_dir("Margin")/fetch`, or $MARGIN_FETCH_CACHE):
its name is the SHA-256 of the URL, its first line a JSON header {"url", "time"} (seconds since the epoch), the
rest the body as received (UTF-8). Written to a temporary file and renamed, so a cut never leaves half a page.
Only pages that parsed are put here (db.fetch.http.Client.get): a malformed answer is never served again.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

import platformdirs

DAY = 24 * 3600


def default_cache_dir() -> Path:
    """$MARGIN_FETCH_CACHE when set, else the user's cache folder for Margin + /fetch."""
    env = os.environ.get("MARGIN_FETCH_CACHE")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_cache_dir("Margin", appauthor=False)) / "fetch"


class ResponseCache:
    """Pages by URL, fresh for `max_age` seconds (a day). Unreadable or stale files count as missing."""

    def __init__(self, folder: Path | None = None, max_age: float = DAY):
        self.folder = Path(folder) if folder is not None else default_cache_dir()
        self.max_age = max_age

    def _path(self, url: str) -> Path:
        return self.folder / (hashlib.sha256(url.encode("utf-8")).hexdigest() + ".page")

    def get(self, url: str) -> str | None:
        """The body stored for `url` when it is younger than max_age, else None."""
        try:
            header, _, body = self._path(url).read_text(encoding="utf-8").partition("\n")
            meta = json.loads(header)
        except (OSError, ValueError, UnicodeDecodeError):
            return None
        if meta.get("url") != url or time.time() - float(meta.get("time", 0)) > self.max_age:
            return None
        return body

    def put(self, url: str, body: str) -> None:
        """Keep `body` for `url`; a cache that cannot be written is skipped silently (the fetch goes on)."""
        path = self._path(url)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            temporary = path.with_suffix(".tmp")
            temporary.write_text(json.dumps({"url": url, "time": time.time()}) + "\n" + body, encoding="utf-8")
            os.replace(temporary, path)
        except OSError:
            pass

    def drop(self, url: str) -> None:
        try:
            self._path(url).unlink()
        except OSError:
            pass
