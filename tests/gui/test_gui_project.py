"""A shared screening project in the window (issue 27): the criteria dock shows the project, whether it is blind,
the agreement figures from the library's copy of the project (db.library.shared_projects), and *Show conflicts*,
which lists `is:conflict`; the sidebar's Conflicts entry counts them; a decision by key (real key events) moves
the figures through Changes; a member who does not own the project reads its criteria, not edits them."""

from __future__ import annotations

import shutil

import pytest
from PySide6.QtCore import Qt

from db.library.library import Library

INFO = {"role": "bob", "owner": "alice", "blind": False, "crowd": False, "criteria": "RL papers with code",
        "reasons": ["off-topic", "no code"], "members": ["alice", "bob"]}


def _project(folder, blind=False) -> list[str]:
    """The seeded library as bob's, in the project "icml" with alice: alice's decisions on the first 6 papers."""
    with Library.open(folder) as library:
        ids = library.ids()[:6]
        book = library.project_book
        book.put_project("icml", "host=nowhere user=bob", {**INFO, "blind": blind})
        book.set_papers("icml", ids)
        library.set_criteria(INFO["criteria"])
        library.set_exclusion_reasons(INFO["reasons"])
        alice = ["include", "include", "exclude", "maybe", "exclude", "include"]
        bob = ["exclude", "include", "include", "exclude", "exclude", None]
        for paper_id, decision in zip(ids, bob, strict=True):
            if decision:
                library.set_decision(paper_id, decision)
        rows = [(i, "alice", d, "", "", "") for i, d in zip(ids, alice, strict=True)]
        rows += [(i, "bob", d, "", "", "") for i, d in zip(ids, bob, strict=True) if d and not blind]
        book.set_decisions("icml", rows if not blind else rows[6:], [])
        return ids


@pytest.fixture
def project_library(library_dir, seeded_library, monkeypatch):
    """The seeded library as bob's in alice's project (`_project`), with no sync (only the tests' own edits
    move the figures); yields `make(blind=False) -> ids` that sets the project up."""
    monkeypatch.setattr("desktop.window.sync.FIRST_SYNC_MS", 3_600_000)
    shutil.copytree(seeded_library, library_dir)
    return lambda blind=False: _project(library_dir, blind)


def _panel(window, qtbot):
    """The criteria dock shown and its project panel, once visible."""
    dock = window.criteria_dock
    dock.show()
    qtbot.waitUntil(dock.project_panel.isVisible)
    return dock.project_panel


def _counts(panel) -> dict[str, list[str]]:
    """{column: [screened, excluded, maybe, included, awaiting]} of the panel's PRISMA table."""
    table = panel.counts
    heads = [table.headerItem().text(i) for i in range(1, table.columnCount())]
    return {head: [table.column(head)[row] for row in ("Screened", "Excluded", "Maybe", "Included", "Awaiting")]
            for head in heads}


def test_the_criteria_dock_shows_the_projects_figures_and_shows_its_conflicts(make_window, qtbot, project_library):
    ids = project_library()
    window = make_window()
    dock = window.criteria_dock
    panel = _panel(window, qtbot)
    qtbot.waitUntil(lambda: "agree" in panel.figures.text())  # counted on the background pool
    assert "unblinded" in panel.summary.text() and "alice" in panel.summary.text()
    # 5 papers both decided: agree on 1 and 4 (include, exclude) → 40%; conflicts 0 and 2
    assert "alice & bob: 5 papers, 40.0% agree, Cohen's κ" in panel.figures.text()
    assert "Conflicts: 2 · on the maybe list: 1" in panel.figures.text()
    # PRISMA counts per member and for the project (screened, excluded, maybe, included, awaiting)
    assert _counts(panel) == {"alice": ["6", "2", "1", "3", "0"], "bob": ["5", "3", "0", "2", "1"],
                              "Project": ["3", "1", "1", "1", "3"]}
    assert panel.counts.column("bob")["Excluded / (no reason)"] == "3"
    assert panel.show_conflicts.text() == "Show conflicts (2)"
    assert dock.criteria.toPlainText() == "RL papers with code" and dock.criteria.isReadOnly()
    assert not dock.new_reason.isEnabled()  # a member reads the project's reasons; its owner edits them
    # new-user trial: the heading offered double-click and drag, which a member's list refuses
    assert dock.reasons_heading.text() == ("Exclusion reasons (the project's owner, alice, edits them; "
                                           "Exclude… picks one)")
    sidebar_counts = {window.sidebar.topLevelItem(0).child(i).text(0): window.sidebar.topLevelItem(0).child(i).text(1)
                      for i in range(window.sidebar.topLevelItem(0).childCount())}
    assert sidebar_counts["Conflicts"] == "2"
    qtbot.mouseClick(panel.show_conflicts, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.model.ids() == [ids[0], ids[2]])
    window.select_row(1)  # every member's decision on the conflicting paper, to resolve it with all in view
    qtbot.waitUntil(lambda: panel.paper.text() == "Decisions on this paper: alice: exclude · bob: include")
    # bob changes his mind on paper 0 with the I key: the figures follow from the decision change alone
    window.select_row(0)
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_I)
    assert window.library.paper(ids[0]).decision == "include"
    qtbot.waitUntil(lambda: "Conflicts: 1 " in panel.figures.text())  # this member's own decisions count at once
    assert "alice & bob: 5 papers, 60.0% agree" in panel.figures.text()


def test_a_blind_project_says_so_and_has_no_figures_yet(make_window, qtbot, project_library):
    project_library(blind=True)
    panel = _panel(make_window(), qtbot)
    qtbot.waitUntil(lambda: "is blind" in panel.summary.text())
    assert "No agreement figures yet" in panel.figures.text()
    assert panel.show_conflicts.text() == "Show conflicts (0)"
    assert _counts(panel) == {"bob": ["5", "3", "0", "2", "1"]}  # blind: one's own counts only, no project's
    assert panel.blind_note.isVisible() and "your own" in panel.blind_note.text()


def test_without_a_project_the_panel_is_hidden_and_the_criteria_editable(make_window, qtbot):
    window = make_window()
    dock = window.criteria_dock
    dock.show()
    assert not dock.project_panel.isVisible() and not dock.criteria.isReadOnly() and dock.new_reason.isEnabled()
    assert dock.reasons_heading.text() == "Exclusion reasons (double-click to rename, drag to order)"
    top = window.sidebar.topLevelItem(0)
    assert "Conflicts" not in [top.child(i).text(0) for i in range(top.childCount())]


def test_a_members_reason_picker_offers_the_projects_reasons_but_no_editing(make_window, qtbot, project_library):
    project_library()
    window = make_window()
    window.select_row(0)
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_E)
    qtbot.waitUntil(lambda: window.screening.picker is not None and window.screening.picker.isVisible())
    texts = [action.text() for action in window.screening.picker.actions()]
    assert "&1  off-topic" in texts and "&2  no code" in texts
    assert "Edit the reasons…" not in texts
    qtbot.keyClick(window.screening.picker, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: window.screening.picker is None)


def test_resolve_is_offered_to_a_resolver_on_a_conflict_only_and_never_to_a_plain_reviewer(
        make_window, qtbot, project_library):
    ids = project_library()  # bob is a plain reviewer of alice's project
    window = make_window()
    panel = _panel(window, qtbot)
    window.set_query("is:conflict")
    qtbot.waitUntil(lambda: window.model.ids() == [ids[0], ids[2]])
    window.select_row(0)
    qtbot.waitUntil(lambda: "alice: include" in panel.paper.text())
    assert not panel.resolve_button.isVisible()  # a plain reviewer is not offered Resolve…
    font = window.font()  # the trial's laptop: 1024 px and a desktop's 12 pt (offscreen's is 9): the message was
    font.setPointSize(12)  # cut before it named anyone
    window.setFont(font)
    window.resize(1024, 700)
    qtbot.wait(50)
    window.paper_list.setFocus()
    qtbot.keyClick(window.paper_list, Qt.Key.Key_V)  # nor by key: the status bar says who resolves
    assert panel.dialog is None
    bar = window.statusBar()
    assert bar.currentMessage() == "Conflicts in “icml” are resolved by alice (owner) only"
    assert bar.shown_message() == bar.currentMessage()  # whole, not cut with "…"

    window.library.project_book.put_project("icml", "host=nowhere user=bob", {**INFO, "resolvers": ["bob"]})
    window.select_row(1)  # bob made a resolver (as a sync would say): offered on a conflict
    qtbot.waitUntil(panel.resolve_button.isVisible)
    window.set_query("")
    qtbot.waitUntil(lambda: window.model.rowCount() > 6)
    window.select_row(window.model.ids().index(ids[1]))  # both included: no conflict, nothing to resolve
    qtbot.waitUntil(lambda: window.current_paper_id() == ids[1])
    qtbot.waitUntil(lambda: not panel.resolve_button.isVisible())


def project_walks(window, sql: list[str]) -> list[tuple[str, str]]:
    """The statements of `sql` whose query plan walks a whole project's rows (statement, plan step): a SCAN of a
    project table, or a SEARCH narrowed by the project alone (`(project=?)`), not by a paper."""
    walked = []
    conn = window.library._conn
    conn.set_trace_callback(None)
    for statement in {statement for statement in sql if statement.lstrip().upper().startswith(("SELECT", "WITH"))}:
        for *_ids, step in conn.execute("EXPLAIN QUERY PLAN " + statement):
            if "(project=?)" in step or step.startswith("SCAN project_"):
                walked.append((statement, step))
    conn.set_trace_callback(sql.append)
    return walked


def test_moving_and_deciding_read_no_whole_project_on_the_gui_thread(make_window, qtbot, project_library):
    """The panel read every decision of the project on the GUI thread at each move in the list (the current
    paper's decisions) and each decision key (the figures): ~0.5 s a key at 20,000 project papers. Now a move
    reads that paper's rows and the figures are counted on the background pool."""
    ids = project_library()
    window = make_window()
    panel = _panel(window, qtbot)
    qtbot.waitUntil(lambda: "agree" in panel.figures.text())
    seen: list[str] = []
    window.library._conn.set_trace_callback(seen.append)
    for row in (1, 2, 0):
        window.select_row(window.model.row_of(ids[row]), by_user=True)
    qtbot.waitUntil(lambda: panel.paper.text() == "Decisions on this paper: alice: include · bob: exclude")
    with qtbot.waitSignal(panel.counted, timeout=10000):
        window.paper_list.setFocus()
        qtbot.keyClick(window.paper_list, Qt.Key.Key_I)
    assert "alice & bob: 5 papers, 60.0% agree" in panel.figures.text()
    assert seen and project_walks(window, seen) == []
    window.library._conn.set_trace_callback(None)


def test_resolve_is_offered_for_the_project_the_paper_belongs_to(library_dir, seeded_library):
    """With two joined projects, Resolve… named the first the member may resolve, whether or not the paper is in
    it (a resolution would have been sent to the wrong project)."""
    from desktop.docks.resolve_dialog import resolvable, why_not

    shutil.copytree(seeded_library, library_dir)
    with Library.open(library_dir) as library:
        ids = library.ids()
        book = library.project_book
        book.put_project("alpha", "host=nowhere user=bob", {**INFO, "owner": "bob", "name": "alpha"})
        book.set_papers("alpha", ids[10:20])
        book.put_project("beta", "host=nowhere user=bob", {**INFO, "resolvers": ["bob"]})
        book.set_papers("beta", ids[:6])
        assert [p["name"] for p in book.projects()] == ["alpha", "beta"]
        assert resolvable(library, {ids[2]}, ids[2])["name"] == "beta"
        assert resolvable(library, {ids[12]}, ids[12])["name"] == "alpha"
        assert resolvable(library, {ids[30]}, ids[30]) is None  # in neither project
        assert why_not(library, ids[30]) == "Resolve: this paper is in no shared project"
        assert why_not(library, ids[3]) == "Resolve: no conflict on this paper in “beta”"
        book.put_project("beta", "host=nowhere user=bob", {**INFO, "resolvers": ["bob"], "blind": True})
        assert why_not(library, ids[3]) == "Resolve: “beta” is blind until its owner alice unblinds it"
        book.put_project("beta", "host=nowhere user=bob", {**INFO, "resolvers": ["c", "d", "e", "f"]})
        assert why_not(library, ids[3]) == "Conflicts in “beta” are resolved by alice (owner), c, d, 2 more only"
