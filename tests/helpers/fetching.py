"""What the fetch tests share: a replay server with the recorded answers of each source queued (tests/data/fetch,
README there), and the environment that points Margin's real client at it (base URLs, a cache folder of the
test's own, no waiting between requests)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.replay_server import ReplayServer, recording

SOURCES = ("openreview", "arxiv", "crossref", "dblp", "pmlr", "acl")
JSON = "application/json"
ATOM = "application/atom+xml"
VENUE = "ICLR.cc/2018/Conference"


@pytest.fixture
def server(tmp_path, monkeypatch):
    """A replaying server on 127.0.0.1 that Margin's fetch clients talk to (their base URLs and cache set for the
    test); tests queue recorded answers on it."""
    with ReplayServer() as replay:
        for name, value in fetch_env(replay, tmp_path / "cache").items():
            monkeypatch.setenv(name, value)
        yield replay


def fetch_env(server: ReplayServer, cache: Path) -> dict:
    """Environment variables for a fetch against `server`, caching in `cache`."""
    env = {f"MARGIN_FETCH_{name.upper()}_URL": server.url + "/" + name for name in SOURCES}
    env["MARGIN_FETCH_CACHE"] = str(cache)
    env["MARGIN_FETCH_WAIT_SCALE"] = "0"
    return env


def queue_openreview(server: ReplayServer, changed: bool = False) -> None:
    """The ICLR 2018 venue in pages of 2 (5 accepted), its rejected and withdrawn pages, and a note by id."""
    for offset in (0, 2, 4):
        name = "openreview_iclr2018_accepted_2_changed.json" if changed and offset == 2 else \
            f"openreview_iclr2018_accepted_{offset}.json"
        server.add("/openreview/notes", recording(name), {"content.venueid": VENUE, "offset": offset},
                   content_type=JSON)
    server.add("/openreview/notes", recording("openreview_iclr2018_rejected.json"),
               {"content.venueid": VENUE + "/Rejected_Submission"}, content_type=JSON)
    server.add("/openreview/notes", recording("openreview_iclr2018_withdrawn.json"),
               {"content.venueid": VENUE + "/Withdrawn_Submission"}, content_type=JSON)


def queue_arxiv(server: ReplayServer) -> None:
    """The arXiv search au:del_maestro in two pages of 5, and the first paper by id."""
    for start in (0, 5):
        server.add("/arxiv/query", recording(f"arxiv_page_{start}.xml"),
                   {"search_query": "au:del_maestro", "start": start}, content_type=ATOM)
    server.add("/arxiv/query", recording("arxiv_page_0.xml"), {"id_list": "1201.4869"}, content_type=ATOM)


def queue_crossref(server: ReplayServer) -> None:
    server.add("/crossref/works/10.1371/journal.pone.0033693", recording("crossref_work.json"), content_type=JSON)


def queue_dblp(server: ReplayServer) -> None:
    """dblp's documented example answer, for the table of contents of the Asian Test Symposium 2005."""
    server.add("/dblp/search/publ/api", recording("dblp_faq_example.json"),
               {"q": "toc:db/conf/ats/ats2005.bht:"}, content_type=JSON)


def queue_pmlr(server: ReplayServer) -> None:
    server.add("/pmlr/v229/assets/bib/bibliography.bib", recording("pmlr_v229_bibliography.bib"),
               content_type="application/x-bibtex")


def queue_acl(server: ReplayServer) -> None:
    server.add("/acl/volumes/2023.acl-long.bib", recording("acl_2023.acl-long_entries.bib"),
               content_type="application/x-bibtex")
