"""DBLP, PMLR and the ACL Anthology against the replay server (tests/data/fetch): the record count of each
recording, the fields mapped exactly, a malformed answer as one line with nothing changed, a second fetch that
changes nothing."""

from __future__ import annotations

import pytest

from db.fetch.job import FetchRequest, fetch_records
from tests.helpers.fetching import (
    JSON,
    queue_acl,
    queue_dblp,
    queue_pmlr,
)
from tests.helpers.runner import margin


def test_dblp_table_of_contents_maps_every_field(server):
    queue_dblp(server)
    [record] = fetch_records(FetchRequest("dblp", "conf/ats/2005"))
    assert record.title == ("A Test Cost Reduction Method by Test Response and Test Vector Overlapping for "
                            "Full-Scan Test Architecture")  # DBLP's closing period removed
    assert record.authors == ["Tsuyoshi Shinogi", "Hiroyuki Yamada", "Terumine Hayashi", "Shinji Tsuruoka",
                              "Tomohiro Yoshikawa"]
    assert (record.venue, record.year, record.doi) == ("Asian Test Symposium 2005", 2005, "10.1109/ATS.2005.17")
    assert record.url == "https://doi.org/10.1109/ATS.2005.17"
    assert record.extra == {"type": "inproceedings", "pages": "366–371",  # the page range with an en dash
                            "dblp": "https://dblp.org/rec/conf/ats/ShinogiYHTY05"}
    assert record.abstract == ""


def test_dblp_short_form_names_the_toc():
    from db.fetch.dblp import toc_key

    assert toc_key("conf/iclr/2024") == "db/conf/iclr/iclr2024.bht"
    assert toc_key("db/journals/jmlr/jmlr25.bht") == "db/journals/jmlr/jmlr25.bht"


def test_pmlr_volume_maps_every_field(server):
    queue_pmlr(server)
    records = fetch_records(FetchRequest("pmlr", "v229"))
    assert len(records) == 6  # the recording's papers (its @Proceedings is the venue, not a paper)
    first = records[0]
    assert first.title == "Expansive Latent Planning for Sparse Reward Offline Reinforcement Learning"
    assert first.authors == ["Robert Gieselmann", "Florian T. Pokorny"]
    assert (first.venue, first.year) == ("CoRL 2023", 2023)
    assert first.abstract.startswith("Sampling-based motion planning algorithms excel at searching global")
    assert first.openreview_id == "xQx1O7WXSA"
    assert first.url == "https://proceedings.mlr.press/v229/gieselmann23.html"
    assert first.extra["pdf"] == "https://proceedings.mlr.press/v229/gieselmann23/gieselmann23.pdf"
    assert first.extra["presentation"] == "oral" and first.extra["pages"] == "1–22"


def test_acl_volume_maps_every_field(server):
    queue_acl(server)
    records = fetch_records(FetchRequest("acl", "https://aclanthology.org/volumes/2023.acl-long/"))
    assert len(records) == 4
    hype, mm_shap, came, im_tqa = records
    assert hype.title == "HyPe: Better Pre-trained Language Model Fine-tuning with Hidden Representation Perturbation"
    assert hype.authors == ["Hongyi Yuan", "Zheng Yuan", "Chuanqi Tan", "Fei Huang", "Songfang Huang"]
    assert hype.venue == ("Proceedings of the 61st Annual Meeting of the Association for Computational Linguistics "
                          "(Volume 1: Long Papers)")
    assert hype.year == 2023 and hype.url == "https://aclanthology.org/2023.acl-long.182"
    assert hype.extra["pdf"] == "https://aclanthology.org/2023.acl-long.182.pdf"
    assert hype.abstract.startswith("Language models with the Transformers structure have shown great performance")
    assert mm_shap.doi == "10.18653/v1/2023.acl-long.223" and mm_shap.title.endswith("Models & Tasks")
    assert came.authors[-1] == "Yang You"
    assert im_tqa.abstract == "" and im_tqa.title.startswith("IM-TQA: A Chinese Table")


@pytest.mark.parametrize(("source", "target", "path"), [
    ("pmlr", "229", "/pmlr/v229/assets/bib/bibliography.bib"),
    ("acl", "2023.acl-long", "/acl/volumes/2023.acl-long.bib"),
    ("dblp", "conf/ats/2005", "/dblp/search/publ/api"),
])
def test_a_malformed_volume_is_one_line_and_changes_nothing(server, tmp_path, source, target, path):
    server.add(path, "<!DOCTYPE html><html><title>dblp: too many requests</title></html>", content_type=JSON)
    code, out, err = margin("fetch", source, target, library=tmp_path / "lib")
    assert (code, out) == (1, "")
    assert err.startswith(f"margin: {source}: a malformed answer from 127.0.0.1:") and err.count("\n") == 1
    assert not (tmp_path / "lib" / "library.db").exists()


def test_fetching_a_volume_twice_changes_nothing(server, tmp_path):
    queue_pmlr(server)
    queue_acl(server)
    library = tmp_path / "lib"
    assert margin("fetch", "pmlr", "229", library=library).stdout.startswith("6 new, 0 updated")
    assert margin("fetch", "acl", "2023.acl-long", library=library).stdout.startswith("4 new, 0 updated")
    again = margin("fetch", "pmlr", "229", library=library, env={"MARGIN_FETCH_CACHE": str(tmp_path / "c2")})
    assert again.stdout.startswith("0 new, 0 updated, 6 unchanged"), again
    assert len(margin("list", "decision:oral", "--json", library=library).stdout.split('"id"')) - 1 == 6
