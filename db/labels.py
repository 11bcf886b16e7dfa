"""Readable labels for papers that have no title (the seed corpus has none).

The label is built around the method's or benchmark's name where the abstract introduces one
(`we propose X`, `we introduce X, a …`, `**X**`, `X (Long Name)`, `our X models`), followed by a headline
from the sentence that introduces it; otherwise a headline from the first sentence. At most
`MAX_LABEL` characters, cut at a word boundary with an ellipsis.
"""

from __future__ import annotations

import re
from functools import lru_cache

from db.abstract_markup import abstract_to_plain

_TEX_MARKS = ("$", "\\", "{", "*", "``", "''", "--", "~")
MAX_LABEL = 90
LABEL_SOURCE_CHARS = 4000  # the name and first sentence are near the start; a 10 MB "abstract" stays cheap
_NAME = r"[A-Z][\w\-]*(?:[A-Z0-9][\w\-]*)?"
# A name: starts upper-case and has a second capital or a digit somewhere (CFlower, SpatioLM, GPT-4, PolyNeXt).
_NAME_TOKEN = re.compile(r"^(?=[^\s]*[A-Z0-9][^\s]*[A-Z0-9]|[A-Z][a-z]+[A-Z])[A-Za-z][\w\-+]*[\w+]$")
_INTRO = re.compile(
    r"\b(?:we|this paper|this work|the paper)\s+(?:also\s+|then\s+|further\s+|first\s+)?"
    r"(?:propose|introduce|present|develop|design|build|release|call|term|name|dub|contribute|curate|construct)s?d?\b"
    r"([^.;:]{0,160})",
    re.IGNORECASE,
)
_OUR = re.compile(r"\bour\s+(?:new\s+|proposed\s+)?([A-Z][\w\-+]*)\b")
_CALLED = re.compile(r"\b(?:called|named|dubbed|termed)\s+([A-Z][\w\-+]*)")
_PAREN_NAME = re.compile(r"\(([A-Z][\w\-+]*[A-Z0-9][\w\-+]*)\)")
_BOLD = re.compile(r"\*\*([^*]{2,40})\*\*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"“])")
_GENERIC = {"LLM", "LLMs", "AI", "ML", "RL", "GPU", "GPUs", "VLM", "VLMs", "SOTA", "CNN", "CNNs", "GNN", "GNNs",
            "MLLMs", "MLLM", "NLP", "CoT", "SFT", "II", "III", "IV", "LoRA", "API", "APIs", "3D", "2D"}


def display_label(paper) -> str:
    """What the list row shows for a `db.paper.Paper`: its label, with a title's TeX as plain Unicode
    (`Variational Inference via $\\chi$ Upper Bound` → `… via χ Upper Bound`, `$L^2$` → `L²`). A derived label
    is plain text already."""
    return paper.label if paper.title is None else title_plain(paper.label)


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
    for pattern in (_CALLED, _OUR):
        for match in pattern.finditer(plain):
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
    """Cut `text` at a word boundary so it is at most `limit` characters, ending in `…` when cut."""
    text = text.strip().rstrip(".")
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 3:
        cut = cut[:space]
    return cut.rstrip(" ,;:–—-(") + "…"


def _headline_after_name(sentence: str, name: str) -> str:
    """The part of the sentence that says what the named thing is, e.g. `…, a conservative SubTB objective`."""
    index = sentence.find(name)
    rest = sentence[index + len(name) :] if index >= 0 else sentence
    rest = re.sub(r"^[\s)]*(?:\([^)]*\))?[\s,:—–-]*", "", rest)
    rest = re.sub(r"^(?:(?:which|that)\s+)?(?:introduces|is|provides|presents|offers|proposes)\s+", "", rest)
    rest = re.sub(r"^(?:which|that|a|an|the)\s+", "", rest, flags=re.IGNORECASE)
    return rest


def derive_label(abstract: str, limit: int = MAX_LABEL) -> str:
    """Return a readable label (≤ `limit` characters) for a paper with this abstract and no title."""
    plain = abstract_to_plain(abstract[:LABEL_SOURCE_CHARS])
    all_sentences = sentences(plain) or [plain]
    name = find_method_name(plain) or _bold_name(abstract)
    if name:
        sentence = next((s for s in all_sentences if name in s), all_sentences[0])
        detail = _headline_after_name(sentence, name)
        if len(detail.split()) < 3:
            detail = all_sentences[0]
        detail = detail[0].upper() + detail[1:] if detail else detail
        return shorten(f"{name}: {detail}", limit)
    return shorten(all_sentences[0], limit)
