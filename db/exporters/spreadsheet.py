"""An .xlsx workbook for spreadsheets (Excel, LibreOffice, Google Sheets), written with openpyxl.

The same columns as the CSV export (db.exporters.table.COLUMNS), one row per paper under a bold, frozen header.
Every cell is a text cell except `year` and `rating` (numbers), so arXiv ids and paper ids stay as written
(1812.11470 does not become 1812.1147), and no cell is ever a formula: a value that starts with `= + - @`, a
tab or a carriage return (OWASP, "CSV Injection") is stored as a string with Excel's quote prefix, so that
editing the cell later does not turn it into a formula either. Text keeps its line breaks; characters XML 1.0
cannot hold (control characters other than tab, newline and carriage return) are left out, and a cell is cut
at Excel's 32,767-character limit with a note in the last column. Source: ECMA-376 / openpyxl docs; OWASP
CSV Injection (https://owasp.org/www-community/attacks/CSV_Injection).
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence

from db.exporters.common import citation_keys
from db.exporters.table import COLUMNS, row_values
from db.paper import Paper

CELL_LIMIT = 32_767  # characters in one Excel cell
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER_COLUMNS = {"year", "rating"}
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def export_xlsx(papers: Sequence[Paper]) -> bytes:
    """The workbook's bytes: sheet "Papers" with a header row, then one row per paper in the order given."""
    from openpyxl import Workbook
    from openpyxl.cell.cell import TYPE_STRING
    from openpyxl.styles import Alignment, Font

    book = Workbook()
    sheet = book.active
    sheet.title = "Papers"
    header = [*COLUMNS, "cut"]
    sheet.append(header)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    sheet.freeze_panes = "A2"
    wrap = Alignment(wrap_text=True, vertical="top")
    keys = citation_keys(papers)
    for number, paper in enumerate(papers, start=2):
        cut = []
        for column, (name, value) in enumerate(zip(COLUMNS, row_values(paper, keys[paper.id]), strict=True), start=1):
            cell = sheet.cell(row=number, column=column)
            if name in _NUMBER_COLUMNS and isinstance(value, int):
                cell.value = value
                continue
            text = _NOT_XML.sub("", str(value))
            if len(text) > CELL_LIMIT:
                text = text[:CELL_LIMIT]
                cut.append(name)
            cell.value = text
            cell.data_type = TYPE_STRING  # never a formula, whatever the text starts with
            if text.startswith(FORMULA_STARTS):
                cell.quotePrefix = True
            if "\n" in text:
                cell.alignment = wrap
        if cut:
            sheet.cell(row=number, column=len(header), value=f"cut at {CELL_LIMIT} characters: {', '.join(cut)}")
    for column, width in (("A", 14), ("B", 22), ("C", 60), ("K", 60)):
        sheet.column_dimensions[column].width = width
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
