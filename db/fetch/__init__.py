"""Getting papers from the web: OpenReview, arXiv, DBLP, PMLR, the ACL Anthology, and one paper by DOI (Crossref),
arXiv id or OpenReview id. No Qt. db.fetch.http is the one HTTP client (rate limits, retries, the day's cache,
cancel); one module per source maps its answers onto PaperRecords; db.fetch.job runs a fetch and hands the records
to the one import pipeline (db.import_job)."""

# what File → Get papers… and `margin fetch` offer (db.fetch.job runs them); here so that the command line's
# grammar names them without importing the HTTP client
VENUE_SOURCES = ("openreview", "arxiv", "dblp", "pmlr", "acl")
