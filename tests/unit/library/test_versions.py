"""Issue 30 item 6: versions of one work (db.library.works). The real pairs of tests/fixtures/versions/pairs.json
(23 preprint/proceedings pairs from ../shared/data) are grouped, and nothing else is; rating one version rates
the work; split undoes the grouping and a re-import keeps it undone; ids stay what they were."""

import json
import re
import shutil
from pathlib import Path

import pytest

from db.changes import RATING, VERSIONS
from db.formats.arxiv_atom import read as read_atom
from db.import_job import import_paths
from db.library import Library
from db.library.match_keys import title_key
from db.paper import PaperRecord
from tests.helpers.imports import shared
from tests.helpers.runner import margin

PAIRS = json.loads((Path(__file__).resolve().parents[2] / "fixtures/versions/pairs.json").read_text(encoding="utf-8"))


def _journal_records(atom: Path) -> list[PaperRecord]:
    """The journal articles of the arXiv Atom sample's entries, from their arxiv:doi and arxiv:journal_ref."""
    records = []
    for entry in read_atom(atom.read_text(encoding="utf-8"), atom)[0]:
        if entry.doi:
            ref = entry.venue  # the journal-ref, as the Atom reader takes it for the venue
            year = re.search(r"\((\d{4})\)", ref)
            records.append(PaperRecord(title=entry.title, authors=entry.authors, doi=entry.doi, abstract="",
                                       venue=re.match(r"^(.*?)[\s,]*\d", ref).group(1).strip(),
                                       year=int(year.group(1)) if year else None))
    return records


def _import_sources(library: Library, folder: Path) -> None:
    atom = shared("formats", "arxivpy_2016_search_au_del_maestro.xml")
    preprints = folder / "preprints.xml"  # the entries as first listed: no DOI, no journal-ref yet
    preprints.write_text(re.sub(r"<arxiv:(doi|journal_ref)[^>]*>.*?</arxiv:\1>", "", atom.read_text(encoding="utf-8"),
                                flags=re.S), encoding="utf-8")
    import_paths(library, [shared("real", "iclr2018.json"), shared("real", "nips2018.json"),
                           shared("formats", "bbt_zotero_arxiv_ml_2163.biblatex"), preprints],
                 index=lambda _library: None)
    library.import_records(_journal_records(atom))


@pytest.fixture(scope="module")
def grouped(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("versions")
    with Library.open(folder / "lib", seed=False) as library:
        _import_sources(library, folder)
    return folder


@pytest.fixture
def library(grouped, tmp_path):
    shutil.copytree(grouped / "lib", tmp_path / "lib")
    with Library.open(tmp_path / "lib", seed=False) as opened:
        yield opened


def _by_title(library: Library) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for paper in library.papers():
        found.setdefault(title_key(paper.file_title or paper.title), []).append(paper.id)
    return found


@pytest.mark.slow
def test_the_real_pairs_are_grouped_and_nothing_else(library):
    by_title = _by_title(library)
    assert len(PAIRS["pairs"]) >= 20
    for pair in PAIRS["pairs"]:
        ids = by_title[title_key(pair["title"])]
        assert len(ids) >= 2, pair
        assert sorted(library.versions(ids[0])) == sorted(ids), pair  # (Spectral Normalization: 3 versions)
    wanted = {title_key(pair["title"]) for pair in PAIRS["pairs"]}
    works: dict[str, set[str]] = {}
    for paper_id, work in library.works_of().items():
        works.setdefault(work, set()).add(title_key(library.paper(paper_id).title))
    assert all(len(keys) == 1 for keys in works.values()), works
    # besides the pairs, one more real one: an ICLR 2018 paper in the ICLR list and in the Zotero library (whose
    # two entries of it are one paper: the same OpenReview id)
    assert set().union(*works.values()) - wanted == {title_key(
        "Stochastic Gradient Descent Performs Variational Inference, Converges to Limit Cycles for Deep Networks")}
    assert len(works) == len(PAIRS["pairs"]) + 1


@pytest.mark.slow
def test_rating_one_version_rates_the_work_and_split_undoes_the_grouping_for_good(library, tmp_path):
    pair = next(p for p in PAIRS["pairs"] if p["title"] == "Loss Functions for Multiset Prediction")
    preprint, proceedings = _by_title(library)[title_key(pair["title"])]
    ids_before = library.ids()
    changes = library.set_rating(proceedings, 4)
    assert changes.papers == {preprint, proceedings} and RATING in changes.kinds
    assert library.paper(preprint).rating == 4
    library.add_tags(preprint, ["multiset"])
    assert library.paper(proceedings).tags == ["multiset"]

    assert library.split_version(proceedings).kinds == {VERSIONS}
    assert library.versions(preprint) == [preprint] and library.versions(proceedings) == [proceedings]
    library.set_rating(preprint, 2)
    assert (library.paper(preprint).rating, library.paper(proceedings).rating) == (2, 4)

    _import_sources(library, tmp_path)  # the same files again: the split stays, ids stay
    assert library.versions(preprint) == [preprint]
    assert library.ids() == ids_before
    library.group_versions([preprint, proceedings])  # by hand: what undoing the split does
    assert library.versions(proceedings) == [preprint, proceedings]


# ----------------------------------------------------------------- the rules, on small libraries (quick)
ICLR = PaperRecord(title="Loss Functions for Multiset Prediction", abstract="We study multiset prediction with a"
                   " loss whose minimizer is the oracle policy, and compare against several alternatives.",
                   authors=["Sean Welleck", "Kyunghyun Cho"], venue="ICLR 2018", year=2018,
                   extra={"decision": "Reject"})
NIPS = PaperRecord(title="Loss functions for multiset prediction", abstract="We study the problem of multiset"
                   " prediction, proposing a loss whose minimizer is the oracle policy, on several benchmarks.",
                   authors=["Sean Welleck", "Zixin Yao", "Kyunghyun Cho"], venue="NIPS 2018", year=2018)


def test_same_title_and_an_author_across_venues_are_two_papers_of_one_work(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        (first,) = library.import_records([ICLR]).new
        report = library.import_records([NIPS])
        (second,) = report.new
        assert library.versions(first) == [first, second]
        assert report.versions == ['"Loss functions for multiset prediction" with 1 other version'
                                   ' (same title and authors)']
        assert {first, second} <= report.changes.papers


def test_same_title_without_a_shared_author_or_in_one_venue_and_year_is_not_grouped(tmp_path):
    other = PaperRecord(**{**NIPS.__dict__, "authors": ["Someone Else"], "line": None})
    with Library.open(tmp_path / "lib", seed=False) as library:
        library.import_records([ICLR, other])
        assert library.works_of() == {}


def test_an_arxiv_doi_groups_with_its_arxiv_id(tmp_path):
    preprint = PaperRecord(title="A Preprint", abstract="", arxiv_id="1502.01852", year=2015)
    datacite = PaperRecord(title="A preprint, as DataCite lists it", abstract="", doi="10.48550/arXiv.1502.01852v2")
    with Library.open(tmp_path / "lib", seed=False) as library:
        ids = library.import_records([preprint, datacite]).new
        assert library.versions(ids[0]) == ids


def test_grouping_unifies_annotations_and_every_edit_reaches_every_version(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        (first,) = library.import_records([ICLR]).new
        library.set_rating(first, 5)
        library.add_tags(first, ["sets"])
        library.set_note(first, "Read the appendix.")
        (second,) = library.import_records([NIPS]).new
        paper = library.paper(second)
        assert (paper.rating, paper.tags, paper.note) == (5, ["sets"], "Read the appendix.")
        library.set_read(second, True)
        library.remove_tags(second, ["sets"])
        library.set_note(second, "Both versions.")
        library.set_title(second, "My own title")  # a version's own title stays its own
        one = library.paper(first)
        assert (one.read, one.tags, one.note, one.user_title) == (True, [], "Both versions.", None)


def test_split_on_the_command_line_and_a_reimport_keeps_it(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        first, second = library.import_records([ICLR, NIPS]).new
        assert library.versions(first) == [first, second]
    assert margin("split", second, library=tmp_path / "lib").code == 0
    listed = margin("versions", first, library=tmp_path / "lib")
    assert listed.stdout.strip().splitlines() == [f"{first}  ICLR 2018  Loss Functions for Multiset Prediction"]
    with Library.open(tmp_path / "lib", seed=False) as library:
        assert library.versions(first) == [first]
        library.import_records([ICLR, NIPS])
        assert library.versions(first) == [first] and library.count() == 2
    assert margin("group", first, second, library=tmp_path / "lib").code == 0
    listed = margin("versions", first, library=tmp_path / "lib").stdout.strip().splitlines()
    assert [line.split()[0] for line in listed] == [first, second]


def test_deleting_a_version_leaves_the_others_grouped_under_the_same_work(tmp_path):
    third = PaperRecord(title="Loss Functions for Multiset Prediction", abstract="", authors=["Sean Welleck"],
                        arxiv_id="1711.05246", year=2017)
    with Library.open(tmp_path / "lib", seed=False) as library:
        first, second, arxiv = library.import_records([ICLR, NIPS, third]).new
        assert library.versions(second) == [first, second, arxiv]
        library.delete_papers([first])
        assert library.versions(second) == [second, arxiv]
        library.undelete_papers([first])  # (Ctrl+Z in the window) it rejoins its work
        assert library.versions(second) == [first, second, arxiv]


def test_an_arxiv_journal_ref_groups_the_preprint_with_its_article_under_another_title(tmp_path):
    atom = shared("formats", "arxivpy_2016_search_au_del_maestro.xml")
    text = atom.read_text(encoding="utf-8")
    preprints = tmp_path / "preprints.xml"  # the listing with its journal-refs, without the DOIs
    preprints.write_text(re.sub(r"<arxiv:doi[^>]*>.*?</arxiv:doi>", "", text, flags=re.S), encoding="utf-8")
    entry = next(record for record in read_atom(text, atom)[0] if record.venue.startswith("Physical Review B 71"))
    article = PaperRecord(title="Melting of density waves on a square lattice at finite temperature", abstract="",
                          authors=entry.authors, venue="Physical Review B", year=2005,
                          extra={"volume": "71", "pages": "184511", "type": "article"})
    with Library.open(tmp_path / "lib", seed=False) as library:
        import_paths(library, [preprints], index=lambda _library: None)
        report = library.import_records([article])
        (article_id,) = report.new
        (preprint_id,) = [p.id for p in library.papers() if p.arxiv_id == entry.arxiv_id]
        assert library.versions(article_id) == [preprint_id, article_id]
        assert report.versions[0].endswith("(arXiv journal-ref)")
        other = PaperRecord(**{**article.__dict__, "title": "Another article", "extra": {"volume": "71",
                                                                                         "pages": "999999"}})
        (other_id,) = library.import_records([other]).new  # another page: not the journal-ref's article
        assert library.versions(other_id) == [other_id]
        assert library.versions(preprint_id) == [preprint_id, article_id]
