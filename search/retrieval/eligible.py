"""Which memories a search may see at all: the user's own, active, in scope, and past the gate.

Every retriever runs one raw query over the user's partition of the memories (`m`,
memories/partitions.py) that starts from this condition. Compiling the same filter
through the ORM for each query cost ~1 ms of Python a query (a search makes four to
six of them), while the queries themselves take a fraction of that once the indexes
answer them.

Only the user, the session and the gate's confidence floors are parameters. What
decides the plan is written into the statement's text as literals: the status,
scope, domains, review reasons, types and the LIMIT. A prepared statement's
generic plan (settings.py: statements run prepared) then still sees the gate's
`domain IN (...)`, the predicate of that gate's partial indexes (memories.models),
and how few rows a LIMIT asks for, so PostgreSQL can keep one plan per statement
and gate instead of planning every search anew (~2.4 ms for the candidates
statement). The values come from the code's enums and the validated request,
and are quoted all the same. The partition's name, in the text too, keeps each plan to one table. So does
the user's id for a user many times bigger than the partition's average one (`user_sql`, statistics.py).
"""
from dataclasses import dataclass

from memories.models import SEARCHABLE_REVIEW_REASONS, Scope, Status
from memories.partitions import user_table
from search.retrieval.gating import Gate
from search.retrieval.statistics import planned_apart


@dataclass(frozen=True)
class Eligible:
    """A SQL condition over a memory `m` of `table` (the user's partition) and its named parameters
    (pyformat); `sentences` is the user's partition of the sentence vectors; `user_sql` the user's id in
    the statements' text: the parameter, or the id itself for a user planned apart (statistics.py);
    `domains_sql` the gate's condition alone, every user's rows it lets through (the gate's partial indexes')."""

    sql: str
    params: dict
    table: str
    sentences: str
    user_sql: str = "%(eligible_user_id)s"
    domains_sql: str = "true"

    @property
    def user_id(self) -> str:
        return self.params["eligible_user_id"]

    def query(self, select: str, *, join: str = "", where: str = "", order: str = "", limit: int | None = None,
              **params) -> tuple[str, dict]:
        """(sql, params) of `SELECT <select> FROM <table> m [<join>] WHERE <eligible> [AND <where>]
        [ORDER BY <order>] [LIMIT <limit>]`."""
        sql = f"SELECT {select} FROM {self.table} m {join} WHERE {self.sql}"
        if where:
            sql += f" AND {where}"
        if order:
            sql += f" ORDER BY {order}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return sql, {**self.params, **params}


def eligible_clause(*, user_id: str, session_id: str | None, gate: Gate, types=None) -> Eligible:
    """Active, confirmed memories of `user_id` visible in the session, in the gate's domains and confidence.

    Superseded and expired rows are out (status), as are doubtful memories awaiting
    review (inferences, an ambiguous person); confident ones waiting only for confirmation
    or auto-pin review are in (SEARCHABLE_REVIEW_REASONS). session_local rows only
    appear inside their own session; sensitive rows need the sensitive confidence floor
    regardless of the filters.
    """
    params = {"eligible_user_id": user_id, "eligible_min_confidence": gate.min_confidence,
              "eligible_sensitive_min": gate.sensitive_min_confidence}
    table = user_table("memories_memory", user_id)
    user_sql = literal(user_id) if planned_apart(table, user_id) else "%(eligible_user_id)s"
    domains_sql = f"m.domain IN ({listed(sorted(map(str, gate.domains)))})"
    conditions = [
        f"m.user_id = {user_sql}", f"m.status = {literal(Status.ACTIVE)}",
        f"(NOT m.needs_review OR m.review_reason IN ({listed(SEARCHABLE_REVIEW_REASONS)}))",
        domains_sql, "m.confidence >= %(eligible_min_confidence)s",
        "NOT (m.sensitive AND m.confidence < %(eligible_sensitive_min)s)",
    ]
    if session_id:
        params["eligible_session_id"] = session_id
        conditions.append(f"(m.scope = {literal(Scope.USER_GLOBAL)} OR (m.scope = {literal(Scope.SESSION_LOCAL)}"
                          " AND m.session_id = %(eligible_session_id)s))")
    else:
        conditions.append(f"m.scope = {literal(Scope.USER_GLOBAL)}")
    if types:
        conditions.append(f"m.type IN ({listed(sorted(map(str, types)))})")
    return Eligible(" AND ".join(conditions), params, table, user_table("memories_memorysentence", user_id), user_sql,
                    domains_sql)


def literal(value) -> str:
    """A text value as an SQL string literal ('it''s'); `%` doubled, as the statement is pyformat."""
    return "'" + str(value).replace("'", "''").replace("%", "%%") + "'"


def listed(values) -> str:
    """Values as a list of literals for IN (…); NULL, which matches nothing, for none."""
    return ", ".join(map(literal, values)) or "NULL"
