"""The review queue: what waits for a person (selectors), what they do with it (services), the console pages
(views), and entity drift, which files questions into it (drift)."""
