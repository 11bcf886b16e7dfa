"""Text: abstract and math markup, headlines, person names, what notes/titles/tags are stored as, rendering."""
