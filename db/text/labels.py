"""Readable labels for papers that have no title (the seed corpus has none): a headline that says what the
paper contributes.

Where the abstract introduces a method or benchmark by name (`we propose X, a …`, `we introduce X (Long Name)`,
`by introducing X`, `**X**`, `our X models`), the label is `X: what X is or does`, taken from the sentence that
introduces it. Otherwise it is the sentence where the authors say what they contribute (`We propose…`,
`We prove…`, `We show that…`, `This paper presents…`), from its subject on, so an opening sentence of
background (`X has emerged as…`, `The rapid advancement of…`) is never the label. At most `MAX_LABEL`
characters, cut at a space (never inside a word) and never ending on a stop word, with an ellipsis when cut.

The label is stored with the paper (`papers.label`); `LABEL_RULE` numbers these rules, and a library whose labels
were made under another number derives them again when it is opened (Library.keep_labels_current).
"""

from __future__ import annotations

import re
from functools import lru_cache

from db.text.abstract_markup import abstract_to_plain
from db.text.cleaning import MAX_TITLE, strip_bidi

LABEL_RULE = 2  # bump whenever derive_label's output changes: libraries then relabel their untitled papers
_TEX_MARKS = ("$", "\\", "{", "*", "``", "''", "--", "~")
MAX_LABEL = 90
LABEL_SOURCE_CHARS = 4000  # the name and first sentence are near the start; a 10 MB "abstract" stays cheap
_NAME = r"[A-Z][\w\-]*(?:[A-Z0-9][\w\-]*)?"
# A name: starts upper-case and has a second capital or a digit somewhere (CFlower, SpatioLM, GPT-4, PolyNeXt).
_NAME_TOKEN = re.compile(r"^(?=[^\s]*[A-Z0-9][^\s]*[A-Z0-9]|[A-Z][a-z]+[A-Z])[A-Za-z][\w\-+]*[\w+]$")
_INTRO_VERBS = (r"(?:propose|introduce|present|develop|design|build|release|call|term|name|dub|contribute|curate"
                r"|construct)")
_INTRO = re.compile(
    r"\b(?:(?:we|this paper|this work|the paper)\s+(?:also\s+|then\s+|further\s+|first\s+)?" + _INTRO_VERBS +
    r"s?d?|by\s+(?:introducing|proposing|presenting|developing))\b([^.;:]{0,160})",
    re.IGNORECASE,
)
# `we introduce Polaris, a polar …`, `This paper introduces Regret Pre-training, a self-supervised framework`,
# `We present KernelCraft: the first benchmark`: capitalised words right after the verb, then `, a` / `: the`.
_APPOSITIVE = re.compile(
    r"\b(?i:we|this paper|this work)\s+(?:[a-z]+ly\s+)?(?i:" + _INTRO_VERBS + r"|establish)(?:s|es|d)?\s+"
    r"(?P<name>(?:[A-Z][\w\-+]*\s+){0,3}[A-Z][\w\-+]*)\s*(?:\([^)]*\)\s*)?[,:]\s+(?P<rest>(?:a|an|the)\s.*)")
_OUR = re.compile(r"\bour\s+(?:new\s+|proposed\s+)?([A-Z][\w\-+]*)\b")
_CALLED = re.compile(r"\b(?:called|named|dubbed|termed)\s+((?:[A-Z][\w\-+]*\s+){0,2}[A-Z][\w\-+]*)")
_PAREN_NAME = re.compile(r"\(([A-Z][\w\-+]*[A-Z0-9][\w\-+]*)\)")
_BOLD = re.compile(r"\*\*([^*]{2,40})\*\*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"“])")
_GENERIC = {"LLM", "LLMs", "AI", "ML", "RL", "GPU", "GPUs", "VLM", "VLMs", "SOTA", "CNN", "CNNs", "GNN", "GNNs",
            "MLLMs", "MLLM", "NLP", "CoT", "SFT", "II", "III", "IV", "LoRA", "API", "APIs", "3D", "2D", "GAN", "GANs",
            "VAE", "VAEs", "RNN", "RNNs", "LSTM", "LSTMs", "MDP", "MDPs", "POMDP", "POMDPs", "SGD", "PCA", "MCMC",
            "DNN", "DNNs", "MLP", "NN", "NNs", "SVM", "SVMs", "ReLU", "CPU", "CPUs", "KL", "MAP", "MLE", "EM"}
# The verbs of a contribution statement, strongest first: what the paper brings (1), what it finds or proves (2),
# what it does on the way (3). The label is the earliest sentence of the strongest kind.
_CONTRIBUTION_TIERS = (
    ("propose", "introduce", "present", "contribute", "release"),
    ("study", "prove", "show", "demonstrate", "establish", "quantify", "find", "investigate", "analyze", "analyse",
     "formalize", "identify", "explore", "characterize", "reveal"),
    ("address", "tackle", "derive", "provide", "conduct", "observe", "consider", "examine", "develop", "design",
     "build", "construct", "improve", "evaluate", "revisit", "leverage", "extend", "train", "offer"),
)


def _third_person(verb: str) -> str:
    return verb[:-1] + "ies" if verb.endswith("y") else verb + ("es" if verb.endswith(("s", "sh")) else "s")


_TIER_OF = {form: tier for tier, verbs in enumerate(_CONTRIBUTION_TIERS) for verb in verbs
            for form in (verb, _third_person(verb))}
_CONTRIBUTION = re.compile(  # the verb in a lookahead, so `this paper we propose` is seen at `we` too
    r"\b(?:we|this (?:paper|work|study|article))\s+(?=(?:[a-z]+ly\s+|also\s+|then\s+|further\s+|first\s+|"
    r"here\s+)?([a-z]+)\b)", re.IGNORECASE)
# Without a `we …` sentence: `A sampling-based method … is proposed`, `In this paper, …`, `Our results show …`.
_PASSIVE_CONTRIBUTION = re.compile(
    r"\b(?:(?:is|are) (?:proposed|presented|introduced|developed|derived|shown|proved)|this (?:paper|work)|"
    r"our (?:method|approach|model|algorithm|framework|results?|analysis|experiments?)|here)\b", re.IGNORECASE)
STOP_WORDS = frozenset(
    "a an the of for to in on at by with via from and or nor but as than that which who whom whose what is are was "
    "were be been being it its their our we this these those into onto over under between across through while "
    "when where whether if so such both either each using based upon without within toward towards per vs".split())
_TRIM = " ,;:–—-(“\"'"


def display_label(paper) -> str:
    """What the list row shows for a `db.paper.Paper`: its label, with a title's TeX as plain Unicode
    (`Variational Inference via $\\chi$ Upper Bound` → `… via χ Upper Bound`, `$L^2$` → `L²`). A derived label
    is plain text already. Bidirectional controls are removed (db.text.cleaning.strip_bidi) and a label longer
    than a title may be (one stored by an older Margin) is cut with "…", so a row never lays out megabytes."""
    label = strip_bidi(paper.label)
    if len(label) > MAX_TITLE:
        label = label[:MAX_TITLE] + "…"
    return label if paper.title is None else title_plain(label)


@lru_cache(maxsize=8192)
def title_plain(title: str) -> str:
    """A title (from a file or the user) as plain Unicode: math, TeX accents and quotes converted."""
    if not any(mark in title for mark in _TEX_MARKS):
        return title
    return " ".join(abstract_to_plain(title).split())


def is_name(word: str) -> bool:
    """True when `word` looks like a coined method name: CFlower, SpatioLM, GLEAN, PolyNeXt, GPT-4."""
    return (
        bool(_NAME_TOKEN.match(word))
        and word not in _GENERIC
        and not re.fullmatch(r"[A-Z]{1,5}s", word)  # plural acronyms (SLMs, MLPs) name a kind, not a method
        and len(word) > 2
    )


def find_method_name(plain: str) -> str | None:
    """Return the name of the method or benchmark that abstract `plain` (plain text) introduces, or None."""
    for match in _INTRO.finditer(plain):
        paren = _PAREN_NAME.search(match.group(1))
        if paren and is_name(paren.group(1)):
            return paren.group(1)
        words = re.findall(r"[A-Za-z][\w\-+]*", match.group(1))
        for word in words[:12]:
            if is_name(word):
                return word
    for match in _CALLED.finditer(plain):
        words = match.group(1).split()
        if len(words) > 1 or is_name(words[0]):  # `named Chekhov GAN`: a name of several words
            return match.group(1)
    for match in _OUR.finditer(plain):
        if is_name(match.group(1)):
            return match.group(1)
    return None


def _bold_name(abstract: str) -> str | None:
    for match in _BOLD.finditer(abstract):
        candidate = match.group(1).strip()
        if is_name(candidate):
            return candidate
    return None


def sentences(plain: str) -> list[str]:
    """Split plain text into sentences (a simple rule: end punctuation, space, then a capital)."""
    return [s.strip() for s in _SENTENCE_END.split(plain) if s.strip()]


def shorten(text: str, limit: int) -> str:
    """`text` in at most `limit` characters: whole when it fits, else cut at a space (never inside a word), with
    trailing stop words, punctuation and an unclosed parenthesis dropped, ending in `…`."""
    text = text.strip().rstrip(".")
    if len(text) <= limit:
        return text
    space = text.rfind(" ", 0, limit)  # the cut keeps the words before this space, and the "…" still fits
    words = (text[:space] if space > 0 else text[: limit - 1]).split(" ")
    while len(words) > 1:
        joined = " ".join(words)
        if joined.count("(") > joined.count(")"):  # a parenthesis opened and not closed: cut before it
            words.pop()
            continue
        last = words[-1].strip(_TRIM)
        if last and last.casefold() not in STOP_WORDS:
            break
        words.pop()
    return " ".join(words).rstrip(_TRIM) + "…"


def _headline_after_name(sentence: str, name: str) -> str:
    """The part of the sentence that says what the named thing is, e.g. `…, a conservative SubTB objective`."""
    index = sentence.find(name)
    rest = sentence[index + len(name) :] if index >= 0 else sentence
    rest = re.sub(r"^[\s)]*(?:\([^)]*\))?[\s,:—–-]*", "", rest)
    rest = re.sub(r"^(?:(?:which|that)\s+)?(?:introduces|is|provides|presents|offers|proposes)\s+", "", rest)
    return _without_article(rest)


def _without_article(text: str) -> str:
    """`a novel framework that …` → `framework that …`."""
    text = re.sub(r"^(?:which|that|a|an|the)\s+", "", text, flags=re.IGNORECASE)
    return re.sub(r"^novel\s+", "", text, flags=re.IGNORECASE)


def _paren_detail(intro: str, name: str) -> str | None:
    """For `we propose sum-of-squares (SOS) hierarchies for computing …`: the long form and what follows it
    (`sum-of-squares hierarchies for computing …`), or, when a relative clause follows (`(MA-GIG), which
    constructs …`), that clause's verb phrase. None when the parenthesis is far from the verb (then it names
    something the paper uses, not what it proposes: `… grounded in the Learning Using … (LUPI) paradigm`)."""
    before, _, after = intro.partition(f"({name})")
    long_form = _without_article(before.strip())
    if "," in long_form or len(long_form.split()) > 8:
        return None
    after = after.lstrip(" ,")
    if re.match(r"(?:which|that)\s", after):
        return _headline_after_name(after, "")
    return f"{long_form} {after}".strip() if long_form else after


def named_headline(plain: str, abstract: str = "") -> tuple[str, str] | None:
    """(name, what it is or does) for the method or benchmark that abstract `plain` introduces, or None."""
    match = _APPOSITIVE.search(plain)
    if match and match.group("name") not in ("A", "An", "The", "We") and len(match.group("name")) <= 40:
        rest = re.split(r"(?<=[.!?])\s+(?=[A-Z])", match.group("rest"), maxsplit=1)[0]
        return match.group("name"), _without_article(rest)
    for match in _INTRO.finditer(plain):
        paren = _PAREN_NAME.search(match.group(1))
        if paren and is_name(paren.group(1)):
            detail = _paren_detail(match.group(1), paren.group(1))
            if detail is not None:
                sentence_rest = plain[match.start(1):].split(". ")[0]
                return paren.group(1), _paren_detail(sentence_rest, paren.group(1)) or detail
        words = re.findall(r"[A-Za-z][\w\-+]*", match.group(1))
        for word in words[:12]:
            if is_name(word):
                return word, _detail_from_sentence(plain, word)
    name = find_method_name(plain) or _bold_name(abstract)
    return (name, _detail_from_sentence(plain, name)) if name else None


def _detail_from_sentence(plain: str, name: str) -> str:
    all_sentences = sentences(plain) or [plain]
    sentence = next((s for s in all_sentences if name in s), all_sentences[0])
    detail = _headline_after_name(sentence, name)
    if re.match(r"(?:to|for|on|in|with|via|by|from|of|at)\s", detail):
        # `a tensor decomposition based framework KBTD to approximate …`: what the name is, said before it
        before = re.sub(r"\s*(?:named|called|dubbed|termed)?\s*$", "", sentence[: max(sentence.find(name), 0)])
        phrase = re.search(r"\b(?:a|an|the)\s+([^,;:()]+)$", before, re.IGNORECASE)
        if phrase:
            detail = f"{_without_article(phrase.group(1))} {detail}"
    return detail


def contribution_headline(plain: str) -> str | None:
    """The sentence where the authors say what they contribute (`We prove …`, `This paper presents …`), from its
    subject on; the earliest one of the strongest kind (_CONTRIBUTION_TIERS). None when there is none."""
    best: tuple[int, int, str] | None = None
    for index, sentence in enumerate(sentences(plain)):
        for match in _CONTRIBUTION.finditer(sentence):
            tier = _TIER_OF.get(match.group(1).lower())
            if tier is not None and (best is None or (tier, index) < best[:2]):
                clause = sentence[match.start():]
                best = (tier, index, clause[0].upper() + clause[1:])
                break
    return best[2] if best else None


def derive_label(abstract: str, limit: int = MAX_LABEL) -> str:
    """Return a readable label (≤ `limit` characters) for a paper with this abstract and no title (module doc)."""
    plain = " ".join(abstract_to_plain(abstract[:LABEL_SOURCE_CHARS]).split())
    named = named_headline(plain, abstract)
    if named:
        name, detail = named
        if len(detail.split()) >= 3:
            return shorten(f"{name}: {detail[0].upper()}{detail[1:]}", limit)
    contribution = contribution_headline(plain)
    if named:
        return shorten(f"{named[0]}: {contribution}" if contribution else named[0], limit)
    if contribution:
        return shorten(contribution, limit)
    all_sentences = sentences(plain) or [plain]
    said = next((s for s in all_sentences if _PASSIVE_CONTRIBUTION.search(s)), all_sentences[0])
    return shorten(said, limit)
