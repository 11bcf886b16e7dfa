"""The one HTTP client of Margin's paper sources: polite, cached, resumable, cancellable.

`Client(source)` gets pages of one source (db.fetch.sources: its name, base URL and least interval between two
requests). Every request:
- is answered from the response cache when the same URL was fetched less than a day ago (db.fetch.cache), so a
  re-fetch is cheap and a fetch cut off midway continues where it stopped (the pages it had are kept);
- else waits until the source's interval since its last request has passed (arXiv asks for 3 s, DBLP 1 s …),
  sends a `User-Agent` naming Margin, and retries with back-off (1, 2, 4 s; at most 4 tries) on a connection
  cut mid-answer, a time-out, 5xx, or 429 — honouring a 429's or 503's `Retry-After` (seconds, capped at 120);
- is parsed by the caller's `parse(text)`; a body that does not parse (ValueError, KeyError, TypeError) is a
  FetchError "malformed answer" and is not cached.
Errors are FetchError, one line naming the source and the reason ("openreview: offline or unreachable
(api2.openreview.net)", "crossref: refused (HTTP 404 Not Found)"); `cancel` (a threading.Event) set makes the
next request or wait raise FetchCancelled. Base URLs come from the source, overridden by the environment
variable MARGIN_FETCH_<NAME>_URL (tests point the real client at a local server that way).
"""

from __future__ import annotations

import email.utils
import os
import threading
import time
from collections.abc import Callable
from typing import TypeVar
from urllib.parse import urlencode, urlsplit

import requests

from db.errors import MarginError
from db.fetch.cache import ResponseCache

T = TypeVar("T")
USER_AGENT = "Margin/0.1 (a desktop reader of research-paper abstracts; python-requests)"
TRIES = 4
BACKOFF = (1.0, 2.0, 4.0)
MAX_RETRY_AFTER = 120.0
TIMEOUT = 30.0


class FetchError(MarginError):
    """A source could not be read: offline, refused, or an answer that does not parse. str() is one line naming
    the source. Nothing was changed in the library."""


class FetchCancelled(FetchError):
    """The user cancelled the fetch; what was fetched so far stays in the cache for the next run."""


def base_url(name: str, default: str) -> str:
    """The base URL of source `name`: $MARGIN_FETCH_<NAME>_URL when set, else `default` (no trailing slash)."""
    return (os.environ.get(f"MARGIN_FETCH_{name.upper()}_URL") or default).rstrip("/")


_last_request: dict[str, float] = {}  # source name → monotonic time of its last request (all clients share it)
_last_lock = threading.Lock()


class Client:
    """Gets pages of one source. `interval` is the least time in seconds between two requests to it (scaled by
    $MARGIN_FETCH_WAIT_SCALE, 1 by default); `cache` None keeps nothing; `sleep` is time.sleep unless a test
    gives another. `requests_made` counts what went to the network (cache hits do not count)."""

    def __init__(self, name: str, base: str, interval: float = 1.0, cache: ResponseCache | None = None,
                 cancel: threading.Event | None = None, sleep: Callable[[float], None] | None = None):
        self.name = name
        self.base = base.rstrip("/")
        self.interval = interval * float(os.environ.get("MARGIN_FETCH_WAIT_SCALE", "1") or 1)
        self.cache = cache
        self.cancel = cancel or threading.Event()
        self.sleep = sleep or self._sleep
        self.requests_made = 0
        self.waits: list[float] = []  # every wait for a Retry-After or a back-off, in seconds
        self.session = requests.Session()
        self.session.headers["User-Agent"] = USER_AGENT

    def url(self, path: str, params: dict | None = None) -> str:
        """The full URL of `path` under the base, with `params` in a stable order."""
        query = urlencode(sorted((params or {}).items()), doseq=True)
        return f"{self.base}/{path.lstrip('/')}" + (f"?{query}" if query else "")

    def get(self, path: str, params: dict | None, parse: Callable[[str], T]) -> T:
        """The page at `path?params`, parsed by `parse(text)`; from the cache when fresh. Raises FetchError."""
        url = self.url(path, params)
        if self.cache is not None:
            text = self.cache.get(url)
            if text is not None:
                try:
                    return parse(text)
                except (ValueError, KeyError, TypeError):
                    self.cache.drop(url)
        text = self._download(url)
        try:
            value = parse(text)
        except (ValueError, KeyError, TypeError) as error:
            raise FetchError(f"{self.name}: a malformed answer from {self._host(url)} ({_short(error)}); "
                             "nothing was changed") from None
        if self.cache is not None:
            self.cache.put(url, text)
        return value

    def _download(self, url: str) -> str:
        for attempt in range(TRIES):
            self._check_cancel()
            self._wait_turn()
            self.requests_made += 1
            try:
                response = self.session.get(url, timeout=TIMEOUT)
                if response.status_code == 200:
                    response.encoding = response.encoding or "utf-8"
                    return response.text  # reads the whole body: a cut mid-body raises here
            except (requests.exceptions.ChunkedEncodingError, requests.exceptions.Timeout,
                    requests.exceptions.ContentDecodingError) as error:
                if attempt + 1 == TRIES:
                    raise FetchError(f"{self.name}: the connection to {self._host(url)} was cut "
                                     f"({_short(error)}); nothing was changed") from None
                self._pause(BACKOFF[min(attempt, len(BACKOFF) - 1)])
                continue
            except requests.exceptions.ConnectionError as error:
                if attempt + 1 == TRIES or not _was_cut(error):
                    raise FetchError(f"{self.name}: offline or unreachable ({self._host(url)}); "
                                     "nothing was changed") from None
                self._pause(BACKOFF[min(attempt, len(BACKOFF) - 1)])
                continue
            status = response.status_code
            if (status == 429 or status >= 500) and attempt + 1 < TRIES:
                wait = _retry_after(response.headers.get("Retry-After"))
                self._pause(wait if wait is not None else BACKOFF[min(attempt, len(BACKOFF) - 1)])
                continue
            raise FetchError(f"{self.name}: refused (HTTP {status} {response.reason or ''}".rstrip()
                             + "); nothing was changed")
        raise FetchError(f"{self.name}: no answer after {TRIES} tries; nothing was changed")  # pragma: no cover

    def _wait_turn(self) -> None:
        with _last_lock:
            last = _last_request.get(self.name)
        if last is not None:
            left = self.interval - (time.monotonic() - last)
            if left > 0:
                self.sleep(left)
        with _last_lock:
            _last_request[self.name] = time.monotonic()

    def _pause(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.sleep(seconds)

    def _sleep(self, seconds: float) -> None:
        """Sleep, waking up at once when the fetch is cancelled."""
        if self.cancel.wait(seconds):
            raise FetchCancelled(f"{self.name}: cancelled; what was fetched is kept for the next run")

    def _check_cancel(self) -> None:
        if self.cancel.is_set():
            raise FetchCancelled(f"{self.name}: cancelled; what was fetched is kept for the next run")

    @staticmethod
    def _host(url: str) -> str:
        return urlsplit(url).netloc or url


def _retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header: a number of seconds or an HTTP date; None when absent."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:  # an HTTP date; a header that is neither (a server's own words) means: no advice
            parsed = email.utils.parsedate_to_datetime(value)
        except (ValueError, TypeError, IndexError):
            return None
        if parsed is None:
            return None
        seconds = parsed.timestamp() - time.time()
    return max(0.0, min(seconds, MAX_RETRY_AFTER))


def _was_cut(error: Exception) -> bool:
    """True for a connection that was dropped after it was made (worth a retry), not a refused or unknown host."""
    text = str(error).lower()
    return any(word in text for word in ("reset", "aborted", "remotedisconnected", "incomplete", "broken pipe",
                                         "closed connection"))


def _short(error: Exception) -> str:
    text = " ".join(str(error).split())
    return text[:120] or type(error).__name__
