"""The interests queue in the window (issue 16, item 2): a accepts into the interest, x dismisses for good."""

from __future__ import annotations

from PySide6.QtCore import Qt

from db.text.cleaning import strip_bidi

AGENTS = "6ac65bf33b7e"  # GLEAN, agent verification
REASONING = "9342e12f8e8d"  # chain-of-thought lower bounds


def _queue(qtbot, window):
    window.set_query("is:interests")
    qtbot.waitUntil(lambda: window.search.query == "is:interests" and window.model.rowCount() > 0, timeout=60000)
    return window.model.ids()


def test_x_persists_across_a_restart_and_lowers_the_paper_for_that_interest(make_window, qtbot):
    window = make_window()
    window.actions_.auto_read.setChecked(False)
    library = window.library
    library.add_tags(AGENTS, ["agents"])
    library.add_tags(REASONING, ["reasoning"])
    library.set_interest("agents")
    library.set_interest("reasoning")
    ids = _queue(qtbot, window)
    assert {window.search.interest[i] for i in ids} == {"agents", "reasoning"}
    window.select_paper(ids[0], by_user=True)  # the paper selected before stays selected: start at the top
    first = window.current_paper_id()
    interest = window.search.interest[first]
    assert f"For the interest “{interest}”: " in strip_bidi(window.reader.toPlainText())  # without its isolates
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_X)
    assert first not in window.model.ids() and window.current_paper_id() == ids[1]
    assert library.dismissed(interest) == [first]
    second, second_interest = ids[1], window.search.interest[ids[1]]
    qtbot.keyClick(window.paper_list, Qt.Key.Key_A)  # accepted: tagged with the interest it came for
    assert second_interest in library.paper(second).tags
    window.close()
    library.close()

    again = make_window()
    assert again.library.dismissed(interest) == [first]
    ids = _queue(qtbot, again)
    assert again.search.interest.get(first) != interest  # another interest may still want it
    assert second not in ids  # accepted: it carries that tag now
    from db.recommend.recommender import Recommender

    scores = {item.id: item.score for item in Recommender(again.library).more_like_tag(interest, limit=None)}
    assert first not in scores  # out of that interest's suggestions, and a negative of its model
    other = "reasoning" if interest == "agents" else "agents"
    assert again.library.dismissed(other) == []  # the other interest is not told


def test_x_in_a_tag_suggestion_list_is_kept_too(make_window, qtbot):
    window = make_window()
    window.actions_.auto_read.setChecked(False)
    window.library.add_tags(AGENTS, ["agents"])
    window.set_query('similar-tag:"agents"')
    qtbot.waitUntil(lambda: window.search.query == 'similar-tag:"agents"' and window.model.rowCount() > 0,
                    timeout=60000)
    window.select_paper(window.model.ids()[0], by_user=True)
    first = window.current_paper_id()
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_X)
    assert window.library.dismissed("agents") == [first]
    window.undo_stack.undo()  # Ctrl+Z takes the dismissal back
    assert window.library.dismissed("agents") == []
