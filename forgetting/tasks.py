"""Background work (django-q2) after a forget: VACUUM the tables it touched. Idempotent."""
from django.db import connection
from django_q.models import OrmQ

from recall_site.purging import registered


def vacuum_after_forget() -> list[str]:
    """After a hard delete: VACUUM the tables it touched, so the deleted rows' dead versions leave the table
    and index pages now, not at autovacuum's next pass (docs/security.md says what PostgreSQL keeps)."""
    tables = [model._meta.db_table for purger in registered() for model in purger.models] + [OrmQ._meta.db_table]
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f'VACUUM (ANALYZE) "{table}"')
    return tables
