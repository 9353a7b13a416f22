"""What a pooled PostgreSQL connection forgets when it goes back to the pool (psycopg_pool's `reset`).

Session-level advisory locks (a user's ingest-queue turn, recall_site/locks.py) used to end with their
connection; a pooled connection lives on, so a lock its holder did not release would stay held for good and
stall that user's background jobs. Everything else of the session stays: `hnsw.ef_search` and the other
settings applied once per connection (search/retrieval/semantic.py).
"""
from psycopg import pq


def reset_pooled_connection(connection) -> None:
    connection.execute("SELECT pg_advisory_unlock_all()")
    if connection.info.transaction_status != pq.TransactionStatus.IDLE:
        connection.rollback()
