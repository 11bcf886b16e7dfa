"""Papers on clearly separated topics, generated from a seeded random.Random: what recommendations, interests,
the cold start and the conference map are tested on."""

from __future__ import annotations

import random

from db.paper import PaperRecord

SPACE = ("galaxy telescope stellar nebula supernova orbit comet exoplanet spectroscopy redshift quasar pulsar "
         "cosmic asteroid luminosity").split()
KITCHEN = ("flour dough oven yeast recipe butter sourdough pastry baking caramel whisk kneading custard "
           "croissant sugar").split()
COMMON = "we study present new results show method approach data analysis model using propose".split()

# the conference map's three toy topics (twelve words each)
MAP_TOPICS = {
    "space": "galaxy telescope stellar nebula supernova orbit comet exoplanet spectroscopy redshift quasar pulsar",
    "kitchen": "flour dough oven yeast recipe butter sourdough pastry baking caramel whisk kneading custard",
    "music": "melody chord rhythm harmony violin symphony tempo orchestra piano sonata cadence rhapsody",
}


def topic_abstract(rng: random.Random, words: list[str]) -> str:
    """Four sentences, each four of the topic's `words` and three common ones, shuffled."""
    sentences = []
    for _ in range(4):
        chosen = rng.sample(words, 4) + rng.sample(COMMON, 3)
        rng.shuffle(chosen)
        sentences.append(" ".join(chosen).capitalize() + ".")
    return " ".join(sentences)


def two_topics(count: int = 14) -> list[PaperRecord]:
    """`count` astronomy papers (titles "Space i"), then `count` baking papers ("Kitchen i")."""
    rng = random.Random(9)
    return ([PaperRecord(title=f"Space {i}", abstract=topic_abstract(rng, SPACE), venue="AST 2024", year=2024)
             for i in range(count)]
            + [PaperRecord(title=f"Kitchen {i}", abstract=topic_abstract(rng, KITCHEN), venue="BAK 2024", year=2024)
               for i in range(count)])


def map_topics(count: int, seed: int = 17, start: int = 0) -> list[PaperRecord]:
    """`count` papers on each of MAP_TOPICS (titles "space i", "kitchen i", "music i"; venue TOY 2026)."""
    rng = random.Random(seed)
    return [PaperRecord(title=f"{topic} {i}", abstract=topic_abstract(rng, words.split()), venue="TOY 2026",
                        year=2026)
            for topic, words in MAP_TOPICS.items() for i in range(start, start + count)]
