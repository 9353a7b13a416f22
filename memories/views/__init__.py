"""Console pages for memories: dashboard, review queue, memory browser, profile."""
