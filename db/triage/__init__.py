"""Triage: progress and the estimate of liked papers still unseen, and several interests in one pass."""
