"""The paper list: its model, delegates, and the search session and worker that fill it."""
