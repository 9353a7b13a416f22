"""Model instances from hand-written SQL, for the hottest reads of the write pipeline and search.

Building and compiling a queryset costs Django ~0.6-1 ms of Python per query on these
machines, more than PostgreSQL takes to answer the indexed lookups those paths make.
"""
from django.db import connection


def models_from_sql(model, fields, sql: str, params, extra: tuple[str, ...] = ()) -> list:
    """Instances of `model` from hand-written SQL selecting the columns of `fields` (in the model's field
    order; the others are deferred), then the `extra` columns, set as attributes. Values go through the
    fields' database converters, as with a queryset, without the ORM's query compiler."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return models_from_rows(model, fields, rows, extra)


def models_from_rows(model, fields, rows, extra: tuple[str, ...] = ()) -> list:
    """models_from_sql for rows already fetched (by a statement that reads more than one thing)."""
    names = [f.attname for f in fields]
    converters = [(i, f.get_db_converters(connection), f.cached_col) for i, f in enumerate(fields)]
    converters = [(i, functions, col) for i, functions, col in converters if functions]
    instances = []
    for row in rows:
        values = list(row)
        for index, functions, col in converters:
            for convert in functions:
                values[index] = convert(values[index], col, connection)
        instance = model.from_db(connection.alias, names, values[:len(names)])
        for name, value in zip(extra, values[len(names):]):
            setattr(instance, name, value)
        instances.append(instance)
    return instances


def columns(fields, table_alias: str = "") -> str:
    """The fields' columns as a SELECT list ("id, user_id, …"), optionally qualified ("e.id, …")."""
    prefix = f"{table_alias}." if table_alias else ""
    return ", ".join(prefix + field.column for field in fields)
