"""Console pages that search: the memory browser (its query box runs a search) and the profile page (with the
startup digest an assistant would get)."""
