"""Mention detection in search queries: the user's live names, aliases and first names, by index."""
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from entities.models import EntityKind
from entities.services import alias_add
from search.retrieval.graph import NAMES_SQL
from search.retrieval.words import query_words
from tests import factories


def test_queries_mention_names_aliases_and_first_names_of_live_entities_only(db):
    factories.person("alice", "Sarah Chen")
    alias_add(entity=factories.person("alice", "Tom Baker"), alias="my manager", origin="role")
    factories.person("alice", "Volkswagen", kind=EntityKind.ORG)
    gone = factories.person("alice", "Priya Patel")
    gone.deleted_at = timezone.now()
    gone.save()
    factories.person("bob", "Nora Berg")
    words = query_words("alice", "Lunch with Sarah and my manager at Volkswagen")
    assert words.mentions == ["my manager", "Sarah", "Volkswagen"]
    assert words.lexemes == ["lunch", "manag", "sarah", "volkswagen"]  # the same statement's full-text terms
    assert query_words("alice", "what does Sarah Chen's brother do").mentions == ["Sarah Chen"]
    assert query_words("alice", "ask Priya and Nora about my").mentions == []  # tombstoned, bob's, a bare "my"
    nothing = query_words("alice", "?!")  # no words at all
    assert (nothing.lexemes, nothing.mentions, nothing.direct.rows) == ([], [], [])


def test_the_query_words_statement_resolves_named_mentions_as_the_resolver_alone_does(db):
    """Mentions named exactly, by alias or by first name, and a hint: the direct matches read with the query's
    words give each the resolution the resolver reaches with its own queries."""
    from entities.resolver import resolve_mention
    from search.retrieval.graph import resolve_entities

    sarah = factories.person("alice", "Sarah Chen")
    tom = factories.person("alice", "Tom Baker")
    alias_add(entity=tom, alias="my manager", origin="role")
    vw = factories.person("alice", "Volkswagen", kind=EntityKind.ORG)
    factories.person("alice", "Alex Kim")
    factories.person("alice", "Alex Ruiz")
    words = query_words("alice", "Lunch with Sarah, Alex and my manager at Volkswagen", hints=["Dr. Tom Baker"])
    assert [e.pk for e in words.direct.of("Volkswagen")] == [vw.pk]
    assert [e.pk for e in words.direct.of("my manager")] == [tom.pk] and words.direct.of("Sarah") == []
    with CaptureQueriesContext(connection) as queries:
        resolved = resolve_entities("alice", words.mentions, ["Dr. Tom Baker"], words.direct)
    # The three named mentions need no query of their own; the two first names read the name table and the
    # entities it points to (partial and ambiguous), two queries each.
    assert len(queries) == 4
    alone = [resolve_mention("alice", r.mention) for r in resolved]
    assert [(r.mention, r.method, r.entity) for r in resolved] == [(a.mention, a.method, a.entity) for a in alone]
    assert [(r.mention, r.method, r.entity) for r in resolved] == [
        ("Dr. Tom Baker", "alias", tom), ("my manager", "alias", tom), ("Sarah", "partial", sarah),
        ("Alex", "ambiguous", None), ("Volkswagen", "exact", vw)]


def test_name_lookups_can_use_the_first_word_indexes(db):
    factories.person("alice", "Sarah Chen")
    params = {"user_id": "alice", "self": EntityKind.SELF.value, "candidates": ["sarah", "lunch"]}
    with transaction.atomic(), connection.cursor() as cursor:
        # A few test rows make a sequential scan cheapest; with scans off the planner shows what it can use.
        # Depending on the statistics other tests left, it may also prefer walking the alias foreign-key
        # index or the (entity, alias) unique index (a full index scan with a filter): out of the way too,
        # rolled back with the transaction.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("DROP INDEX entities_alias_entity_id_46cc8690")
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the rows' deferred checks, before the table changes
        cursor.execute("ALTER TABLE entities_alias DROP CONSTRAINT unique_alias_per_entity")
        plan = "\n".join(row[0] for row in cursor.execute(f"EXPLAIN {NAMES_SQL}", params).fetchall())
    assert "entity_user_first_word" in plan and "alias_user_first_word" in plan, plan
