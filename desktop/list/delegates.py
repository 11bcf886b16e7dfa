"""Item delegates for the paper list: a two-line row (title; then stars, authors · venue · year, tags), as mail
and reference managers draw their lists, and the rating column drawn as stars."""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import QModelIndex, QPointF, QRect, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPalette, QStaticText, QTransform
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from db.text.render import stars
from desktop.list.paper_model import ROW_ROLE, SORT_ROLE

PADDING_X = 6  # pixels left and right of the text
PADDING_Y = 3  # pixels above the title and below the second line
LINE_GAP = 1
TAGS_SHARE = 0.4  # the tags take at most this share of the second line; authors and venue get the rest
DETAIL_SCALE = 0.9  # the second line's font size, relative to the list's
LAID_OUT = 1500  # texts kept laid out (a few screenfuls of rows, each two or three texts)


class LaidOutTexts:
    """Texts elided to a width and laid out in a font (QStaticText, plain text), the most recent LAID_OUT of
    them: a row painted again — the rest of a search after its first page, the next keystroke's results sharing
    rows, a moved selection — is drawn from its layout instead of being measured, elided and shaped anew (the
    list's paint was most of the window's own work per keystroke at 100k papers)."""

    def __init__(self) -> None:
        self._texts: OrderedDict[tuple, tuple[str, QStaticText, int]] = OrderedDict()

    def get(self, font: QFont, text: str, width: int) -> tuple[str, QStaticText, int]:
        """(`text` elided at the right to `width` pixels in `font`, its laid-out QStaticText, its width)."""
        key = (font.key(), text, width)
        found = self._texts.get(key)
        if found is not None:
            self._texts.move_to_end(key)
            return found
        metrics = QFontMetrics(font)
        elided = metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)
        static = QStaticText(elided)
        static.setTextFormat(Qt.TextFormat.PlainText)  # a title or a name is never read as markup
        static.prepare(QTransform(), font)
        found = self._texts[key] = (elided, static, metrics.horizontalAdvance(elided))
        if len(self._texts) > LAID_OUT:
            self._texts.popitem(last=False)
        return found


class PaperDelegate(QStyledItemDelegate):
    """Paints the first column as two lines: the title (bold while unread), elided at the right only when the
    column is narrower than the title; below it, smaller and muted, the stars, `authors · venue · year` and the
    tags. `title_text` tells what the first line shows, for tests."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.texts = LaidOutTexts()

    @staticmethod
    def detail_font(font: QFont) -> QFont:
        small = QFont(font)
        size = font.pointSizeF()
        if size > 0:
            small.setPointSizeF(size * DETAIL_SCALE)
        small.setBold(False)
        return small

    @classmethod
    def row_height(cls, font: QFont) -> int:
        """The height of a two-line row in a list that uses `font`."""
        title = QFontMetrics(font).height()
        return title + LINE_GAP + QFontMetrics(cls.detail_font(font)).height() + 2 * PADDING_Y

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:  # noqa: N802 - Qt's name
        return QSize(super().sizeHint(option, index).width(), self.row_height(option.font))

    def title_font(self, option: QStyleOptionViewItem, index: QModelIndex) -> QFont:
        font = QFont(option.font)
        bold = index.data(Qt.ItemDataRole.FontRole)
        if isinstance(bold, QFont):
            font.setBold(bold.bold())
        return font

    def title_text(self, option: QStyleOptionViewItem, index: QModelIndex, width: int | None = None) -> str:
        """The first line as painted in a column `width` pixels wide (option.rect's width when None)."""
        width = (option.rect.width() if width is None else width) - 2 * PADDING_X
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        return self.texts.get(self.title_font(option, index), text, width)[0]

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        draw_cell_background(self, painter, option, index)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        group = QPalette.ColorGroup.Active if option.state & QStyle.StateFlag.State_Active \
            else QPalette.ColorGroup.Inactive
        text_color = option.palette.color(group, QPalette.ColorRole.HighlightedText if selected
                                          else QPalette.ColorRole.Text)
        muted = text_color if selected else option.palette.color(group, QPalette.ColorRole.PlaceholderText)
        accent = text_color if selected else option.palette.color(group, QPalette.ColorRole.Link)
        rect = option.rect.adjusted(PADDING_X, PADDING_Y, -PADDING_X, -PADDING_Y)

        row = index.data(ROW_ROLE)
        if row is None:
            return
        painter.save()
        title_font = QFont(option.font)
        if row.bold:
            title_font.setBold(True)
        title_height = QFontMetrics(title_font).height()
        painter.setFont(title_font)  # a QStaticText is drawn in the painter's font (its layout made in the same)
        painter.setPen(text_color)
        painter.drawStaticText(QPointF(rect.x(), rect.y()), self.texts.get(title_font, row.label, rect.width())[1])

        small = self.detail_font(option.font)
        metrics = QFontMetrics(small)
        painter.setFont(small)
        line = QRect(rect.x(), rect.y() + title_height + LINE_GAP, rect.width(), metrics.height())
        x = line.x()
        if row.rating:
            painter.setPen(accent)
            text = stars(row.rating)
            painter.drawText(QRect(x, line.y(), line.width(), line.height()), Qt.AlignmentFlag.AlignVCenter, text)
            x += metrics.horizontalAdvance(text + "  ")
        tags_width = 0
        if row.tags:
            _elided, laid_out, tags_width = self.texts.get(small, row.tags, int(line.width() * TAGS_SHARE))
            painter.setPen(accent)  # at the right end of the line
            painter.drawStaticText(QPointF(line.x() + line.width() - tags_width, line.y()), laid_out)
        room = line.right() - x - (tags_width + metrics.horizontalAdvance("  ") if row.tags else 0)
        if row.detail and room > 0:
            painter.setPen(muted)
            painter.drawStaticText(QPointF(x, line.y()), self.texts.get(small, row.detail, room)[1])
        painter.restore()


def draw_cell_background(delegate: QStyledItemDelegate, painter: QPainter, option: QStyleOptionViewItem,
                         index: QModelIndex) -> None:
    """Paint a cell's background, selection and focus the style's way, without its text (the delegate paints
    that itself)."""
    opt = QStyleOptionViewItem(option)
    delegate.initStyleOption(opt, index)
    opt.text = ""
    style = opt.widget.style() if opt.widget else None
    if style:
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)


class StarDelegate(QStyledItemDelegate):
    """Paints the rating (SORT_ROLE gives 0..5) as five stars, filled in the highlight colour."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        rating = index.data(SORT_ROLE) or 0
        draw_cell_background(self, painter, option, index)
        if not rating:
            return
        painter.save()
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        full = option.palette.highlightedText().color() if selected else option.palette.highlight().color()
        empty = option.palette.mid().color()
        metrics = painter.fontMetrics()
        width = metrics.horizontalAdvance("★")
        x = option.rect.x() + 4
        for i in range(5):
            painter.setPen(full if i < rating else empty)
            painter.drawText(QRect(x + i * width, option.rect.y(), width, option.rect.height()),
                             Qt.AlignmentFlag.AlignVCenter, "★" if i < rating else "☆")
        painter.restore()
