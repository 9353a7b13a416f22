"""Django's PostgreSQL backend (`ENGINE: recall_site.postgresql`), its pool made safe for an outage.

psycopg_pool, asked for a connection while the server is down, waits its whole timeout for each request,
and after an outage it reconnects with an exponential backoff of its own (1 s, 2 s, 4 s, …), so the
service would stay down for a while after the database came back. Here, a pool that could not hand out a
connection in time is checked with one direct connection: if that fails too, the server is down, the
request fails at once (a 503 with Retry-After, recall_site/request_guards.py), and so does every request
after it, each with one direct try, until a try succeeds. Then the old pool is closed and a fresh one
opens: the service is back with the database, not at the pool's next backoff. A pool that is only busy
(every connection lent out for the whole timeout) fails that one request.

With server-side binding (settings.py) a statement's parameters travel apart from it, and PostgreSQL takes
at most 65,535 of them: the cursor renders a statement with more (an ORM `__in` of a long list, a large
bulk_create) client-side instead, as Django's default cursor renders every statement.
"""
import threading

import psycopg
from django.db.backends.postgresql import base
from psycopg_pool import PoolTimeout

_lock = threading.Lock()
MAX_BOUND_PARAMETERS = 65535  # the protocol's 16-bit count


class ServerBindingCursor(base.ServerBindingCursor):
    def execute(self, query, params=None, **kwargs):
        if params is not None and len(params) > MAX_BOUND_PARAMETERS:
            query, params = psycopg.ClientCursor(self.connection).mogrify(query, params), None
        return super().execute(query, params, **kwargs)


class DatabaseWrapper(base.DatabaseWrapper):
    down_aliases: set[str] = set()  # per process: the servers a direct try last found down

    def get_connection_params(self):
        params = super().get_connection_params()
        if params.get("cursor_factory") is base.ServerBindingCursor:
            params["cursor_factory"] = ServerBindingCursor
        return params

    def get_new_connection(self, conn_params):
        if not self.pool:
            return super().get_new_connection(conn_params)
        if self.alias in self.down_aliases:
            self._server_back(conn_params)  # raises while it is still down
        try:
            return super().get_new_connection(conn_params)
        except PoolTimeout:
            self._direct_try(conn_params)  # the server is down: this raises, and marks it
            raise  # the server answers, the pool is only busy

    def _server_back(self, conn_params) -> None:
        self._direct_try(conn_params)
        with _lock:
            if self.alias in self.down_aliases:
                self.close_pool()  # its connections and its reconnection backoff are from the outage
                self.down_aliases.discard(self.alias)

    def _direct_try(self, conn_params) -> None:
        params = {key: value for key, value in conn_params.items() if key != "pool"}
        try:
            self.Database.connect(**{**params, "connect_timeout": 2}).close()
        except self.Database.OperationalError:
            self.down_aliases.add(self.alias)
            raise
