"""The fields a file gives beyond venue and year are kept in the library and shown in the reader (issue 13,
item 6): entry type, volume, issue, pages, publisher, ISBN/ISSN, editors, language, OpenReview decision."""

from __future__ import annotations

from pathlib import Path

from db.formats.importer import read_file
from db.library.library import Library
from db.text.cleaning import strip_bidi
from db.text.render import bibliographic_details, paper_to_html

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "interop"


def test_imported_details_are_stored_and_shown(tmp_path):
    with Library.open(tmp_path / "lib", seed=False) as library:
        library.import_records(read_file(FIXTURES / "zotero_books.bib").records
                               + read_file(FIXTURES / "bad_first_line.ris").records)
        papers = {paper.title: paper for paper in library.papers()}
    book = papers["Hybrid Basketry: Weaving the Tangible"]
    assert book.extra == {"type": "book", "publisher": "Craft Press", "address": "Oslo",
                          "isbn": "978-3-16-148410-0"}
    assert bibliographic_details(book) == "Book · Craft Press · Oslo · ISBN 978-3-16-148410-0"
    article = papers["A Journal Article"]
    assert bibliographic_details(article) == "Journal article · vol. 12 · no. 3 · pp. 100–110"
    chapter = papers["A Chapter"]
    assert "Chapter · ed. Ed Editor, Otto Other · pp. 11–22" == bibliographic_details(chapter)
    assert '<p class="meta bib" dir="ltr">Book · Craft Press' in strip_bidi(paper_to_html(book))  # no isolates


def test_a_rejected_submission_does_not_read_as_a_paper_of_its_venue(tmp_path):
    path = tmp_path / "iclr2018.json"
    path.write_text('[{"title": "Rejected One", "abstract": "An abstract.", "status": "Reject"},'
                    ' {"title": "Accepted One", "abstract": "Another abstract.", "status": "Poster"},'
                    ' {"title": "Tagged <b>x</b>", "abstract": "Third.", "status": "<b>Oral</b>"}]')
    with Library.open(tmp_path / "lib", seed=False) as library:
        library.import_records(read_file(path).records)
        rejected, accepted, hostile = library.papers()
    html = strip_bidi(paper_to_html(rejected))
    # the venue's decision, named so: "Decision:" alone read as the user's screening decision (the trial)
    assert "Submitted to ICLR 2018" in html and "Venue decision: Reject" in html
    assert '<p class="meta" dir="ltr">ICLR 2018</p>' in strip_bidi(paper_to_html(accepted))
    assert "Venue decision: Poster" in strip_bidi(paper_to_html(accepted))
    assert "&lt;b&gt;Oral&lt;/b&gt;" in strip_bidi(paper_to_html(hostile))


def test_an_older_library_gets_the_column_and_keeps_its_papers(tmp_path):
    import sqlite3


    folder = tmp_path / "lib"
    with Library.open(folder) as library:
        ids = library.ids()
    conn = sqlite3.connect(folder / "library.db")
    conn.execute("ALTER TABLE papers DROP COLUMN extra")
    conn.execute("PRAGMA user_version = 4")  # schema 4: the last without the extra column
    conn.commit()
    conn.close()
    with Library.open(folder) as library:
        assert library.ids() == ids and all(paper.extra == {} for paper in library.papers())
        library.import_records(read_file(FIXTURES / "zotero_books.bib").records)
        assert any(paper.extra.get("type") == "book" for paper in library.papers())


def test_a_venues_usual_decision_is_shown_in_the_readers_language():
    """"会议审稿结果：Reject" in the Chinese window (a new user's trial): the usual values are translated through the
    labels the window passes; any other value is shown as the file wrote it."""
    from db.paper import Paper

    labels = {"decision": "会议审稿结果：%1", "decision:reject": "拒稿"}
    rejected = Paper(id="a" * 12, label="x", title="x", abstract="", authors=[], venue=None, year=None,
                     extra={"decision": "Reject"})
    other = Paper(id="b" * 12, label="y", title="y", abstract="", authors=[], venue=None, year=None,
                  extra={"decision": "Invite to Workshop Track"})
    assert bibliographic_details(rejected, labels) == "会议审稿结果：拒稿"
    assert bibliographic_details(other, labels) == "会议审稿结果：Invite to Workshop Track"
    assert bibliographic_details(rejected) == "Venue decision: Reject"
