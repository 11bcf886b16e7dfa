"""Every source through the same faults, on its own recorded answer: a 429 with Retry-After before it, a
connection cut mid-answer before it (both retried: the same records as a clean fetch, none twice), and the cut
for good (one line naming the source; the next run gets everything)."""

from __future__ import annotations

import pytest

from db.fetch.http import FetchError
from db.fetch.job import FetchRequest, fetch_records
from tests.helpers.fetching import (
    ATOM,
    JSON,
    VENUE,
    fetch_env,
)
from tests.helpers.replay_server import ReplayServer, recording

BIB = "application/x-bibtex"
# source → (request, path, query, recording, content type)
CASES = {
    "openreview": (FetchRequest("openreview", VENUE), "/openreview/notes", {"content.venueid": VENUE},
                   "openreview_iclr2018_accepted_0.json", JSON),
    "arxiv": (FetchRequest("arxiv", query="au:del_maestro"), "/arxiv/query", {"search_query": "au:del_maestro"},
              "arxiv_au_del_maestro.xml", ATOM),
    "crossref": (FetchRequest("doi", "10.1371/journal.pone.0033693"),
                 "/crossref/works/10.1371/journal.pone.0033693", {}, "crossref_work.json", JSON),
    "dblp": (FetchRequest("dblp", "conf/ats/2005"), "/dblp/search/publ/api", {"q": "toc:db/conf/ats/ats2005.bht:"},
             "dblp_faq_example.json", JSON),
    "pmlr": (FetchRequest("pmlr", "229"), "/pmlr/v229/assets/bib/bibliography.bib", {},
             "pmlr_v229_bibliography.bib", BIB),
    "acl": (FetchRequest("acl", "2023.acl-long"), "/acl/volumes/2023.acl-long.bib", {},
            "acl_2023.acl-long_entries.bib", BIB),
}


def _clean(case, tmp_path):
    request, path, query, name, kind = case
    with ReplayServer() as other:
        other.add(path, recording(name), query, content_type=kind)
        env = fetch_env(other, tmp_path / "clean-cache")
        import os

        saved = {key: os.environ.get(key) for key in env}
        os.environ.update(env)
        try:
            return fetch_records(request)
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


@pytest.mark.parametrize("source", CASES)
def test_a_429_then_the_answer(server, tmp_path, source):
    request, path, query, name, kind = CASES[source]
    expected = _clean(CASES[source], tmp_path)
    server.add(path, '{"message": "Too Many Requests"}', query, status=429, headers={"Retry-After": "3"},
               content_type=JSON)
    server.add(path, recording(name), query, content_type=kind)
    waits = []
    records = fetch_records(request, sleep=waits.append)
    assert records == expected and len(records) > 0
    assert len({(r.title, r.doi, r.arxiv_id, r.openreview_id) for r in records}) == len(records)
    assert 3.0 in waits


@pytest.mark.parametrize("source", CASES)
def test_a_cut_then_the_answer(server, tmp_path, source):
    request, path, query, name, kind = CASES[source]
    expected = _clean(CASES[source], tmp_path)
    body = recording(name)
    server.add(path, body, query, cut=len(body) // 3, content_type=kind)
    server.add(path, body, query, content_type=kind)
    records = fetch_records(request, sleep=lambda seconds: None)
    assert records == expected


@pytest.mark.parametrize("source", CASES)
def test_cut_for_good_is_one_line_and_the_next_run_gets_it(server, tmp_path, source):
    request, path, query, name, kind = CASES[source]
    body = recording(name)
    server.add(path, body, query, cut=20, content_type=kind)
    label = "crossref" if source == "crossref" else source
    with pytest.raises(FetchError) as failed:
        fetch_records(request, sleep=lambda seconds: None)
    assert str(failed.value).startswith(f"{label}: the connection to 127.0.0.1:")
    assert "\n" not in str(failed.value)
    server.routes.clear()
    server.add(path, body, query, content_type=kind)
    assert fetch_records(request) == _clean(CASES[source], tmp_path)
