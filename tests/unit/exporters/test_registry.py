"""The exporters' registry (issue 33): one record per format; the `--format` choices and help, and the tables the
window's export dialog reads (FORMATS, DESCRIPTIONS, EXTENSIONS, FOLDER_FORMATS), are drawn from those records
and are the same as before the move."""

from __future__ import annotations

import pytest

from db.cli.parser import build_parser
from db.errors import MarginError
from db.exporters import registry
from db.exporters.registry import (
    BINARY_FORMATS,
    DESCRIPTIONS,
    EXTENSIONS,
    FILE_FORMATS,
    FOLDER_FORMATS,
    FORMATS,
    WRITERS,
    export,
    export_bytes,
    export_files,
)
from db.paper import Paper

# The parallel tables the registry replaced (db.exporters.registry before issue 33), in their order
OLD_FORMATS = ("markdown", "csv", "json", "bibtex", "csl-json", "ris", "markdown-folder", "xlsx")  # ris: issue 30
OLD_EXTENSIONS = {"markdown": ".md", "csv": ".csv", "json": ".json", "bibtex": ".bib", "csl-json": ".json",
                  "ris": ".ris", "xlsx": ".xlsx"}
OLD_DESCRIPTIONS = {"markdown": "Markdown (one file)", "markdown-folder": "Markdown folder (one file per paper)",
                    "csv": "CSV (exact text, for programs)", "json": "Margin JSON (backup; import restores it)",
                    "bibtex": "BibTeX", "csl-json": "CSL-JSON", "ris": "RIS (EndNote, Mendeley)",
                    "xlsx": "Excel workbook (for spreadsheets)"}
PAPER = Paper(id="aaaaaaaaaaaa", label="A paper", title="A paper", abstract="An abstract.", authors=["Ann Lee"],
              venue=None, year=2017, note="a note")


def _format_option():
    export_parser = build_parser()._subparsers._group_actions[0].choices["export"]
    return next(action for action in export_parser._actions if "--format" in action.option_strings)


def test_every_format_has_exactly_one_record():
    names = [writer.name for writer in WRITERS]
    assert len(names) == len(set(names))
    assert sorted(FORMATS) == sorted(names) and len(FORMATS) == len(names)
    assert sorted(FILE_FORMATS + BINARY_FORMATS + FOLDER_FORMATS) == sorted(names)
    assert set(DESCRIPTIONS) == set(names) and set(EXTENSIONS) == set(names) - set(FOLDER_FORMATS)


def test_the_tables_the_export_dialog_reads_are_the_same_as_before():
    assert FORMATS == OLD_FORMATS  # the dialog's list and the --format choices, in this order
    assert list(DESCRIPTIONS.items()) == list(OLD_DESCRIPTIONS.items())
    assert list(EXTENSIONS.items()) == list(OLD_EXTENSIONS.items())
    assert (FOLDER_FORMATS, BINARY_FORMATS) == (("markdown-folder",), ("xlsx",))


def test_format_choices_and_help_list_each_record_once():
    option = _format_option()
    assert tuple(option.choices) == OLD_FORMATS
    assert option.help == "; ".join(f"{writer.name}: {writer.description}" for writer in WRITERS)
    assert option.help == "; ".join(f"{name}: {text}" for name, text in OLD_DESCRIPTIONS.items())


@pytest.mark.parametrize("writer", WRITERS, ids=lambda writer: writer.name)
def test_each_record_writes_through_its_entry_point(writer):
    if writer.name in FOLDER_FORMATS:
        files = export_files([PAPER], writer.name, include_abstract=False)
        assert len(files) == 1 and "An abstract." not in next(iter(files.values()))
        with pytest.raises(MarginError, match="writes a folder of files; give a folder as the output"):
            export([PAPER], writer.name)
    elif writer.name in BINARY_FORMATS:
        assert export_bytes([PAPER], writer.name).startswith(b"PK")  # a zip, as .xlsx files are
        with pytest.raises(MarginError, match="writes a binary file; give a file name as the output"):
            export([PAPER], writer.name)
    else:
        assert "A paper" in export([PAPER], writer.name)
        with pytest.raises(MarginError, match=f"export format '{writer.name}' is text; use export"):
            export_bytes([PAPER], writer.name)
        with pytest.raises(MarginError, match="writes one file, not a folder; use: markdown-folder"):
            export_files([PAPER], writer.name)


def test_an_unknown_format_is_named_with_the_choices():
    with pytest.raises(MarginError) as error:
        export([PAPER], "docx")
    assert str(error.value) == f"unknown export format 'docx'; use: {', '.join(OLD_FORMATS)}"
    assert registry.PLANNED_FORMATS == ()
