"""The sidebar and the docks: saved searches, triage progress, the conference map."""
