"""A lab on the test's PostgreSQL server (issue 27): member roles, an owner's library shared as a project, members
joining it — the setup every lab test starts from (tests/system/test_lab_*.py)."""

from __future__ import annotations

from pathlib import Path

from db.library import Library
from db.sync.projects import Projects
from tests.helpers.records import papers


def add_members(postgres, *members: str) -> None:
    """The server made ready for projects (Margin's tables, as its administrator), then a LOGIN role per member."""
    with Projects(postgres.conninfo):
        pass
    for member in members:
        postgres.sql(f"CREATE ROLE {member} LOGIN")


def share_papers(postgres, folder: Path, count: int, name: str = "icml", owner: str = "alice",
                 invite: tuple[str | tuple[str, str], ...] = (), criteria: str = "",
                 reasons: tuple[str, ...] = ()) -> list[str]:
    """`owner`'s library in `folder` with `count` papers (tests.helpers.records.papers), all shared as the project
    `name` (criteria, reasons) with the members of `invite` invited (a name, or (name, role) such as
    ("carol", "resolver")); the library knows the project. Returns the paper ids in library order."""
    with Library.open(folder, seed=False) as library:
        library.import_records(papers(count))
        ids = library.ids()
        states = library.sync_book.paper_states(ids)
        with Projects(postgres.conninfo_as(owner)) as projects:
            projects.create(name, criteria=criteria, reasons=reasons)
            projects.add_papers(name, [(i, states[i]["paper"]["title"], states[i]["paper"]) for i in ids])
            for member in invite:
                projects.invite(name, *((member,) if isinstance(member, str) else member))
        library.project_book.put_project(name, postgres.conninfo_as(owner))
    return ids


def join(postgres, folder: Path, member: str, name: str = "icml") -> None:
    """`member` joins the project `name` on the server, and their library in `folder` (made when missing) knows it."""
    with Projects(postgres.conninfo_as(member)) as projects:
        projects.join(name)
    with Library.open(folder, seed=False) as library:
        library.project_book.put_project(name, postgres.conninfo_as(member))
