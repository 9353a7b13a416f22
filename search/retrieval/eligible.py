"""Which memories a search may see at all: the user's own, active, in scope, and past the gate.

Every retriever runs one raw query over `memories_memory m` that starts from this
condition. Compiling the same filter through the ORM for each query cost ~1 ms of
Python a query (a search makes four to six of them), while the queries
themselves take a fraction of that once the indexes answer them.
"""
from dataclasses import dataclass

from memories.models import SEARCHABLE_REVIEW_REASONS, Scope, Status
from search.retrieval.gating import Gate


@dataclass(frozen=True)
class Eligible:
    """A SQL condition over `memories_memory m` and its named parameters (pyformat)."""

    sql: str
    params: dict

    def query(self, select: str, *, join: str = "", where: str = "", order: str = "", limit: int | None = None,
              **params) -> tuple[str, dict]:
        """(sql, params) of `SELECT <select> FROM memories_memory m [<join>] WHERE <eligible> [AND <where>]
        [ORDER BY <order>] [LIMIT <limit>]`."""
        sql = f"SELECT {select} FROM memories_memory m {join} WHERE {self.sql}"
        if where:
            sql += f" AND {where}"
        if order:
            sql += f" ORDER BY {order}"
        if limit is not None:
            sql += " LIMIT %(limit)s"
            params["limit"] = limit
        return sql, {**self.params, **params}


def eligible_clause(*, user_id: str, session_id: str | None, gate: Gate, types=None) -> Eligible:
    """Active, confirmed memories of `user_id` visible in the session, in the gate's domains and confidence.

    Superseded and expired rows are out (status), as are doubtful memories awaiting
    review (inferences, an ambiguous person); confident ones waiting only for confirmation
    or auto-pin review are in (SEARCHABLE_REVIEW_REASONS). session_local rows only
    appear inside their own session; sensitive rows need the sensitive confidence floor
    regardless of the filters.
    """
    params = {
        "eligible_user_id": user_id, "eligible_active": Status.ACTIVE.value, "eligible_global": Scope.USER_GLOBAL.value,
        "eligible_min_confidence": gate.min_confidence, "eligible_sensitive_min": gate.sensitive_min_confidence,
    }
    # Listed as literals, not an array parameter: the gate's `domain IN (...)` is then the predicate of
    # that gate's partial HNSW index (memories.models), which the planner can only match this way.
    domains = _listed(params, "eligible_domain", gate.domains)
    reviewable = _listed(params, "eligible_review", SEARCHABLE_REVIEW_REASONS)
    conditions = [
        "m.user_id = %(eligible_user_id)s", "m.status = %(eligible_active)s",
        f"(NOT m.needs_review OR m.review_reason IN ({reviewable}))",
        f"m.domain IN ({domains})", "m.confidence >= %(eligible_min_confidence)s",
        "NOT (m.sensitive AND m.confidence < %(eligible_sensitive_min)s)",
    ]
    if session_id:
        params["eligible_session_id"] = session_id
        conditions.append("(m.scope = %(eligible_global)s OR (m.scope = %(eligible_local)s"
                          " AND m.session_id = %(eligible_session_id)s))")
        params["eligible_local"] = Scope.SESSION_LOCAL.value
    else:
        conditions.append("m.scope = %(eligible_global)s")
    if types:
        conditions.append(f"m.type IN ({_listed(params, 'eligible_type', types)})")
    return Eligible(" AND ".join(conditions), params)


def _listed(params: dict, prefix: str, values) -> str:
    """`%(prefix_0)s, %(prefix_1)s, …` for an IN list, with the values added to `params` (none: NULL, no match)."""
    if not values:
        return "NULL"
    names = [f"{prefix}_{index}" for index in range(len(values))]
    params.update(zip(names, (str(value) for value in values)))
    return ", ".join(f"%({name})s" for name in names)
