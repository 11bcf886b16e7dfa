"""Qt fixtures for the system tier's window tests (the real-time reading loop, a busy library, closing during an
import): an own QSettings folder per test (autouse) and main windows on the test's library."""

from tests.helpers.fetching import server  # noqa: F401 - a server replaying recorded API answers (the fetch tests)
from tests.helpers.postgres import postgres  # noqa: F401 - a throwaway PostgreSQL server (the sync tests)
from tests.helpers.qt import isolated_settings, make_window  # noqa: F401 - fixtures for this tier
