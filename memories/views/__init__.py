"""Console pages for memories: the review queue."""
