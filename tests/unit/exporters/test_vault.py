"""The Markdown folder as an Obsidian vault (issue 30): file names Obsidian links accept, valid Obsidian tags, the
citation key in the front matter, and db.vault rewriting only the files of the papers a change touched."""

from __future__ import annotations

import yaml

from db.exporters.markdown import obsidian_tag
from db.library.library import Library
from db.vault import ALL, Vault
from tests.helpers.records import paper_record


def meta(path):
    return yaml.safe_load(path.read_text(encoding="utf-8").removeprefix("---\n").partition("\n---\n")[0])


def files(folder):
    return {path.name: path.read_text(encoding="utf-8") for path in folder.iterdir()}


def test_obsidian_tags():
    assert [obsidian_tag(tag) for tag in ("to read", "a, b", "ml/theory", "1984", "中文 标签", "🎉", "C++",
                                          'say "hi"', "x%y", "नमस्ते")] == [
        "to-read", "a-b", "ml/theory", "_1984", "中文-标签", None, "C", "say-hi", "x-y", "नमस्ते"]


def test_the_vault_rewrites_only_what_changed(tmp_path):
    folder = tmp_path / "vault"
    with Library.open(tmp_path / "lib", seed=False) as library:
        ids = library.import_records([paper_record(title=f"Paper [{i}] #{i}", authors=["Ann Smith"], year=2020)
                                      for i in range(3)] + [paper_record(title="Other", year=2021)]).new
        for paper_id in ids[:3]:
            library.set_rating(paper_id, 3)
        vault = Vault(library, folder)  # the annotated papers
        assert vault.write_all() == 3
        before = files(folder)
        assert all("[" not in name and "#" not in name for name in before)
        first = folder / next(name for name in before if ids[0] in name)
        assert meta(first)["citekey"].startswith("smith2020") and meta(first)["tags"] == []

        seq = library.last_change()
        library.add_tags(ids[1], ["to read", "a, b"])
        changes, seq = library.changes_since(seq)
        assert vault.update(changes) == ([ids[1]], [])
        after = files(folder)
        assert [name for name in after if after[name] != before.get(name)] == [
            name for name in after if ids[1] in name]
        second = folder / next(name for name in after if ids[1] in name)
        assert meta(second)["tags"] == ["a-b", "to-read"] and meta(second)["margin_tags"] == ["a, b", "to read"]

        library.set_note(ids[3], "now annotated")  # enters the vault
        changes, seq = library.changes_since(seq)
        assert vault.update(changes) == ([ids[3]], [])
        library.delete_papers([ids[2]])
        changes, seq = library.changes_since(seq)
        written, removed = vault.update(changes)  # the others are rewritten only when their keys moved
        assert removed == [ids[2]] and set(written) <= {ids[0], ids[1]}
        assert sorted(name.rsplit(" (", 1)[1] for name in files(folder)) == sorted(
            f"{paper_id}).md" for paper_id in (ids[0], ids[1], ids[3]))


def test_a_new_paper_with_the_same_key_stem_rewrites_the_one_whose_key_moved(tmp_path):
    folder = tmp_path / "vault"
    with Library.open(tmp_path / "lib", seed=False) as library:
        first = library.import_records([paper_record(title="B", authors=["Ann Smith"], year=2020,
                                                     abstract="zzz second in id order?")]).new[0]
        vault = Vault(library, folder, ALL)
        vault.write_all()
        seq = library.last_change()
        report = library.import_records([paper_record(title="A", authors=["Ann Smith"], year=2020,
                                                      abstract="another abstract")])
        changes, seq = library.changes_since(seq)
        written, _removed = vault.update(changes)
        keys = {paper_id: meta(next(folder.glob(f"* ({paper_id}).md")))["citekey"]
                for paper_id in (first, report.new[0])}
        assert sorted(keys.values()) == ["smith2020", "smith2020a"]
        assert set(written) == ({first, report.new[0]} if keys[first] == "smith2020a" else {report.new[0]})
