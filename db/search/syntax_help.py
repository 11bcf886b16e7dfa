"""The query language as Help → Search syntax shows it (db.search.language parses it); marked for the
window's translation (db.text.translatable)."""

from db.text.translatable import QT_TRANSLATE_NOOP

SEARCH_SYNTAX_HELP = QT_TRANSLATE_NOOP("", """Search syntax

  graph neural          papers containing both words (title, abstract, authors, note, tags);
                        best matches first, a title match counts more; "networks" also finds "network"
  "chain of thought"    the exact phrase, small words included
  reinforc*             words starting with "reinforc" (* and ? are wildcards)
  title:transformer     only in the title; likewise abstract:  author:  note:  venue:
  tag:"graph neural nets"   papers carrying that whole tag (tag:graph* for tags starting with "graph")
                        (a double quote inside the quotes is written twice)
  year:2019  year:2017..2019  year:>=2018      years: one, a range, or a comparison (> >= < <=)
  rating:>=4  rating:3  rating:none            stars 1..5; none = unrated
  read:yes  read:no                            read state
  decision:include  decision:exclude  decision:maybe  decision:none     screening decision
  reason:"wrong population"                    excluded for that reason (reason:none: excluded, no reason)
  decision:oral  decision:reject               the venue's decision or presentation (accept, oral,
                        spotlight, poster, workshop, reject, withdrawn)
  a OR b    a AND b    NOT a    -a    (a OR b) c   combine; AND is implied between words
                        (write AND, OR, NOT in capitals; lower-case "or" is an ordinary word)

A query of filters only (venue:, tag:, year:, rating:, read:, decision:, reason:) lists its papers in library order.

Case, accents and Unicode form do not matter (Kepes finds Képes); Chinese and Japanese text is found
without spaces. An empty query shows every paper in library order.
""")
