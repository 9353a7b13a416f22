"""Load timestamptz columns with psycopg's C loader instead of Django's Python one.

Django registers a timestamptz loader that subclasses psycopg's pure-Python
loader (to pin the tzinfo), so every timestamp read parses its text in Python:
~8 µs a value, ~1 ms for the 20 memories a search returns (seven timestamps
each) and more for console lists. This loader gives the same aware datetimes
(the C loader's result with Django's tzinfo) in well under a microsecond.
"""
import psycopg
from psycopg.postgres import types

TIMESTAMPTZ = types["timestamptz"].oid


def use_c_timestamp_loader(sender, connection, **kwargs) -> None:
    """connection_created receiver: replace Django's loader on a new PostgreSQL connection."""
    if connection.vendor != "postgresql" or psycopg.pq.__impl__ == "python":
        return
    if getattr(connection.connection, "recall_c_timestamps", False):  # a pooled connection, handed out again
        return
    c_loader = psycopg.adapters.get_loader(TIMESTAMPTZ, psycopg.pq.Format.TEXT)

    class TimestamptzLoader(psycopg.adapt.Loader):  # the C class cannot be subclassed
        timezone = connection.timezone  # what Django's cursor checks before registering its own

        def __init__(self, oid, context=None):
            super().__init__(oid, context)
            self.parse = c_loader(oid, context).load

        def load(self, data):
            return self.parse(data).replace(tzinfo=self.timezone)

    connection.connection.adapters.register_loader(TIMESTAMPTZ, TimestamptzLoader)
    connection.connection.recall_c_timestamps = True
