from db.corpus import bundled_corpus_files, parse_seed_text
from db.labels import MAX_LABEL, derive_label, shorten


def corpus_labels():
    records = [r for f in bundled_corpus_files() for r in parse_seed_text(f.read_text(encoding="utf-8"), f)]
    return {r.id: derive_label(r.abstract) for r in records}


def test_method_names_lead_the_label():
    labels = corpus_labels()
    assert labels["3b32771a6bb5"].startswith("CFlower: ")
    assert labels["c9c83c252bec"].startswith("SpatioLM: ")
    assert labels["6ac65bf33b7e"].startswith("GLEAN: ")
    assert labels["817e32bc7000"].startswith("MA-GIG: ")


def test_labels_are_short_and_cut_at_words():
    for label in corpus_labels().values():
        assert 10 <= len(label) <= MAX_LABEL
        assert "$" not in label and "\\" not in label and "**" not in label
        if label.endswith("…"):
            assert not label[-2].isspace()


def test_headline_without_a_name_uses_first_sentence():
    label = derive_label("We study a multi-factor block model for clustering. It works well.")
    assert label == "We study a multi-factor block model for clustering"


def test_shorten_cuts_at_word_boundary():
    assert shorten("alpha beta gamma delta", 12) == "alpha beta…"
