"""The reader pane's words for bibliographic details (db.text.render.READER_LABELS), through Qt's translation."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def reader_labels() -> dict[str, str]:
    """READER_LABELS' keys with translated texts (`%1` stands for the value)."""
    return {
        "cut": QCoreApplication.translate("Reader", "(%1 more characters of this abstract are not shown)"),
        "submitted": QCoreApplication.translate("Reader", "Submitted to %1"),
        "decision": QCoreApplication.translate("Reader", "Venue decision: %1"),  # not the screening decision
        # the usual values of a venue's decision (OpenReview's), shown in the reader's language; others as written
        "decision:reject": QCoreApplication.translate("Reader", "Reject"),
        "decision:accept": QCoreApplication.translate("Reader", "Accept"),
        "decision:poster": QCoreApplication.translate("Reader", "Poster"),
        "decision:spotlight": QCoreApplication.translate("Reader", "Spotlight"),
        "decision:oral": QCoreApplication.translate("Reader", "Oral"),
        "decision:workshop": QCoreApplication.translate("Reader", "Workshop"),
        "decision:withdraw": QCoreApplication.translate("Reader", "Withdrawn"),
        "decision:withdrawn": QCoreApplication.translate("Reader", "Withdrawn"),
        "volume": QCoreApplication.translate("Reader", "vol. %1"),
        "issue": QCoreApplication.translate("Reader", "no. %1"),
        "pages": QCoreApplication.translate("Reader", "pp. %1"),
        "editors": QCoreApplication.translate("Reader", "ed. %1"),
        "isbn": QCoreApplication.translate("Reader", "ISBN %1"),
        "issn": QCoreApplication.translate("Reader", "ISSN %1"),
        "article": QCoreApplication.translate("Reader", "Journal article"),
        "book": QCoreApplication.translate("Reader", "Book"),
        "incollection": QCoreApplication.translate("Reader", "Chapter"),
        "inbook": QCoreApplication.translate("Reader", "Chapter"),
        "phdthesis": QCoreApplication.translate("Reader", "PhD thesis"),
        "mastersthesis": QCoreApplication.translate("Reader", "Master's thesis"),
        "thesis": QCoreApplication.translate("Reader", "Thesis"),
        "techreport": QCoreApplication.translate("Reader", "Report"),
        "report": QCoreApplication.translate("Reader", "Report"),
        "unpublished": QCoreApplication.translate("Reader", "Unpublished"),
        "online": QCoreApplication.translate("Reader", "Web page"),
        "more tags": QCoreApplication.translate("Reader", "and %1 more tags"),
        "presentation": QCoreApplication.translate("Reader", "Presentation: %1"),
        "session": QCoreApplication.translate("Reader", "Session: %1"),
        "tldr": QCoreApplication.translate("Reader", "TL;DR: %1"),
        "versions": QCoreApplication.translate("Reader", "Versions:"),
        "file": QCoreApplication.translate("Reader", "%1 file"),
    }
