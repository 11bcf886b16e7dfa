"""The fetch package's parts that need no server: venue names, Retry-After, the day's cache, hand-typed papers,
the venue's decision words (db.fetch, db.search.analysis)."""

from __future__ import annotations

import email.utils
import time

import pytest

from db.errors import MarginError
from db.fetch.cache import ResponseCache
from db.fetch.http import MAX_RETRY_AFTER, _retry_after
from db.fetch.job import hand_record
from db.fetch.openreview import venue_label
from db.fetch.pmlr import volume_number
from db.search.analysis import decision_value, decision_words


@pytest.mark.parametrize(("venue_id", "label"), [
    ("ICLR.cc/2025/Conference", ("ICLR 2025", 2025)),
    ("NeurIPS.cc/2024/Datasets_and_Benchmarks_Track", ("NeurIPS 2024", 2024)),
    ("aclweb.org/ACL/2024/Workshop", ("aclweb 2024", 2024)),
    ("TMLR", ("TMLR", None)),
])
def test_venue_label(venue_id, label):
    assert venue_label(venue_id) == label


def test_retry_after_in_seconds_or_a_date_capped():
    assert _retry_after("7") == 7.0
    assert _retry_after(None) is None and _retry_after("soon") is None
    assert _retry_after("100000") == MAX_RETRY_AFTER
    later = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 25 <= _retry_after(later) <= 30


def test_the_cache_keeps_a_page_for_its_age(tmp_path):
    cache = ResponseCache(tmp_path, max_age=60)
    cache.put("http://x/a?b=1", "body\nwith lines")
    assert cache.get("http://x/a?b=1") == "body\nwith lines"
    assert cache.get("http://x/a?b=2") is None
    assert ResponseCache(tmp_path, max_age=0).get("http://x/a?b=1") is None
    cache.drop("http://x/a?b=1")
    assert cache.get("http://x/a?b=1") is None


def test_hand_record():
    record = hand_record(" A  Title ", "Ada Lovelace; Alan Turing", "Venue", "2025", "  An abstract. ")
    assert (record.title, record.authors, record.venue, record.year, record.abstract) == (
        "A Title", ["Ada Lovelace", "Alan Turing"], "Venue", 2025, "An abstract.")
    with pytest.raises(MarginError, match="needs a title or an abstract"):
        hand_record("", abstract=" ")
    with pytest.raises(MarginError, match="is not a number"):
        hand_record("T", year="MMXXV")


@pytest.mark.parametrize(("extra", "words"), [
    ({"decision": "Accept (Oral)", "presentation": "oral"}, ["accept", "oral"]),
    ({"decision": "Reject"}, ["reject"]),
    ({"decision": "Withdrawn"}, ["withdrawn"]),
    ({"decision": "Poster"}, ["poster", "accept"]),  # a paper list's status: published, so accepted
    ({"decision": "Workshop"}, ["workshop"]),
    ({"presentation": "spotlight"}, ["spotlight"]),
    ({}, []),
])
def test_decision_words(extra, words):
    assert decision_words(extra) == words


def test_decision_values_have_one_spelling():
    assert [decision_value(w) for w in ("Rejected", "withdraw", "ACCEPTED", "Orals", "oral")] == [
        "reject", "withdrawn", "accept", "oral", "oral"]


def test_pmlr_volume_number():
    assert volume_number("229") == volume_number("v229") == "229"
    assert volume_number("https://proceedings.mlr.press/v229/") == "229"
    with pytest.raises(ValueError):
        volume_number("corl")


def test_a_year_no_paper_can_have_and_dates_in_the_wrong_order_are_refused_in_one_line(library_dir):
    """`margin add --year 99999` was accepted; `fetch arxiv --from` after `--to` went out to arXiv (and came back
    with nothing). Both are refused before anything is fetched or opened: one line, exit 1."""
    from tests.helpers.runner import margin

    with pytest.raises(MarginError, match="99999"):
        hand_record("T", year="99999")
    assert hand_record("T", year="1999").year == 1999
    added = margin("add", "--title", "A paper", "--year", "99999", library=library_dir)
    assert added.returncode == 1 and len(added.stderr.strip().splitlines()) == 1
    assert "99999" in added.stderr and not (library_dir / "library.db").exists()
    fetched = margin("fetch", "arxiv", "cs.LG", "--from", "2025-02-01", "--to", "2025-01-01", library=library_dir)
    assert fetched.returncode == 1 and len(fetched.stderr.strip().splitlines()) == 1
    assert "2025-02-01 is after" in fetched.stderr and "2025-01-01" in fetched.stderr


@pytest.mark.parametrize("given", ["not-a-doi", "10.12/too-short-a-prefix", "doi:"])
def test_add_refuses_a_malformed_doi_before_any_network(tmp_path, monkeypatch, given):
    """A new user's trial: `margin add --doi not-a-doi` asked Crossref. Crossref's address here is the discard
    port, so a request would say "offline or unreachable": the one line names the malformed DOI instead."""
    from tests.helpers.runner import margin

    monkeypatch.setenv("MARGIN_FETCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("MARGIN_FETCH_CROSSREF_URL", "http://127.0.0.1:9")
    code, out, err = margin("add", "--doi", given, library=tmp_path / "lib")
    assert (code, out) == (1, "")
    assert err.count("\n") == 1 and "is not a DOI" in err and "10.NNNN/" in err and "nothing was changed" in err
    assert not (tmp_path / "lib" / "library.db").exists()
