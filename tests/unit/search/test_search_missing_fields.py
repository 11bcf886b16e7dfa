"""A paper with no venue, year or authors must not break field searches over the others (found by a newcomer)."""

from db.paper import PaperRecord
from db.search.index import ensure_index


def test_venue_and_year_filters_survive_a_paper_without_them(library):
    library.import_records([PaperRecord(title="No venue paper", abstract="An abstract about graphs and trees.")])
    index = ensure_index(library)
    assert len(index.search("venue:ICML")) == 38
    assert len(index.search('venue:"ICML 2026"')) == 38
    assert len(index.search("year:2026")) == 38
    assert index.find("venue:ICML").hint == ""
    assert len(index.search("graphs")) >= 1
