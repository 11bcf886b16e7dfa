"""The first page first: `find(query, limit=30)` is the exhaustive ranking's first page, for every class of query.

The library has ~2,500 papers (the shared real lists when present, else generated text), so common words have
several posting blocks, the index has more than one segment and deleted documents (annotations re-index a
paper), and a phrase has more candidates than a page.
"""

import json
import random
import re

import numpy as np
import pytest

from db.paper import PaperRecord
from db.search import ensure_index, parse_query_text
from tests.helpers.corpus import SHARED
from tests.helpers.search_reference import ReferenceRanker

pytestmark = pytest.mark.slow

REAL = SHARED / "data" / "real"
SIZE = 2500
PAGE = 30

QUERIES = {
    "single word": ["learning", "network", "graph", "bayesian", "the", "model", "adversarial"],
    "two words": ["neural network", "reinforcement learning", "deep learning", "variational inference",
                  "graph convolution"],
    "phrase": ['"neural network"', '"reinforcement learning"', '"gradient descent"', '"deep neural networks"'],
    "phrase with stop words": ['"state of the art"', '"of the"', '"in this paper we"', '"the number of"'],
    "field filter": ["title:learning", "author:wang", "abstract:graph", "year:2017 learning",
                     "year:2016..2018 network", "rating:>=3 model", "tag:bench learning", "note:idea",
                     'venue:"NIPS 2017" graph', "read:yes network"],
    "part phrase": ['title:"neural network"', 'abstract:"state of the art"', 'title:(graph OR tree)'],
    "wildcard": ["learn*", "optim*", "conv*", "net?ork"],
    "boolean": ["deep OR bayesian", "adversarial -image", "graph NOT neural", "(policy OR reward) agent",
                'learning -"neural network"', "network OR \"state of the art\""],
}


def _records() -> list[PaperRecord]:
    records = []
    for path in sorted(REAL.glob("*.json")) if REAL.is_dir() else []:
        venue = re.match(r"([a-z]+)(\d{4})", path.stem)
        for item in json.loads(path.read_text(encoding="utf-8")):
            if len(item.get("abstract") or "") >= 80:
                records.append(PaperRecord(
                    abstract=item["abstract"], title=item.get("title"),
                    authors=[a.strip() for a in (item.get("author") or "").split(";") if a.strip()],
                    venue=f"{venue.group(1).upper()} {venue.group(2)}" if venue else None,
                    year=int(venue.group(2)) if venue else None))
    random.Random(3).shuffle(records)
    if len(records) >= SIZE:
        return records[:SIZE]
    rng = random.Random(7)
    words = ("learning neural network graph reinforcement bayesian convolutional adversarial inference "
             "variational gradient stochastic descent attention model deep policy optimization state art "
             "kernel sparse training data representation generative agent reward estimation the of a to in "
             "and for with we our method results show image tree number this paper").split()
    return [PaperRecord(abstract=". ".join(" ".join(rng.choices(words, k=15)) for _ in range(8)) + ".",
                        title=" ".join(rng.choices(words, k=8)).capitalize(),
                        authors=[f"Author {rng.choice(['Wang', 'Li', 'Smith'])} {rng.randrange(300)}"],
                        venue="NIPS 2017", year=rng.choice(range(2014, 2019))) for _ in range(SIZE)]


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    from db.library.library import Library

    library = Library.open(tmp_path_factory.mktemp("first-page"), seed=False)
    library.import_records(_records())
    index = ensure_index(library)
    ids = library.ids()
    rng = random.Random(5)
    for paper_id in rng.sample(ids, 60):  # re-indexed: deleted documents in the first segment, a new one
        library.set_rating(paper_id, rng.randrange(1, 6))
        library.add_tags(paper_id, ["bench"])
        library.set_note(paper_id, "an idea on the state of the art of neural network learning")
    for paper_id in rng.sample(ids, 200):
        library.set_read(paper_id, True)
    index.sync(library)
    yield index
    library.close()


def _all_queries() -> list[str]:
    return [text for texts in QUERIES.values() for text in texts]


def test_the_queries_cover_every_class_and_the_index_is_what_the_docstring_says(index):
    assert len(_all_queries()) >= 30
    index._current_searcher()
    ranker = index._ranker
    assert len(ranker.leaves) >= 2
    assert ranker.live is not None and not ranker.live.all()
    assert len(ranker.postings("text", "learn")[0]) > 1024  # more than one posting block


@pytest.mark.parametrize("text", _all_queries())
def test_the_first_page_is_the_exhaustive_ranking_s_first_page(index, text):
    page = index.find(text, limit=PAGE).ids
    full = index.find(text).ids
    assert page == full[:PAGE]
    assert len(full) > 0, "every query of the mix matches something"


@pytest.mark.parametrize("text", _all_queries())
def test_the_full_ranking_is_the_reference_ranker_s(index, text):
    """Against the exhaustive dict-based ranker this one replaced: the same matches, scores equal to 1e-9,
    in the order of those scores (ties in index order)."""
    index._current_searcher()
    ranker = index._ranker
    parsed = parse_query_text(text).query
    reference = ReferenceRanker(index._searcher, lambda field: ranker.cache.lengths(ranker.leaves, field))
    expected = reference.run(parsed)
    expected = {d: s for d, s in expected.items() if ranker.live is None or ranker.live[d]}
    docs, scores = ranker.run(parsed)
    if ranker.live is not None:
        keep = ranker.live[docs]
        docs, scores = docs[keep], scores[keep]
    assert set(docs.tolist()) == set(expected)
    assert np.allclose(scores, [expected[d] for d in docs.tolist()], rtol=1e-9, atol=1e-12)
    order = ranker.ranked(parsed).docnums
    by_reference = sorted(expected, key=lambda d: (-round(expected[d], 9), d))
    assert order[:PAGE] == by_reference[:PAGE]
