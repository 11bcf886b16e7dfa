import hashlib
import unicodedata

from db.corpus import bundled_corpus_files, parse_seed_text, venue_from_header
from db.paper import normalize_text, paper_id


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
        assert "abstract or a title" in str(error)
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
