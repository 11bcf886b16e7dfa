"""Labels of untitled papers: a headline that names the method or states the contribution (issue 14, item 2)."""

import json
import re

from db.changes import BIBLIOGRAPHIC, TITLE
from db.formats.corpus import bundled_corpus_files, parse_seed_text
from db.library.importing import LABEL_RULE_FILE
from db.library.library import Library
from db.library.store import log_change
from db.text.labels import LABEL_RULE, MAX_LABEL, _third_person, derive_label, shorten

# All 38 labels of the bundled corpus, as a reader sees them in the list.
EXPECTED = {
    "9342e12f8e8d": "We prove lower bounds on the CoT tokens required for three canonical BAPO-hard tasks…",
    "3b32771a6bb5": "CFlower: Conservative SubTB objective that explicitly penalizes unsupported forward flow…",
    "41b899d3ea75": "We study a multi-factor block model for variable clustering and connect it to regularized…",
    "72fc2142891d": "ReVSI: Benchmark and protocol that ensures each QA pair is answerable and correct…",
    "5fb4a7a3f3e7": "PolyNeXt: Models match or exceed activation-based counterparts across model scales…",
    "ab195cd59607": "GP-EquiFlow: SE(3)-equivariant flow matching model incorporating vector-valued Gaussian…",
    "87c98c27358b": "Polaris: Polar hyperspherical embedding framework that separates semanticity…",
    "57db8eb0c526": "LU-KV: Framework that formulates head-level budget allocation as a global combinatorial…",
    "24d03decdb73": "We propose complete expert partition for post-training and threshold-based token-expert…",
    "6ac65bf33b7e": "GLEAN: Agent verification framework with GuideLine-grounded Evidence AccumulatioN…",
    "a86e7466c3c3": "We conduct over 4,000 controlled experiments systematically ablating architectural…",
    "ddf790b7fa5c": "We introduce pretraining tasks that predict the rate of evolution",
    "e0d646987315": "Regret Pre-training: Self-supervised framework grounded in the Learning Using Privileged…",
    "342601c989bf": "ExVerus: Counterexample-guided framework that enables LLMs to reason about proofs…",
    "b40a6fb7b66f": "We propose a geometric framework that enforces invariance by construction",
    "efdd6de7b946": "HELIX: Assigns each feature a learnable feature identity, a persistent embedding…",
    "817e32bc7000": "MA-GIG: Constructs attribution paths in the latent space of a pre-trained variational…",
    "f39cf8393111": "We study the problem of verifying whether certain properties such as robustness…",
    "c6eeccf5cfa6": "We propose a bi-level adversarial training framework",
    "c9c83c252bec": "SpatioLM: Enhances spatial intelligence without extra 3D prior inputs or third-party…",
    "456007ad4731": "SOS: Sum-of-squares hierarchies for computing ex-ante optimal strategies in single-player…",
    "cab511b76cb2": "MoMST: Framework for Multi-objective protein design via Memory-aware Self-contrastive…",
    "f0d452ce0fe0": "KernelCraft: First benchmark for evaluating an LLM agent's ability to generate…",
    "8957d1122135": "We quantify how depth affects loss via analysis of LLMs and toy residual networks",
    "2a9260ed313f": "FG-TTL: Future-Gain Guided Test-Time Learning for LLMs, which learns selectively…",
    "0c3327d98ed5": "Selective Deferred Routing: Paradigm that enables cost-efficient collaboration…",
    "23aabebb9451": "LoRA-MCL: Training scheme that extends next-token prediction in language models…",
    "0b67b21adc85": "We introduce patterning as the dual problem: given a desired form of generalization…",
    "dffabd632022": "MSRL: Multiview self-representation learning method in which invariant representations…",
    "3bcfdfda934e": "We introduce two conformal methods based on geometric quantiles and spatial ranks…",
    "9be793204724": "We introduce distribution-level unsupervised feature discovery, which clusters sampled…",
    "48880fd329b5": "We propose a simple bias-reduced evaluation protocol that replaces the labels…",
    "134fcf0b0af4": "FasterVAR: Systematic study and plug-and-play acceleration framework for VAR models",
    "cecc35f3de18": "MLCI: Maps diagnosis codes to a single scalar by maximizing the normalized…",
    "87443bc95909": "We propose a novel algorithm that accelerates optimal transport by exploiting intrinsic…",
    "8fc82f4b637c": "This paper presents the first theoretical analysis of the training dynamics…",
    "0c458279ac05": "We propose augmenting the CP score function with a term that penalizes predictions…",
    "adb39bf28065": "CCLRec: Consensus-driven contrastive learning framework for recommendation",
}
# Written out here, not imported: a stop word missing from db.text.labels' list must still fail this test.
STOP = set("a an the of for to in on at by with via from and or but as than that which who is are was be been it "
           "its their our we this these those into over under between across through while when where whether "
           "if so such both each using upon without within".split())
BACKGROUND = re.compile(r"has emerged as|have emerged as|^the rapid advancement|is a major driver|^recent advances"
                        r"|^current evaluations|has gained significant attention|aims to understand|^as large language"
                        r"|is often organized as|^(?:large language models|mixture of experts|conformal prediction)",
                        re.IGNORECASE)
CONTRIBUTION = re.compile(
    r"^(?:We (?:propose|introduce|present|prove|show|study|quantify|conduct)|This paper presents)\b")


def corpus_records():
    return [r for f in bundled_corpus_files() for r in parse_seed_text(f.read_text(encoding="utf-8"), f)]


def corpus_labels():
    return {r.id: derive_label(r.abstract) for r in corpus_records()}


def check_label(label: str, abstract: str) -> None:
    """The rules of a headline, on one label of `abstract`."""
    from db.text.abstract_markup import abstract_to_plain

    plain = " ".join(abstract_to_plain(abstract).split())
    assert 10 <= len(label) <= MAX_LABEL, label
    assert "$" not in label and "\\" not in label and "**" not in label, label
    assert not BACKGROUND.search(label), f"a background opener: {label}"
    name, colon, rest = label.partition(": ")
    named = bool(colon) and len(name) <= 40 and not name.startswith(("We ", "This "))
    if named:  # names the method: the name is in the abstract, and something is said about it
        assert name in plain and len(rest.split()) >= 3, label
    else:  # states the contribution, in the authors' words
        assert CONTRIBUTION.match(label), f"neither a method's name nor a contribution: {label}"
    # cut at a word, never on a stop word: the full headline goes on after a space exactly where this one stops
    full = derive_label(abstract, limit=100_000)
    shown = label.removesuffix("…")
    assert full.startswith(shown), (label, full)
    if label.endswith("…"):
        assert full[len(shown)] in " ,;:", f"cut inside a word: {label!r} (full: {full[len(shown) - 10:][:40]!r})"
        assert shown.split()[-1].strip(",;:").casefold() not in STOP, f"ends on a stop word: {label}"


def test_all_38_labels_of_the_bundled_corpus():
    labels = corpus_labels()
    assert labels == EXPECTED


def test_each_of_the_38_labels_names_the_method_or_states_the_contribution():
    records = corpus_records()
    assert len(records) == 38
    for record in records:
        check_label(derive_label(record.abstract), record.abstract)


def test_the_rules_catch_a_bad_label():
    abstract = ("Mixture of Experts (MoE) has emerged as a mainstream architecture for Large Language Models. "
                "We propose complete expert partition for post-training and threshold-based token-expert dropping "
                "for inference.")
    for bad in ("Mixture of Experts (MoE) has emerged as a mainstream architecture for Large Language…",
                "We propose complete expert partition for post-training and threshold-based token-exp…",
                "We propose complete expert partition for post-training and threshold-based token-expert for…"):
        try:
            check_label(bad, abstract)
        except AssertionError:
            continue
        raise AssertionError(f"accepted: {bad}")


def test_headline_without_a_name_is_the_contribution_sentence():
    label = derive_label("Clustering is a classic problem with many uses. We study a multi-factor block model for "
                         "clustering. It works well.")
    assert label == "We study a multi-factor block model for clustering"


def test_name_with_its_long_form_and_appositive():
    assert derive_label("Background here. We propose sum-of-squares (SOS) hierarchies for computing strategies in "
                        "games. More.") == "SOS: Sum-of-squares hierarchies for computing strategies in games"
    assert derive_label("Background here. We introduce Polaris, a polar embedding framework that separates "
                        "meaning from structure. More.") == \
        "Polaris: Polar embedding framework that separates meaning from structure"


def test_shorten_cuts_at_a_word_and_drops_trailing_stop_words():
    assert shorten("alpha beta gamma delta", 12) == "alpha beta…"
    assert shorten("alpha beta of gamma", 15) == "alpha beta…"
    assert shorten("alpha beta (gamma delta) epsilon", 20) == "alpha beta…"
    assert shorten("alphabet soup", 12) == "alphabet…"


# ---------------------------------------------------------------- an existing library follows a new rule


def test_opening_a_library_relabels_papers_labelled_under_an_older_rule(library_dir):
    with Library.open(library_dir) as lib:
        assert lib.label_rule() == LABEL_RULE
        ids = lib.ids()
        titled = ids[1]
        lib.set_title(ids[2], "My own title")
        with lib.transaction() as conn:  # what the old rule stored (issue 14), and a paper with a file title
            conn.execute("UPDATE papers SET label = ? WHERE id = ?",
                         ("Mixture of Experts (MoE) has emerged as a mainstream architecture for Large Language…",
                          "24d03decdb73"))
            conn.execute("UPDATE papers SET label = 'Stale', title = 'A File Title' WHERE id = ?", (titled,))
            conn.execute("UPDATE papers SET label = 'Stale' WHERE id = ?", (ids[2],))
        last = lib.last_change()
    (library_dir / LABEL_RULE_FILE).write_text(json.dumps({"rule": LABEL_RULE - 1}), encoding="utf-8")

    with Library.open(library_dir) as lib:
        assert lib.paper("24d03decdb73").label == EXPECTED["24d03decdb73"]
        assert lib.paper(titled).label == "Stale"  # a paper with a title keeps it
        assert lib.paper(ids[2]).label == "My own title"  # the user's title still wins
        changes, _seq = lib.changes_since(last)
        assert set(changes.papers) == {"24d03decdb73", ids[2]}  # ids[2] has no file title: relabelled underneath
        assert changes.kinds == {TITLE}
        assert lib.label_rule() == LABEL_RULE
        after = lib.last_change()
    with Library.open(library_dir) as lib:  # once is enough: the rule is noted
        assert lib.last_change() == after


def test_a_lost_rule_note_costs_one_relabel_that_changes_nothing(library_dir):
    with Library.open(library_dir) as lib:
        last = lib.last_change()
    (library_dir / LABEL_RULE_FILE).unlink()
    with Library.open(library_dir) as lib:
        assert lib.last_change() == last
        assert lib.label_rule() == LABEL_RULE


def test_the_search_index_follows_a_relabel(library_dir):
    from db.search.index import ensure_index

    with Library.open(library_dir) as lib:
        index = ensure_index(lib)
        with lib.transaction() as conn:  # a label of an older rule, logged as the import that wrote it would be
            conn.execute("UPDATE papers SET label = 'Zanzibar' WHERE id = '24d03decdb73'")
            log_change(conn, lib.writer, [BIBLIOGRAPHIC], ["24d03decdb73"])
        index.sync(lib)
        assert index.search("title:zanzibar") == ["24d03decdb73"]
    (library_dir / LABEL_RULE_FILE).write_text("{}", encoding="utf-8")
    with Library.open(library_dir) as lib:
        index = ensure_index(lib)
        index.sync(lib)
        assert index.search("title:zanzibar") == []
        assert "24d03decdb73" in index.search('title:"expert partition"')


def test_a_library_that_cannot_be_written_still_opens_and_relabels_later(library_dir, monkeypatch):
    from db.errors import LibraryError
    from db.library import importing

    Library.open(library_dir).close()
    (library_dir / LABEL_RULE_FILE).write_text(json.dumps({"rule": LABEL_RULE - 1}), encoding="utf-8")

    def busy(self):
        raise LibraryError("library.db: the library is busy")

    with monkeypatch.context() as patch:
        patch.setattr(importing, "relabel", busy)
        with Library.open(library_dir) as lib:
            assert lib.count() == 38 and lib.label_rule() == LABEL_RULE - 1  # opened; the rule is not noted
    with Library.open(library_dir) as lib:
        assert lib.label_rule() == LABEL_RULE


def test_contribution_verbs_are_known_in_the_third_person_too():
    """"This paper studies / addresses / shows …": the sentence that says what a paper does is found by them."""
    assert [_third_person(verb) for verb in ("study", "address", "show", "establish", "quantify", "push")] == [
        "studies", "addresses", "shows", "establishes", "quantifies", "pushes"]
