"""Issue 30 item 3: every LaTeX accent form in names decoded through the one name parser (db.text.names)."""

from pathlib import Path

import pytest

from db.formats.bibtex import read, tex_to_text
from db.text.names import parse_bibtex_name, split_bibtex_names
from db.text.tex_accents import decode_accents

# the three keys of the issue, each in the forms files write them (braced, unbraced, at a word's start, inside)
CASES = [
    (r'\"Unal, Ahmet', "Ahmet Ünal"),
    (r'Ahmet \"Unal', "Ahmet Ünal"),
    (r'\"{U}nal, Ahmet', "Ahmet Ünal"),
    (r'{\"U}nal, Ahmet', "Ahmet Ünal"),
    (r'{\"{U}}nal, Ahmet', "Ahmet Ünal"),
    (r'Brise\~no, Juan', "Juan Briseño"),
    (r'Juan Brise\~no', "Juan Briseño"),
    (r'Brise\~{n}o, Juan', "Juan Briseño"),
    (r'Brise{\~n}o, Juan', "Juan Briseño"),
    (r'\v{S}koda, Petr', "Petr Škoda"),
    (r'\v Skoda, Petr', "Petr Škoda"),
    (r'{\v S}koda, Petr', "Petr Škoda"),
    (r'{\v{S}}koda, Petr', "Petr Škoda"),
    (r'Fran\c cois Dupont', "François Dupont"),
    (r'Fran\c{c}ois Dupont', "François Dupont"),
    (r'\~Nu\~nez, Ana', "Ana Ñuñez"),
    (r'\`Ecole, X', "X Ècole"),
    (r'\^Etienne Roux', "Êtienne Roux"),
    (r'\.Zak, Ola', "Ola Żak"),
    (r'\=Ota, Ken', "Ken Ōta"),
    (r"Ib\'{\i}\~nez, Luis", "Luis Ibíñez"),
    (r"Ib\'\i\~nez, Luis", "Luis Ibíñez"),
    (r'Erd\H{o}s, Paul', "Paul Erdős"),
    (r'Erd\H os, Paul', "Paul Erdős"),
    (r'\r{A}str\"om, Karl', "Karl Åström"),
    (r'\k{A}ba, X', "X Ąba"),
    (r'Dra\u{g}an, X', "X Drağan"),
    (r'\o ksendal, Bernt', "Bernt øksendal"),
    (r'{\O}stergaard, Jan', "Jan Østergaard"),
    (r'Aar\o e, B', "B Aarøe"),
    (r'\L ukasz Kaiser', "Łukasz Kaiser"),
    (r'\L{}ukasz Kaiser', "Łukasz Kaiser"),
    (r'Ha\ss ler, X', "X Haßler"),
    (r'\AA berg, X', "X Åberg"),
]


@pytest.mark.parametrize(("raw", "shown"), CASES)
def test_one_name_in_every_accent_form(raw, shown):
    assert parse_bibtex_name(raw, tex_to_text).display() == shown  # as the BibTeX reader calls it


def test_the_three_keys_of_the_issue_in_one_author_list_of_a_bibtex_file():
    text = ('@article{k, title = {T}, abstract = {A},\n'
            '  author = {\\"Unal, A. and Brise\\~no, J. and \\v{S}koda, P. and Petr \\v Skoda}}\n')
    records, _skipped, _kind = read(text, Path("names.bib"))
    assert records[0].authors == ["A. Ünal", "J. Briseño", "P. Škoda", "Petr Škoda"]


def test_splitting_keeps_braces_and_other_tex():
    assert split_bibtex_names(r"{Barnes and Noble} and \v{S}koda, P.") == ["{Barnes and Noble}", "Škoda, P."]
    assert decode_accents(r"\textbf{x} \url{a} \vS \bf") == r"\textbf{x} \url{a} \vS \bf"
