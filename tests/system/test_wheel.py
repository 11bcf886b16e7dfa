"""The wheel is what `pipx install .` installs: it must carry resources/ (corpus, translations, icons) and run.

`pip wheel .` builds it (build isolation: setuptools and PySide6, for pyside6-lrelease, come from the configured
index or pip's cache), it is installed, not editable, into a fresh virtual environment, and `margin list --json`
runs there on a new library. The fresh venv gets Margin's dependencies from the running interpreter's
site-packages through a folder of links that leaves Margin itself out (so nothing of the checkout is importable
there and no dependency is downloaded again); the wheel is installed with `--no-index --no-deps`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OWN = ("db", "desktop", "main.py", "margin_resources", "__editable__", "margin-", "__pycache__")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv with the wheel of this checkout installed; returns its bin folder."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "src"  # a copy, so the build leaves no build/ or *.egg-info in the checkout
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".venv", ".git", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".ruff_cache", "*.qm",
        "tests"))
    wheels = work / "wheels"
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(source)],
                           capture_output=True, text=True, timeout=900)
    if build.returncode:
        pytest.fail(f"pip wheel failed:\n{build.stdout}\n{build.stderr}")
    (wheel,) = wheels.glob("margin-*.whl")
    env_dir = work / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    fresh_python = env_dir / "bin" / "python"
    fresh_site = Path(subprocess.check_output(
        [str(fresh_python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True).strip())
    links = work / "dependencies"
    links.mkdir()
    for folder in {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}:
        for entry in Path(folder).iterdir():
            if entry.suffix == ".pth" or entry.name.startswith(OWN) or (links / entry.name).exists():
                continue
            (links / entry.name).symlink_to(entry)
    (fresh_site / "margin-dependencies.pth").write_text(f"{links}\n", encoding="utf-8")
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(fresh_python), "install", "-q",
                              "--no-index", "--no-deps", str(wheel)], capture_output=True, text=True, timeout=600)
    if install.returncode:
        pytest.fail(f"pip install failed:\n{install.stdout}\n{install.stderr}")
    return env_dir / "bin"


def _run(installed: Path, *args: str, cwd: Path, **extra: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "MARGIN_LIBRARY")}
    env.update(extra)
    env["QT_QPA_PLATFORM"] = "offscreen"
    return subprocess.run([str(installed / args[0]), *args[1:]], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=300)


@pytest.mark.slow
def test_installed_wheel_seeds_a_new_library_with_the_bundled_papers(installed, tmp_path):
    where = _run(installed, "python", "-c", "import db, desktop, db.system.resources as r; "
                 "print(db.__file__); print(r.CORPUS_DIR)", cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    module, corpus = where.stdout.split("\n")[:2]
    assert Path(module).is_relative_to(installed.parent), module  # the wheel's copy, not the checkout
    assert not Path(module).is_relative_to(ROOT)
    assert corpus.endswith("margin_resources/corpus")
    # the default library (the user data folder, here under the test's folder) is made and seeded on first use;
    # a folder named by --library is not (no library by accident, issue 31)
    listed = _run(installed, "margin", "list", "--json", cwd=tmp_path, XDG_DATA_HOME=str(tmp_path / "data"))
    assert listed.returncode == 0, listed.stderr
    assert (tmp_path / "data" / "Margin" / "library" / "library.db").is_file()
    papers = json.loads(listed.stdout)
    assert len(papers) == 38
    assert {paper["venue"] for paper in papers} == {"ICML 2026"}


@pytest.mark.slow
def test_installed_wheel_finds_the_chinese_translation_and_the_icon(installed, tmp_path):
    probe = ("from PySide6.QtCore import QCoreApplication, QLocale\n"
             "from PySide6.QtWidgets import QApplication\n"
             "from desktop.app import TRANSLATIONS, install_translation\n"
             "from db.system.resources import ICONS_DIR\n"
             "app = QApplication([])\n"
             "print((TRANSLATIONS / 'margin_zh_CN.qm').is_file(), (ICONS_DIR / 'margin.svg').is_file())\n"
             "print(install_translation(app, locale=QLocale('zh_CN')))\n"
             "print(QCoreApplication.translate('', '&File'))\n")
    result = _run(installed, "python", "-c", probe, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:3] == ["True True", "True", "文件(&F)"]


# ------------------------------------------- packaging metadata
def test_pyproject_license_is_an_spdx_string_with_a_setuptools_that_reads_it():
    import re
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"  # the table form warns on setuptools >= 77 (PEP 639)
    (setuptools,) = [req for req in project["build-system"]["requires"] if req.startswith("setuptools")]
    minimum = re.fullmatch(r"setuptools>=(\d+)(?:\.\d+)*", setuptools.replace(" ", ""))
    assert minimum is not None and int(minimum.group(1)) >= 77  # the first setuptools that accepts the string form
