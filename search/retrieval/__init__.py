"""Context-gated hybrid search: `search_memories(...)` → SearchOutcome.

1. gate the query (gating.py): its domain narrows the memory domains and sets min_confidence;
2. collect candidates: full-text (lexical.py), pgvector cosine (semantic.py, when semantic
   retrieval is on and its canary passed) and the entity graph (graph.py), the last two with
   every candidate's ranking columns in one statement (candidates.py);
3. fuse and rank relevance first, freshness and importance ordering similar matches (ranking.py).
The query is embedded on a worker thread while this thread does the
database work that needs no vector: entity mentions, the graph walk (its path labels included), the rarity of the query's
words and, when keywords settle the gate, the full-text candidates. Without a keyword the
vector's nearest centroid decides the gate, so the full-text candidates wait for it (fetched
under a guessed gate they had to be fetched again whenever the centroid moved the gate). No
transaction is open while the model runs.
"""
import hashlib
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from django.utils import timezone

from entities.models import EntityKind
from memories.readiness import semantic_state_now
from recall_site.config import recall_setting
from search.retrieval.candidates import find_candidates
from search.retrieval.eligible import eligible_clause
from search.retrieval.gating import implied_attributes, implied_needs, query_gate
from search.retrieval.graph import ResolvedEntity, graph_reach, mentions_of, reach_paths, resolve_entities
from search.retrieval.lexical import facts_of, lexical_candidates, needed_memories, query_terms
from search.retrieval.ranking import Hit, load_hits, rank
from search.retrieval.semantic import vector_literal
from search.retrieval.unnamed import capitalised_names, without_names, written_names
from search.retrieval.words import query_words

__all__ = ["Hit", "SearchOutcome", "search_memories"]
logger = logging.getLogger(__name__)
# Query embeddings overlap the request's database work; a few workers serve concurrent requests.
_embedder = ThreadPoolExecutor(max_workers=4, thread_name_prefix="query-embedding")
NEEDED_LIMIT = 5  # memories a food or exercise question needs whatever its words (an allergy, an injury)


@dataclass
class SearchOutcome:
    hits: list[Hit]
    domain: str
    domains: list[str]
    min_confidence: float
    resolved_entities: list[ResolvedEntity] = field(default_factory=list)
    skip_reason: str = ""
    retrievers: list[str] = field(default_factory=list)
    semantic: str = "ready"  # or why meaning was not searched: warming, disabled, canary_timeout, …
    limit: int = 0  # the results asked for, within memory_retrieval.max_memories
    matched: int = 0  # eligible memories any retriever found, before the freshness floor and the caps

    @property
    def fewer_reason(self) -> str:
        """Why fewer results than `limit` came back: "fewer_matched" (no more eligible memories match the
        question), "filtered" (the rest were below decay.retrieval_floor, near-duplicates of a kept result, or
        past max_chars); "" when the limit was filled."""
        if len(self.hits) >= self.limit:
            return ""
        return "fewer_matched" if self.matched < self.limit else "filtered"


def search_memories(*, user_id: str, query: str, session_id: str | None = None, entities=(), hop=None,
                    types=None, domains=None, min_confidence=None, include_all_domains: bool = False,
                    limit=None, freshness_weight: float | None = None) -> SearchOutcome:
    """An explicit question's search; per-turn retrieval passes its own (larger) freshness_weight."""
    retrieval = recall_setting("memory_retrieval")
    now = timezone.now()
    semantic_state = semantic_state_now()  # a search during the start-up warm-up runs on text + graph
    semantic = semantic_state == "ready"
    embedding = _QueryEmbedding(query, user_id) if semantic else None
    # A database call first: it lets go of the GIL, which the embedding thread needs to start.
    words = query_words(user_id, query, entities)
    per_retriever = retrieval["candidate_limit"]
    resolved = resolve_entities(user_id, words.mentions, entities, words.direct)
    hop = min(retrieval["default_hop"] if hop is None else hop, retrieval["max_hop"])
    reached = graph_reach(user_id, [r.entity for r in resolved if r.entity is not None], hop)
    people = [r for r in resolved if r.entity is not None and r.entity.kind == EntityKind.PERSON]
    gate_filters = {"domains": domains, "min_confidence": min_confidence, "include_all_domains": include_all_domains,
                    "names_people": bool(people)}
    paths = reach_paths(reached)
    # Keywords (or, without vectors, the fallback) settle the gate; otherwise the centroid may move it.
    guess = query_gate(query, **gate_filters)
    settled = guess.method == "keywords" or not semantic
    eligible = eligible_clause(user_id=user_id, session_id=session_id, gate=guess, types=types)
    # Word rarity only weighs the words: counted under the guessed gate, it need not wait for the vector.
    terms = query_terms(eligible, words.lexemes)
    lexical = lexical_candidates(eligible, terms, per_retriever, with_vectors=semantic) if settled else None
    query_vector, vector = embedding.result([r.mention for r in people]) if embedding else (None, None)
    gate = guess
    if query_vector is not None and not settled:
        gate = query_gate(query, query_vector=query_vector, **gate_filters)
    moved = (gate.domains, gate.min_confidence) != (guess.domains, guess.min_confidence)
    if moved:
        eligible = eligible_clause(user_id=user_id, session_id=session_id, gate=gate, types=types)
    if lexical is None or moved or semantic != (query_vector is not None):
        lexical = lexical_candidates(eligible, terms, per_retriever, with_vectors=query_vector is not None)
    if needs := implied_needs(query, gate.domain):  # "suggest a dinner recipe": the allergy, whatever its words
        lexical += [pk for pk in needed_memories(eligible, needs, NEEDED_LIMIT) if pk not in lexical]
    if attributes := implied_attributes(query):  # "what do I do for work": the job, whatever its words
        lexical += [pk for pk in facts_of(eligible, attributes, NEEDED_LIMIT) if pk not in lexical]

    limit = min(limit or retrieval["max_memories"], retrieval["max_memories"])
    candidates = find_candidates(eligible, vector=vector, lexical=lexical, reached=reached,
                                 paths=paths, limit=per_retriever, enough=limit, now=now,
                                 lexeme_weights=terms.weights, people=[r.entity.pk for r in people])
    if freshness_weight is None:
        freshness_weight = retrieval["freshness_weight"]
    hits = load_hits(rank(candidates.ids, candidates.rows, candidates.graph.hop_paths, now=now, limit=limit,
                          max_chars=retrieval["max_chars"], graph_mentions=mentions_of(resolved, candidates.graph),
                          freshness_weight=freshness_weight, query=query, people_named=bool(people)), user_id)
    return SearchOutcome(
        hits=hits, domain=gate.domain, domains=gate.domains, min_confidence=gate.min_confidence,
        resolved_entities=resolved, skip_reason="" if hits else "no_match", retrievers=list(candidates.ids),
        semantic=semantic_state, limit=limit, matched=len(candidates.rows),
    )


# Which of the capitalised words of a user's query were people the last time the same words were asked:
# a digest of (user, words) → the positions of the people among them. It lets a query that names the same
# words again be embedded once, as the resolved people will say, instead of twice (guessed and as written),
# which on two cores made the two encodes and the request's database work wait for each other. A digest and
# positions, no names: a forgotten user leaves nothing readable here. A wrong prediction (someone became a
# person meanwhile) only costs the second encode, after the people are resolved. False: the people resolved
# are not among the capitalised words ("Sarah" of "Sarah Chen"), so both encodes start at once every time.
_named_before: dict[bytes, tuple[int, ...] | bool] = {}
_NAMED_BEFORE_MAX = 50_000


class _QueryEmbedding:
    """The query's vector with the people it names put as "they" (unnamed.py), started before they are
    resolved: as the same words resolved the last time, or else both the text's guess at them and the query
    as written, since that guess may be wrong."""

    def __init__(self, query: str, user_id: str):
        self.query = query
        self.names = capitalised_names(query)
        self.key = hashlib.blake2b(repr((user_id, self.names)).encode(), digest_size=16).digest()
        if isinstance(people := _named_before.get(self.key), tuple):
            texts = [without_names(query, [self.names[index] for index in people])]
        else:
            texts = [without_names(query, self.names), query]
        self.pending = {text: _embedder.submit(_query_vector, text) for text in dict.fromkeys(texts)}

    def result(self, people: list[str]):
        named = written_names(self.query, people)
        text = without_names(self.query, named)
        self._remember(named, text)
        pending = self.pending.get(text) or _embedder.submit(_query_vector, text)
        return pending.result()

    def _remember(self, named: list[str], text: str) -> None:
        if len(_named_before) >= _NAMED_BEFORE_MAX:
            _named_before.clear()
        people = tuple(index for index, name in enumerate(self.names) if name in named)
        predicted = without_names(self.query, [self.names[index] for index in people])
        _named_before[self.key] = people if predicted == text else False


def _query_vector(query: str) -> tuple[list[float] | None, str | None]:
    """The query embedding and its pgvector text (formatted here, off the request thread's path), or
    (None, None) when the model fails (fail-open)."""
    from memories.embedding import embed_search_query

    try:
        vector = embed_search_query(query)
    except Exception:  # noqa: BLE001 - search must keep working on text + graph
        logger.exception("query embedding failed; searching without the semantic retriever")
        return None, None
    return vector, vector_literal(vector)
