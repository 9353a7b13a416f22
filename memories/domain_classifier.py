"""The mechanism both domain classifiers share: keyword counts, then the nearest centroid of labelled examples.

Two classifiers use it with vocabularies of their own, because they answer different questions:
ingest/pipeline/tag_domain.py labels what a memory is about (five domains, memory wording:
domain_examples.yaml), search/retrieval/gating.py which memory domains a question may read (four, question
wording: query_domains.yaml).
"""
import re
from pathlib import Path

import numpy as np
import yaml


def keyword_counts(patterns: dict[str, re.Pattern], text: str) -> dict[str, int]:
    """How many of each domain's keywords the text holds."""
    return {domain: len(pattern.findall(text)) for domain, pattern in patterns.items()}


def example_centroids(path: Path) -> tuple[list[str], np.ndarray]:
    """(labels, unit centroids, one row per label) of the example texts per label in a YAML file."""
    from memories.embedding import embed_texts

    labels, rows = [], []
    for label, texts in yaml.safe_load(path.read_text()).items():
        centroid = np.asarray(embed_texts(texts), dtype=np.float32).mean(axis=0)
        labels.append(label)
        rows.append(centroid / np.linalg.norm(centroid))
    return labels, np.vstack(rows)
