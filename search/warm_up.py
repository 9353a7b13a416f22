"""A process's warm-up before its first search or ingest (web processes at start, each worker-cluster process
as it spawns): the model and its canary, the query-domain centroids, the gazetteer, then gc.freeze."""
import gc

from memories.pipeline.names_in_text import place_names
from memories.readiness import semantic_retrieval_ready
from search.retrieval.gating import query_domain_centroids


def warm_up() -> None:
    """Load the model, run the canary, embed the query-domain centroids and read the place names before the
    first search or ingest needs them.

    Then the objects loaded so far leave the garbage collector's generations (gc.freeze): they live
    as long as the process, and a full collection walking the model's ~480k objects paused whichever
    request triggered it for ~250 ms.
    """
    if semantic_retrieval_ready():
        query_domain_centroids()
    place_names()  # the gazetteer, read once: not in the first ingest's time
    gc.freeze()
