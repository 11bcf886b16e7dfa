"""The conference map: one point per paper, placed by text similarity, with named regions."""
