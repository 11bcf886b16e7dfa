"""Recommendations (issue 9): the model, the tf-idf cache, similar papers, more like a tag."""

from __future__ import annotations

import random

import numpy as np
import pytest

from db.library.library import Library
from db.paper import PaperRecord
from db.recommend.recommender import (
    NO_POSITIVES,
    SAMPLE,
    NoPositivesError,
    Recommender,
    _word_keys,
    more_like_tag,
    recommend,
    similar,
)
from db.recommend.tfidf_cache import TfidfCache, fit
from tests.helpers.records import papers
from tests.helpers.topics import COMMON, KITCHEN, SPACE, topic_abstract, two_topics


def labels(lib: Library, ids: list[str]) -> list[str]:
    return [paper.label for paper in lib.papers(ids)]


def test_top_recommendations_come_from_the_rated_topic(topics):
    lib, ids = topics
    lib.set_rating(ids["Space 0"], 5)
    lib.set_rating(ids["Space 1"], 4)
    lib.set_rating(ids["Kitchen 0"], 1)
    lib.set_read(ids["Space 2"], True)
    result = recommend(lib, limit=8)
    assert (result.positives, len(result)) == (2, 8)
    names = labels(lib, result.ids)
    assert all(name.startswith("Space ") for name in names), names
    assert not {"Space 0", "Space 1", "Space 2", "Kitchen 0"} & set(names)  # rated and read papers are left out
    scores = [item.score for item in result]
    assert scores == sorted(scores, reverse=True)
    positive_words = set(" ".join(p.abstract.lower() for p in lib.papers([ids["Space 0"], ids["Space 1"]]))
                         .replace(".", " ").split())
    for item in result:
        assert 1 <= len(item.why) <= 5
        for term in item.why:  # every reason is a term of the paper shared with a positive
            assert set(term.split()) <= positive_words, term
            assert all(word in lib.paper(item.id).abstract.lower() for word in term.split()), term
        assert set(" ".join(item.why).split()) <= set(SPACE) | set(COMMON)
        keys = [_word_keys(term) for term in item.why]  # no reason repeats another's words
        assert not any(a <= b for x, a in enumerate(keys) for y, b in enumerate(keys) if x != y), item.why
    every = recommend(lib, limit=None)  # every unread, unrated paper that shares a term with a positive
    assert [name.split()[0] for name in labels(lib, every.ids)] == ["Space"] * 11 + ["Kitchen"] * 13


def test_no_positive_rating_gives_the_clear_message(topics):
    lib, ids = topics
    with pytest.raises(NoPositivesError) as error:
        recommend(lib)
    assert str(error.value) == NO_POSITIVES == "Rate at least one paper 4 or 5 stars to get recommendations"
    lib.set_rating(ids["Space 0"], 3)
    lib.set_rating(ids["Kitchen 0"], 1)
    with pytest.raises(NoPositivesError, match="Rate at least one paper 4 or 5 stars"):
        Recommender(lib).recommend()


def test_recommendations_follow_a_new_rating_with_the_same_recommender(topics):
    lib, ids = topics
    recommender = Recommender(lib)
    lib.set_rating(ids["Space 3"], 5)
    first = labels(lib, recommender.recommend(limit=5).ids)
    assert all(name.startswith("Space ") for name in first), first
    lib.set_rating(ids["Space 3"], 1)
    lib.set_rating(ids["Kitchen 3"], 5)
    second = recommender.recommend(limit=5)
    assert all(name.startswith("Kitchen ") for name in labels(lib, second.ids))
    assert recommender.last_refresh.kind == "unchanged"  # a rating does not touch the tf-idf matrix
    assert (second.positives, second.negatives) == (1, 27)


def test_cache_is_written_reused_and_updated_incrementally(topics):
    lib, ids = topics
    cache = TfidfCache(lib.folder)
    assert not cache.path.exists()
    report = Recommender(lib).refresh()
    assert (report.kind, report.changed) == ("fitted", 28)
    assert cache.path == lib.folder / "recommend" / "tfidf.npz" and cache.path.is_file()
    stored = cache.load()
    assert stored.ids == lib.ids() and stored.matrix.shape[0] == 28
    assert Recommender(lib).refresh().kind == "unchanged"  # a new process reads the file
    # a note edit is stale state: only that row is transformed again, with the cached vocabulary
    lib.set_note(ids["Kitchen 5"], "galaxy telescope nebula quasar pulsar")
    recommender = Recommender(lib)
    report = recommender.refresh()
    assert (report.kind, report.changed) == ("updated", 1)
    tfidf = recommender.tfidf
    assert tfidf.fingerprint != stored.fingerprint and cache.load().fingerprint == tfidf.fingerprint
    row = tfidf.matrix[tfidf.row[ids["Kitchen 5"]]]
    noted = {str(tfidf.terms[i]) for i in row.indices}
    assert {"galaxy", "telescope", "quasar"} <= noted
    expected = tfidf.vectorizer().transform([lib.paper(ids["Kitchen 5"]).abstract]).toarray()
    assert not np.allclose(row.toarray(), expected)  # the note counts
    # the unchanged rows are the cached ones
    other = tfidf.row[ids["Space 7"]]
    assert np.array_equal(tfidf.matrix[other].toarray(), stored.matrix[stored.row[ids["Space 7"]]].toarray())


def test_a_new_import_reaches_the_recommendations(topics):
    lib, ids = topics
    recommender = Recommender(lib)
    lib.set_rating(ids["Space 0"], 5)
    before = recommender.recommend(limit=None)
    lib.import_records([PaperRecord(title="Space new", abstract="A supernova and a quasar seen by the galaxy "
                                    "telescope: redshift spectroscopy of a comet and a pulsar.")])
    after = recommender.recommend(limit=None)
    assert recommender.last_refresh.kind == "updated" and recommender.last_refresh.changed == 1
    new_id = lib.papers()[-1].id
    assert new_id not in before.ids and new_id in after.ids[:5]


def test_many_new_papers_refit_the_vocabulary(topics):
    lib, _ids = topics
    Recommender(lib).refresh()
    rng = random.Random(4)
    words = "protein folding enzyme ribosome peptide mutation genome".split()
    lib.import_records(papers(10, title="Bio {i}", abstract=lambda i: topic_abstract(rng, words)))
    recommender = Recommender(lib)
    assert recommender.refresh().kind == "fitted"  # 10 new of 28 is more than a fifth: vocabulary and idf anew
    assert "ribosome" in set(recommender.tfidf.terms.tolist())


def test_an_unreadable_cache_is_rebuilt(topics):
    lib, ids = topics
    lib.set_rating(ids["Kitchen 2"], 5)
    expected = recommend(lib, limit=5).ids
    cache = TfidfCache(lib.folder)
    cache.path.write_bytes(b"PK\x03\x04 not a real archive")
    assert cache.load() is None
    recommender = Recommender(lib)
    assert recommender.recommend(limit=5).ids == expected
    assert recommender.last_refresh.kind == "fitted" and cache.load().ids == recommender.tfidf.ids


def test_similar_puts_the_near_duplicate_first(topics):
    lib, ids = topics
    source = lib.paper(ids["Kitchen 4"])
    lib.import_records([PaperRecord(title="Kitchen copy", abstract=source.abstract.replace("dough", "batter"))])
    copy = lib.papers()[-1].id
    lib.set_read(copy, True)  # similar papers include read ones
    result = similar(lib, ids["Kitchen 4"], limit=6)
    assert result.ids[0] == copy
    assert ids["Kitchen 4"] not in result.ids
    assert all(name.startswith("Kitchen ") for name in labels(lib, result.ids))
    assert result.items[0].score > 0.8 > result.items[1].score
    assert set(" ".join(result.items[0].why).split()) <= set(KITCHEN) | set(COMMON) | {"kitchen"}
    with pytest.raises(KeyError):
        similar(lib, "000000000000")


def test_more_like_tag_suggests_untagged_papers_of_the_tagged_topic(topics):
    lib, ids = topics
    for name in ("Space 0", "Space 1", "Space 2"):
        lib.add_tags(ids[name], ["Deep Space"])
    lib.set_read(ids["Space 3"], True)
    result = more_like_tag(lib, "deep space", limit=6)  # tags match case-insensitively
    names = labels(lib, result.ids)
    assert len(names) == 6 and all(name.startswith("Space ") for name in names), names
    assert not {"Space 0", "Space 1", "Space 2", "Space 3"} & set(names)
    assert result.positives == 3 and all(item.why for item in result)
    with pytest.raises(NoPositivesError, match="No paper carries the tag 'nothing'"):
        more_like_tag(lib, "nothing")


def test_reason_words_fold_plurals():
    assert _word_keys("policies skills process gas multi agents") == {"policy", "skill", "process", "gas", "multi",
                                                                      "agent"}


def test_fit_of_a_library_without_words_is_empty():
    tfidf = fit(["a", "b"], ["", "the of and"])
    assert tfidf.matrix.shape == (2, 0) and tfidf.terms.size == 0


def test_bundled_library_recommends_by_a_rating(library):
    first = library.ids()[0]  # chain-of-thought inference-time scaling
    library.set_rating(first, 5)
    result = recommend(library, limit=3)
    assert len(result) == 3 and first not in result.ids
    assert {"reasoning", "inference", "time scaling", "inference time"} & set(result.items[0].why), result.items[0].why


def test_a_paper_with_too_little_text_is_not_recommended(library_dir):
    lib = Library.open(library_dir, seed=False)
    try:
        records = two_topics()
        records.append(PaperRecord(title="Galaxy Telescope Award", abstract="", venue="AST 2024", year=2024))
        lib.import_records(records)
        ids = {paper.label: paper.id for paper in lib.papers()}
        lib.set_rating(ids["Space 0"], 5)
        result = recommend(lib, limit=None)
        assert ids["Galaxy Telescope Award"] not in result.ids  # two shared words would put it first
        assert ids["Space 1"] in result.ids
    finally:
        lib.close()


def _syllable_words(rng: random.Random, count: int) -> list[str]:
    """`count` distinct made-up words ("bakelo", "tumiri"): a vocabulary no real text shares."""
    syllables = [c + v for c in "bdklmnrstv" for v in "aeiou"]
    words: set[str] = set()
    while len(words) < count:
        words.add("".join(rng.sample(syllables, 3)))
    return sorted(words)


def _abstract(rng: random.Random, *parts: tuple[list[str], int]) -> str:
    sentences = []
    for _ in range(4):
        chosen = [word for words, k in parts for word in rng.sample(words, k)]
        rng.shuffle(chosen)
        sentences.append(" ".join(chosen) + ".")
    return " ".join(sentences)


@pytest.fixture
def bigger_than_the_sample(library_dir):
    """A library of more unrated papers than db.recommend.recommender.SAMPLE draws (4000 filler papers of ten other
    topics),
    6 liked papers (a shared topic + subtopic A), 30 to be disliked (the topic + subtopic B) and 10 unrated
    papers like the disliked ones. Yields (library, {title: id})."""
    rng = random.Random(19)
    vocabulary = _syllable_words(rng, 600)
    topic, a, b = vocabulary[:15], vocabulary[15:30], vocabulary[30:45]
    fillers = [vocabulary[45 + 40 * i:85 + 40 * i] for i in range(10)]
    records = (papers(4000, title="Filler {i}", abstract=lambda i: _abstract(rng, (rng.choice(fillers), 8)), year=2020)
               + papers(6, title="Liked {i}", abstract=lambda i: _abstract(rng, (topic, 5), (a, 2)), year=2020)
               + papers(30, title="Disliked {i}", abstract=lambda i: _abstract(rng, (topic, 5), (b, 2)), year=2020)
               + papers(10, title="Like disliked {i}", abstract=lambda i: _abstract(rng, (topic, 5), (b, 2)),
                        year=2020))
    lib = Library.open(library_dir, seed=False)
    lib.import_records(records)
    ids = {paper.label: paper.id for paper in lib.papers()}
    for i in range(6):
        lib.set_rating(ids[f"Liked {i}"], 5)
    yield lib, ids
    lib.close()


def test_one_star_papers_are_negatives_beyond_the_sample(bigger_than_the_sample):
    """In a library of more unrated papers than the sample, every 1★ paper still trains the model as a negative
    (at full weight): rating papers 1★ lowers the scores of unrated papers like them. Were the ratings ignored,
    the 1★ papers would be unrated papers like any other, the sample the same, the scores identical."""
    lib, ids = bigger_than_the_sample
    recommender = Recommender(lib)
    alike = [ids[f"Like disliked {i}"] for i in range(10)]

    def scores() -> tuple[dict[str, float], int]:
        result = recommender.recommend(limit=None)
        return {item.id: item.score for item in result if item.id in alike}, result.negatives

    before, negatives_before = scores()
    assert negatives_before == SAMPLE
    for i in range(30):
        lib.set_rating(ids[f"Disliked {i}"], 1)
    after, negatives_after = scores()
    assert negatives_after == SAMPLE + 30  # the 30 rated papers, and still a full sample of the unrated
    assert sorted(after) == sorted(before) == sorted(alike)
    drops = [before[i] - after[i] for i in alike]
    assert min(drops) > 0.02, drops  # each one (about 0.04 each)



def test_similar_finds_a_chinese_paper_by_its_characters(topics):
    """Chinese is written without spaces: the whole title was one tf-idf word of its own, so `similar:` of a
    Chinese paper ranked unrelated papers first (a new user's trial). Character bigrams, as the search index
    has them, give two papers on Chinese text classification their shared terms."""
    lib, ids = topics
    lib.import_records([
        PaperRecord(title="基于图神经网络的中文文本分类方法研究",
                    abstract="本文提出一种基于图神经网络的中文文本分类方法。"),
        PaperRecord(title="中文文本分类的深度学习方法", abstract="我们研究中文文本分类，并比较多种深度学习方法。"),
        PaperRecord(title="月球表面的土壤成分", abstract="我们测量了月球土壤中的矿物。"),
    ])
    chinese = {paper.label: paper.id for paper in lib.papers()[-3:]}
    result = similar(lib, chinese["基于图神经网络的中文文本分类方法研究"], limit=3)
    assert result.ids[0] == chinese["中文文本分类的深度学习方法"]
