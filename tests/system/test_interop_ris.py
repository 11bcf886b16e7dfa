"""RIS under other readers (new-user trial): rispy, bibutils' ris2xml and Margin's own reader read every record of
Margin's RIS export, the first one included (a byte-order mark hid it from rispy and ris2xml)."""

from __future__ import annotations

import re

import rispy

from db.formats.importer import read_file
from tests.helpers.interop_tools import hostile_library, need, run
from tests.helpers.runner import margin


def test_every_ris_record_is_read_by_rispy_ris2xml_and_margin(tmp_path):
    with hostile_library(tmp_path / "lib") as library:
        papers = library.papers()
    path = tmp_path / "a.ris"
    assert margin("export", "--format", "ris", "--all", "--output", str(path), library=tmp_path / "lib").code == 0
    assert path.read_bytes().startswith(b"TY  - ")
    read = rispy.load(path)
    assert len(read) == len(papers) and all(entry.get("type_of_reference") for entry in read)
    assert len(read_file(path).records) == len(papers)
    need("ris2xml")
    result = run(["ris2xml", str(path)], tmp_path)
    assert result.returncode == 0, result.stderr
    ids = re.findall(r'<mods ID="([^"]*)"', result.stdout)
    first_key = path.read_bytes().decode("utf-8").split("\r\n")[1].removeprefix("ID  - ")
    assert len(ids) == len(papers) and ids[0] == first_key  # the first record is read, under its own key
