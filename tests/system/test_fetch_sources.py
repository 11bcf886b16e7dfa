"""Margin's real fetch client against a local server replaying recorded answers of each source (tests/data/fetch):
record counts, fields mapped exactly, paging, a 429 with Retry-After, a cut mid-page resumed without duplicates,
a malformed page as one line with nothing changed, and the re-import rules ("0 new, 0 updated" on a second
fetch, "1 updated" after a changed decision). No test here touches the internet."""

from __future__ import annotations

import json

import pytest

from db.fetch.cache import ResponseCache
from db.fetch.http import FetchError
from db.fetch.job import FetchRequest, fetch_records
from tests.helpers.fetching import (
    ATOM,
    JSON,
    VENUE,
    fetch_env,
    queue_arxiv,
    queue_crossref,
    queue_openreview,
)
from tests.helpers.replay_server import recording
from tests.helpers.runner import margin


def _notes(*names):
    return [note for name in names for note in json.loads(recording(name))["notes"]]


def test_openreview_venue_pages_and_maps_every_field(server):
    queue_openreview(server)
    records = fetch_records(FetchRequest("openreview", VENUE, page_size=2))
    notes = _notes(*(f"openreview_iclr2018_accepted_{offset}.json" for offset in (0, 2, 4)))
    assert len(records) == len(notes) == 5  # the recording's count, over three pages of two
    assert server.hits("/openreview/notes") == 3
    for record, note in zip(records, notes, strict=True):
        content = note["content"]
        assert record.title == content["title"]["value"]
        assert record.authors == content["authors"]["value"]  # in order
        assert record.abstract == " ".join(content["abstract"]["value"].split())
        assert (record.venue, record.year) == ("ICLR 2018", 2018)
        assert record.openreview_id == note["id"]
        assert record.url == record.extra["forum"] == f"https://openreview.net/forum?id={note['id']}"
        assert record.keywords == content["keywords"]["value"]
        kind = content["venue"]["value"].split()[-1]  # "ICLR 2018 Oral" → Oral
        assert record.extra["decision"] == f"Accept ({kind})"
        assert record.extra["presentation"] == kind.lower()
        assert record.extra["tldr"] == content["TLDR"]["value"]
        if "pdf" in content:
            assert record.extra["pdf"] == "https://openreview.net" + content["pdf"]["value"]
    user_agents = {headers.get("User-Agent") for _path, _query, headers in server.requests}
    assert len(user_agents) == 1 and user_agents.pop().startswith("Margin/")


def test_openreview_rejected_and_withdrawn_only_on_request(server):
    queue_openreview(server)
    accepted = fetch_records(FetchRequest("openreview", VENUE, page_size=2))
    everything = fetch_records(FetchRequest("openreview", VENUE, rejected=True, withdrawn=True, page_size=2))
    assert len(accepted) == 5 and len(everything) == 7
    assert [r.extra["decision"] for r in everything[5:]] == ["Reject", "Withdrawn"]
    assert all("presentation" not in r.extra for r in everything[5:])


def test_openreview_note_by_id(server):
    note = _notes("openreview_iclr2018_accepted_0.json")[0]
    server.add("/openreview/notes", json.dumps({"notes": [note], "count": 1}), {"id": note["id"]},
               content_type=JSON)
    [record] = fetch_records(FetchRequest("openreview-id", f"https://openreview.net/forum?id={note['id']}"))
    assert (record.title, record.openreview_id, record.extra["decision"]) == (
        note["content"]["title"]["value"], note["id"], "Accept (Oral)")


def test_arxiv_search_pages_and_maps_every_field(server):
    queue_arxiv(server)
    records = fetch_records(FetchRequest("arxiv", query="au:del_maestro", page_size=5))
    assert len(records) == 10 and server.hits("/arxiv/query") == 2  # two pages of five
    first = records[0]
    assert first.title == "A Luttinger Liquid Core Inside Helium-4 Filled Nanopores"
    assert first.authors == ["Adrian Del Maestro"]
    assert first.abstract.startswith("As helium-4 is cooled below 2.17 K it undergoes a phase transition to a "
                                     "fundamentally new state of matter")
    assert (first.venue, first.year, first.arxiv_id) == ("Int. J. Mod. Phys. B, 26, 1244002 (2012)", 2012,
                                                         "1201.4869")
    assert first.url == "http://arxiv.org/abs/1201.4869"
    assert first.extra["pdf"] == "http://arxiv.org/pdf/1201.4869v1"
    assert len({r.arxiv_id for r in records}) == 10


def test_arxiv_category_query_has_the_dates():
    from datetime import date

    from db.fetch.arxiv import category_query

    assert category_query("cs.LG", date(2025, 1, 1), date(2025, 1, 7)) == \
        "cat:cs.LG AND submittedDate:[202501010000 TO 202501072359]"


def test_doi_from_crossref_maps_every_field(server):
    queue_crossref(server)
    [record] = fetch_records(FetchRequest("doi", "https://doi.org/10.1371/journal.pone.0033693"))
    assert record.title == ("Methylphenidate Exposure Induces Dopamine Neuron Loss and Activation of Microglia in "
                            "the Basal Ganglia of Mice")
    assert record.authors == ["Shankar Sadasivan", "Brooks B. Pond", "Amar K. Pani", "Chunxu Qu", "Yun Jiao",
                              "Richard J. Smeyne"]
    assert (record.venue, record.year, record.doi) == ("PLoS ONE", 2012, "10.1371/journal.pone.0033693")
    assert record.url == "https://doi.org/10.1371/journal.pone.0033693"
    assert record.extra == {"type": "article", "pages": "e33693", "volume": "7", "issue": "3",
                            "publisher": "Public Library of Science (PLoS)", "issn": "1932-6203"}


def test_a_429_is_waited_out_as_retry_after_says(server):
    server.add("/crossref/works/10.1371/journal.pone.0033693", '{"status":"rate limited"}', status=429,
               headers={"Retry-After": "2"}, content_type=JSON)
    queue_crossref(server)
    waits = []
    [record] = fetch_records(FetchRequest("doi", "10.1371/journal.pone.0033693"), sleep=waits.append)
    assert record.doi == "10.1371/journal.pone.0033693"
    assert 2.0 in waits and server.hits("/crossref/works/10.1371/journal.pone.0033693") == 2


def test_a_page_cut_midway_is_fetched_again_and_nothing_is_doubled(server):
    body = recording("openreview_iclr2018_accepted_2.json")
    server.add("/openreview/notes", body, {"content.venueid": VENUE, "offset": 2}, cut=len(body) // 2,
               content_type=JSON)
    queue_openreview(server)
    records = fetch_records(FetchRequest("openreview", VENUE, page_size=2), sleep=lambda seconds: None)
    assert len(records) == 5 and len({r.openreview_id for r in records}) == 5
    assert server.hits("/openreview/notes") == 4  # the cut page twice


def test_a_fetch_cut_off_resumes_from_the_cache(server, tmp_path):
    """The connection dies for good on page 2: the fetch fails, page 1 stays cached; the next run asks only for
    what it lacks and gets every paper once."""
    server.add("/openreview/notes", recording("openreview_iclr2018_accepted_0.json"),
               {"content.venueid": VENUE, "offset": 0}, content_type=JSON)
    body = recording("openreview_iclr2018_accepted_2.json")
    server.add("/openreview/notes", body, {"content.venueid": VENUE, "offset": 2}, cut=10, content_type=JSON)
    with pytest.raises(FetchError, match=r"^openreview: the connection to 127\.0\.0\.1:\d+ was cut"):
        fetch_records(FetchRequest("openreview", VENUE, page_size=2), sleep=lambda seconds: None)
    first_run = len(server.requests)
    server.routes.clear()
    queue_openreview(server)
    records = fetch_records(FetchRequest("openreview", VENUE, page_size=2))
    asked = [query["offset"] for _path, query, _headers in server.requests[first_run:]]
    assert asked == ["2", "4"]  # page 1 came from the cache
    assert len(records) == 5 and len({r.openreview_id for r in records}) == 5


def test_the_cache_answers_a_second_fetch_within_a_day(server, tmp_path):
    queue_arxiv(server)
    fetch_records(FetchRequest("arxiv", query="au:del_maestro", page_size=5))
    asked = len(server.requests)
    again = fetch_records(FetchRequest("arxiv", query="au:del_maestro", page_size=5))
    assert len(again) == 10 and len(server.requests) == asked
    stale = fetch_records(FetchRequest("arxiv", query="au:del_maestro", page_size=5),
                          cache=ResponseCache(tmp_path / "cache", max_age=0))
    assert len(stale) == 10 and len(server.requests) == asked + 2


@pytest.mark.parametrize("body", ['{"notes": [{"id": "x"', "<html>Service Unavailable</html>", '{"error": 1}'])
def test_a_malformed_page_is_one_line_and_changes_nothing(server, tmp_path, body):
    server.add("/openreview/notes", recording("openreview_iclr2018_accepted_0.json"),
               {"content.venueid": VENUE, "offset": 0}, content_type=JSON)
    server.add("/openreview/notes", body, {"content.venueid": VENUE, "offset": 2}, content_type=JSON)
    library = tmp_path / "lib"
    margin("import", str(tmp_path / "none.json"), library=library)  # (fails: the library stays as it is)
    code, out, err = margin("fetch", "openreview", VENUE, "--page-size", "2", library=library)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("margin: openreview: a malformed answer from 127.0.0.1")
    assert "nothing was changed" in err
    assert not (library / "library.db").exists()


def test_offline_is_one_line_naming_the_source(tmp_path, monkeypatch):
    monkeypatch.setenv("MARGIN_FETCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("MARGIN_FETCH_ARXIV_URL", "http://127.0.0.1:9/api")  # the discard port: nothing listens
    code, out, err = margin("add", "--arxiv", "1706.03762", library=tmp_path / "lib")
    assert (code, out) == (1, "")
    assert err == "margin: arxiv: offline or unreachable (127.0.0.1:9); nothing was changed\n"
    assert not (tmp_path / "lib" / "library.db").exists()


def test_a_refused_request_is_one_line(server, tmp_path):
    code, out, err = margin("add", "--doi", "10.9999/nothing", library=tmp_path / "lib")
    assert (code, out) == (1, "")
    assert err == "margin: crossref: refused (HTTP 404 Not Found); nothing was changed\n"


def test_fetching_a_venue_twice_then_a_changed_decision(server, tmp_path):
    queue_openreview(server)
    library = tmp_path / "lib"
    first = margin("fetch", "openreview", VENUE, "--page-size", "2", library=library)
    assert first.code == 0 and first.stdout.startswith("5 new, 0 updated, 0 unchanged"), first
    cache = tmp_path / "cache2"
    second = margin("fetch", "openreview", VENUE, "--page-size", "2", library=library,
                    env={"MARGIN_FETCH_CACHE": str(cache)})
    assert second.stdout.startswith("0 new, 0 updated, 5 unchanged"), second
    server.routes.clear()
    queue_openreview(server, changed=True)  # a later recording: one poster became an oral
    third = margin("fetch", "openreview", VENUE, "--page-size", "2", library=library,
                   env={"MARGIN_FETCH_CACHE": str(tmp_path / "cache3")})
    assert third.stdout.startswith("0 new, 1 updated, 4 unchanged"), third
    listed = margin("list", "decision:oral", "--json", library=library)
    assert len(json.loads(listed.stdout)) == 3
    shown = json.loads(margin("list", "decision:poster", "--json", library=library).stdout)
    assert len(shown) == 2


def test_late_papers_are_added_without_duplicates(server, tmp_path):
    library = tmp_path / "lib"
    first_two = json.loads(recording("openreview_iclr2018_accepted_0.json"))
    first_two["count"] = 2
    server.add("/openreview/notes", json.dumps(first_two), {"content.venueid": VENUE, "offset": 0},
               content_type=JSON)
    assert margin("fetch", "openreview", VENUE, "--page-size", "2", library=library).stdout.startswith("2 new")
    server.routes.clear()
    queue_openreview(server)
    later = margin("fetch", "openreview", VENUE, "--page-size", "2", library=library,
                   env={"MARGIN_FETCH_CACHE": str(tmp_path / "later")})
    assert later.stdout.startswith("3 new, 0 updated, 2 unchanged"), later


def test_add_by_doi_arxiv_id_and_hand_on_the_command_line(server, tmp_path):
    queue_crossref(server)
    queue_arxiv(server)
    library = tmp_path / "lib"
    doi = margin("add", "--doi", "10.1371/journal.pone.0033693", library=library)
    assert doi.code == 0 and doi.stdout.startswith("1 new, 0 updated"), doi
    arxiv = margin("add", "--arxiv", "arXiv:1201.4869v2", library=library)
    assert arxiv.stdout.startswith("1 new"), arxiv
    hand = margin("add", "--title", "A Paper Typed By Hand", "--authors", "Ada Lovelace; Alan Turing", "--venue",
                  "Workshop on Things", "--year", "2025", "--abstract", "We type a paper by hand.", library=library)
    assert hand.stdout.startswith("1 new"), hand
    again = margin("add", "--arxiv", "1201.4869", library=library)
    assert again.stdout.startswith("0 new, 0 updated, 1 unchanged"), again
    papers = {p["title"]: p for p in json.loads(margin("list", "--json", library=library).stdout)}
    assert papers["A Paper Typed By Hand"]["authors"] == ["Ada Lovelace", "Alan Turing"]
    assert (papers["A Paper Typed By Hand"]["venue"], papers["A Paper Typed By Hand"]["year"]) == (
        "Workshop on Things", 2025)
    assert papers["A Luttinger Liquid Core Inside Helium-4 Filled Nanopores"]["arxiv_id"] == "1201.4869"
    assert len(papers) == 3


def test_hand_form_errors_are_one_line(tmp_path):
    code, _out, err = margin("add", "--title", "T", "--year", "twenty", library=tmp_path / "lib")
    assert code == 1 and err == "margin: the year 'twenty' is not a number\n"
    code, _out, err = margin("add", "--title", " ", library=tmp_path / "lib")
    assert code == 1 and err == "margin: a paper needs a title or an abstract\n"


def test_arxiv_error_feed_is_malformed(server):
    error_feed = recording("arxiv_page_0.xml").decode().split("<entry>")[0] + (
        "<entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_1234</id><title>Error</title>"
        "<summary>incorrect id format for 1234</summary></entry></feed>")
    server.add("/arxiv/query", error_feed, {"id_list": "1234.5678"}, content_type=ATOM)
    with pytest.raises(FetchError, match="^arxiv: a malformed answer"):
        fetch_records(FetchRequest("arxiv-id", "1234.5678"))


@pytest.mark.slow
def test_margin_add_in_a_real_process(server, tmp_path):
    queue_crossref(server)
    env = fetch_env(server, tmp_path / "cache-process")
    done = margin("add", "--doi", "doi:10.1371/journal.pone.0033693", library=tmp_path / "lib", subprocess=True,
                  env=env)
    assert done.code == 0 and done.stdout.startswith("1 new, 0 updated"), done
    paper_id = done.stdout.splitlines()[1]
    shown = margin("show", paper_id, "--json", library=tmp_path / "lib")
    assert json.loads(shown.stdout)["doi"] == "10.1371/journal.pone.0033693"


def test_arxiv_empty_page_midway_is_asked_again_and_not_cached(server):
    empty = recording("arxiv_page_5.xml").decode().split("<entry>")[0].rstrip() + "\n</feed>\n"
    server.add("/arxiv/query", empty, {"search_query": "au:del_maestro", "start": 5}, content_type=ATOM)
    queue_arxiv(server)
    records = fetch_records(FetchRequest("arxiv", query="au:del_maestro", page_size=5))
    assert len(records) == 10
    assert sum(1 for _p, query, _h in server.requests if query.get("start") == "5") == 2
