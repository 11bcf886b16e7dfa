"""A local HTTP server on 127.0.0.1 that replays recorded answers of the paper sources' APIs (tests/data/fetch).

`ReplayServer()` is a context manager; `server.url` is its base URL. `server.add(path, body, query=None, ...)`
queues an answer for GET `path` whose query holds `query` (a dict of parameter → value, all required); several
answers queued for the same route are given in turn, the last one again and again. An answer may be a 429 with
`Retry-After`, any status, or `cut=N`: the headers promise the whole body but only N bytes are sent before the
connection is closed (a cut mid-page). `server.requests` lists (path, query dict, headers dict) of every request.
An unknown route answers 404. Nothing here touches the internet.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

DATA = Path(__file__).resolve().parents[1] / "data" / "fetch"


def recording(name: str) -> bytes:
    """The bytes of a recorded answer in tests/data/fetch."""
    return (DATA / name).read_bytes()


@dataclass
class Answer:
    body: bytes
    status: int = 200
    headers: dict = field(default_factory=dict)
    cut: int | None = None


@dataclass
class _Route:
    path: str
    query: dict
    answers: list[Answer]
    served: int = 0


class ReplayServer:
    def __init__(self):
        self.routes: list[_Route] = []
        self.requests: list[tuple[str, dict, dict]] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):  # noqa: N802 - http.server's name
                parts = urlsplit(self.path)
                query = dict(parse_qsl(parts.query, keep_blank_values=True))
                answer = server._answer(parts.path, query, dict(self.headers))
                self.send_response(answer.status)
                content_type = answer.headers.get("Content-Type", "application/octet-stream")
                self.send_header("Content-Type", content_type)
                for name, value in answer.headers.items():
                    if name != "Content-Type":
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer.body)))
                if answer.cut is not None:
                    self.send_header("Connection", "close")
                self.end_headers()
                if answer.cut is not None:
                    self.wfile.write(answer.body[: answer.cut])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.wfile.write(answer.body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="replay-server", daemon=True)

    def add(self, path: str, body: bytes | str, query: dict | None = None, status: int = 200,
            headers: dict | None = None, cut: int | None = None, content_type: str | None = None) -> None:
        """Queue an answer for GET `path` (with `query` among its parameters)."""
        data = body.encode("utf-8") if isinstance(body, str) else body
        answer_headers = dict(headers or {})
        if content_type:
            answer_headers["Content-Type"] = content_type
        answer = Answer(data, status, answer_headers, cut)
        query = {key: str(value) for key, value in (query or {}).items()}
        with self._lock:
            for route in self.routes:
                if route.path == path and route.query == query:
                    route.answers.append(answer)
                    return
            self.routes.append(_Route(path, query, [answer]))

    def _answer(self, path: str, query: dict, headers: dict) -> Answer:
        with self._lock:
            self.requests.append((path, query, headers))
            candidates = [route for route in self.routes
                          if route.path == path and all(query.get(k) == v for k, v in route.query.items())]
            if not candidates:
                return Answer(b'{"error": "not recorded"}', 404, {"Content-Type": "application/json"})
            route = max(candidates, key=lambda r: len(r.query))  # the most specific route
            answer = route.answers[min(route.served, len(route.answers) - 1)]
            route.served += 1
            return answer

    def hits(self, path: str) -> int:
        """How many requests asked for `path`."""
        return sum(1 for requested, _query, _headers in self.requests if requested == path)

    def __enter__(self) -> ReplayServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(timeout=5)
