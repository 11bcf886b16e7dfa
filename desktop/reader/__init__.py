"""The reader pane and the annotation panel: abstract, note, tags and rating."""
