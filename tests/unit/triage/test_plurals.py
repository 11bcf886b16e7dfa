"""Counts of one read in the singular on the command line (`margin progress`): "1 unseen paper", not "1 unseen
papers" — the trial's "1 unseen papers were added"."""

from __future__ import annotations

import re

from db.cli.triage import progress_lines
from db.triage.progress import Estimate, Progress, Stop, suggestion

ONE_PLURAL = re.compile(r"\b1 (?:[a-z-]+ ){0,2}(?:papers|ratings)\b")


def one_of_everything(with_estimate: bool = True) -> Progress:
    estimate = Estimate(remaining=1, low=0, high=3, level=0.95, population=1, drawn=1, rated=1, liked=1,
                        not_covered=1, halve=1, upper=3)
    return Progress(scope="", total=40, screened=10, found=1, curve=[1] * 10, random_line=0.1,
                    estimate=estimate if with_estimate else None, check_to_rate=["abc"], knee_stop=False,
                    stop=Stop(0.95, 0.5, False, more_liked=1, more_ratings=1), unseen=30)


def test_the_progress_lines_count_one_in_the_singular():
    result = one_of_everything()
    result.suggestion = suggestion(result)
    text = "\n".join(progress_lines(result))
    assert not ONE_PLURAL.findall(text), text
    assert "1 unseen paper added" in text and "1 more check rating would" in text and "1 paper to rate" in text
    assert "find 1 more liked paper or rate about 1 more check paper." in text


def test_the_suggestion_without_an_estimate_counts_one_in_the_singular():
    assert suggestion(one_of_everything(with_estimate=False)).startswith("Rate 1 more paper of the check")
