import hashlib
import unicodedata

from db.formats.corpus import bundled_corpus_files, parse_seed_text, venue_from_header
from db.paper import Paper, decision_note, implied_type, normalize_text, paper_id


def independent_id(text: str) -> str:
    normalized = " ".join(unicodedata.normalize("NFC", text).split())
    return hashlib.sha256(normalized.encode("utf-8")).hexdigest()[:12]


def test_id_normalizes_whitespace_and_unicode_form():
    nfd = "Ke\u0301pes  model\n\tworks "
    nfc = "Képes model works"
    assert paper_id(nfd) == paper_id(nfc) == hashlib.sha256(nfc.encode()).hexdigest()[:12]


def test_id_falls_back_to_title_and_rejects_empty():
    assert paper_id("", "A  Title") == hashlib.sha256(b"A Title").hexdigest()[:12]
    try:
        paper_id("  ", None)
    except ValueError as error:
        assert str(error) == "a paper needs an abstract or a title"
    else:
        raise AssertionError("an empty paper must be rejected")


def test_bundled_corpus_has_38_papers_with_spec_ids():
    files = bundled_corpus_files()
    assert len(files) == 2
    records = [r for f in files for r in parse_seed_text(f.read_text(encoding="utf-8"), f)]
    assert len(records) == 38
    raw_paragraphs = []
    for f in files:
        body = f.read_text(encoding="utf-8").split("\n", 1)[1]
        raw_paragraphs += [p for p in body.split("\n\n") if p.strip()]
    assert [r.id for r in records] == [independent_id(p) for p in raw_paragraphs]
    assert records[0].id == "9342e12f8e8d"
    assert {(r.venue, r.year) for r in records} == {("ICML 2026", 2026)}
    assert len({r.id for r in records}) == 38


def test_venue_from_headers():
    assert venue_from_header("ICML 2026 Papers") == ("ICML 2026", 2026)
    assert venue_from_header("ICML 2026 论文列表") == ("ICML 2026", 2026)
    assert venue_from_header("NeurIPS 2018 accepted") == ("NeurIPS 2018", 2018)
    assert venue_from_header("Some papers") == (None, None)


def test_normalize_text():
    assert normalize_text("  a\u00a0 b\n") == "a b"


def test_bundled_corpus_is_byte_identical_to_shared(shared_dir):
    for f in bundled_corpus_files():
        assert f.read_bytes() == (shared_dir / "corpus" / f.name).read_bytes()


# ------------------------------------------- what exports say of a decision (db/paper.py)
def test_decision_note_names_an_unpublished_submission_and_a_workshop_paper():
    assert decision_note("ICLR 2018", {"decision": "Reject"}) == "Submitted to ICLR 2018 (decision: Reject)"
    assert decision_note("ICLR 2018", {"decision": "Invite to Workshop Track"}) == "ICLR 2018, workshop track"
    assert decision_note("ICLR 2018 Workshop", {"decision": "Workshop"}) is None  # the venue says so already
    assert decision_note("ICLR 2018", {"decision": "Accept (Poster)"}) is None
    assert decision_note("ICLR 2018", {}) is None and decision_note(None, {"decision": "Reject"}) is None


def test_implied_type_of_a_paper_whose_file_names_none():
    assert implied_type("ICLR 2018", {"decision": "Withdrawn"}) == "unpublished"
    assert implied_type(None, {"decision": "Reject"}) == "unpublished"
    assert implied_type("ICLR 2018", {"decision": "Accept (Oral)"}) == "inproceedings"
    assert implied_type(None, {}) == "misc"


def test_to_json_is_the_list_json_element():
    paper = Paper(id="0123456789ab", label="A label", title="A title", abstract="An abstract.", authors=["A B"],
                  venue="ICLR 2018", year=2018, url="https://x.org", doi="10.1/x", arxiv_id="1801.00001",
                  openreview_id="Hk", keywords=["k"], rating=4, tags=["t"], read=True, note="n", user_title="U")
    assert paper.to_json() == {
        "id": "0123456789ab", "label": "A label", "title": "A title", "venue": "ICLR 2018", "year": 2018,
        "rating": 4, "tags": ["t"], "read": True, "note": "n", "authors": ["A B"], "abstract": "An abstract.",
        "url": "https://x.org", "doi": "10.1/x", "arxiv_id": "1801.00001", "openreview_id": "Hk", "keywords": ["k"],
        "screening_decision": None, "exclusion_reason": None}  # issue 29
