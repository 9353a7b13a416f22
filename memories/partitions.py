"""Hash partitions by `user_id` for the tables whose indexes every search reads: the memories and their sentences.

Each partition has its own HNSW graphs and full-text posting lists, so a search walks the rows of one
partition's users, not every tenant's (docs/scaling.md). The keys are the ones Citus needs to distribute
the tables by `user_id`: the primary key is `(id, user_id)` and a foreign key to a memory is
`(memory_id, user_id)`, so a row can only point at a memory of its own user. Django keeps using `id` alone.

`user_table` names the partition that holds a user's rows, for the search's statements to read it directly.
`repartition` turns the tables into partitioned ones (or back into plain ones, or into another number of
partitions) in place, keeping every row, index, check constraint, foreign key and the id sequence's position;
the migrations call it. A process that looked up partitions before another process repartitioned must restart
(the web and worker processes do at a deploy's migrate).
"""
from dataclasses import dataclass

from django.db import connection

PARTITIONED_TABLES = ("memories_memory", "memories_memorysentence")
# maintenance_work_mem of the index builds, for this transaction: an HNSW graph larger than it is finished by
# slow inserts on disk (~2.25 kB a vector: 512MB holds a 230k-row partition's); PostgreSQL's default is 64MB.
INDEX_BUILD_MEMORY = "512MB"
_REMEMBERED_USERS = 100_000  # partition numbers kept per process (~100 bytes each), then forgotten at once
_partition_numbers: dict[tuple[str, str], int | None] = {}


@dataclass(frozen=True)
class _ForeignKey:
    name: str
    table: str
    column: str
    target: str
    definition: str  # pg_get_constraintdef(): how to re-create it where it does not point at a rebuilt table


def repartition(cursor, tables: tuple[str, ...], partitions: int | None) -> None:
    """Rebuild `tables` hash-partitioned by user_id into `partitions` partitions (None: plain tables).

    The foreign keys between the tables and from other tables to them are re-created afterwards, composite
    when their target is partitioned. A row whose user differs from its memory's makes that step fail, and
    the migration with it: nothing is half-converted."""
    forget_partition_numbers()
    cursor.execute("SELECT set_config('maintenance_work_mem', %s, true)", [INDEX_BUILD_MEMORY])
    foreign_keys = _foreign_keys(cursor, tables)
    for key in foreign_keys:
        cursor.execute(f'ALTER TABLE "{key.table}" DROP CONSTRAINT "{key.name}"')
    for table in tables:
        _rebuild(cursor, table, partitions)
    for key in foreign_keys:
        if key.target not in tables:
            definition = key.definition
        elif partitions:
            definition = (f'FOREIGN KEY ("{key.column}", user_id) REFERENCES "{key.target}" (id, user_id) '
                          "DEFERRABLE INITIALLY DEFERRED")
        else:
            definition = f'FOREIGN KEY ("{key.column}") REFERENCES "{key.target}" (id) DEFERRABLE INITIALLY DEFERRED'
        cursor.execute(f'ALTER TABLE "{key.table}" ADD CONSTRAINT "{key.name}" {definition}')


def partition_names(table: str, partitions: int) -> list[str]:
    return [f"{table}_p{remainder:02d}" for remainder in range(partitions)]


def name_partition_indexes(cursor, table: str) -> None:
    """Name each partition's copy of an index of `table` after it, `<index>_p<NN>`, as EXPLAIN then shows it
    (PostgreSQL's own names, `<partition>_<columns>_idx<n>`, do not say which of the table's indexes it is)."""
    cursor.execute(
        "SELECT child.relname, parent.relname, partition.relname FROM pg_inherits i "
        "JOIN pg_class child ON child.oid = i.inhrelid JOIN pg_class parent ON parent.oid = i.inhparent "
        "JOIN pg_index x ON x.indexrelid = child.oid JOIN pg_class partition ON partition.oid = x.indrelid "
        "WHERE x.indrelid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = %s::regclass)", [table])
    for child, parent, partition in cursor.fetchall():
        wanted = f"{parent}_p{partition.rsplit('_p', 1)[1]}"
        if child != wanted:
            cursor.execute(f'ALTER INDEX "{child}" RENAME TO "{wanted}"')


def partition_of(cursor, user_id: str) -> int | None:
    """The number of the partition that holds `user_id`'s rows, the same in both tables (None when the
    tables are not partitioned)."""
    cursor.execute("SELECT substring(inhrelid::regclass::text FROM '_p([0-9]+)$')::int FROM pg_inherits "
                   "WHERE inhparent = 'memories_memory'::regclass AND satisfies_hash_partition("
                   "'memories_memory'::regclass, (SELECT count(*) FROM pg_inherits "
                   "WHERE inhparent = 'memories_memory'::regclass)::int, "
                   "substring(inhrelid::regclass::text FROM '_p([0-9]+)$')::int, %s::varchar)", [user_id])
    row = cursor.fetchone()
    return None if row is None else row[0]


def user_table(table: str, user_id: str) -> str:
    """The table to read `user_id`'s rows of `table` (one of PARTITIONED_TABLES) from: the user's partition.

    A statement that names the partition is planned over one plain table. Over the partitioned table, a
    prepared statement's generic plan would be costed as if it read every partition (its pruning happens
    at run time), so PostgreSQL planned each search anew: on 300 tenants, the candidates statement took
    7.1 ms instead of 3.1. The number is looked up once per user and process."""
    key = (connection.settings_dict["NAME"], user_id)
    if key not in _partition_numbers:
        if len(_partition_numbers) >= _REMEMBERED_USERS:
            _partition_numbers.clear()
        with connection.cursor() as cursor:
            _partition_numbers[key] = partition_of(cursor, user_id)
    number = _partition_numbers[key]
    return table if number is None else f"{table}_p{number:02d}"


def forget_partition_numbers() -> None:
    """After the tables are partitioned anew (or made plain) in this process: the migrations call it."""
    _partition_numbers.clear()


def secondary_indexes(cursor, table: str) -> list[tuple[str, str]]:
    """(name, CREATE INDEX statement) of each index of `table` that backs no constraint. A partitioned
    table's definitions say `ON ONLY`, which would build the parent's index alone: they are given without."""
    cursor.execute(
        "SELECT indexname, replace(indexdef, ' ON ONLY ', ' ON ') FROM pg_indexes "
        "WHERE schemaname = current_schema() AND tablename = %s AND NOT EXISTS (SELECT 1 FROM pg_constraint "
        "WHERE conindid = format('%%I.%%I', schemaname, indexname)::regclass) ORDER BY indexname", [table])
    return cursor.fetchall()


def _foreign_keys(cursor, tables: tuple[str, ...]) -> list[_ForeignKey]:
    """Single-column or (column, user_id) foreign keys from or to `tables`, on the parent tables only."""
    cursor.execute(
        "SELECT c.conname, c.conrelid::regclass::text, a.attname, c.confrelid::regclass::text, "
        "pg_get_constraintdef(c.oid) FROM pg_constraint c "
        "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1] "
        "WHERE c.contype = 'f' AND c.conparentid = 0 "
        "AND (c.conrelid::regclass::text = ANY(%s) OR c.confrelid::regclass::text = ANY(%s))",
        [list(tables), list(tables)])
    return [_ForeignKey(*row) for row in cursor.fetchall()]


def _rebuild(cursor, table: str, partitions: int | None) -> None:
    """A new `table` (partitioned or plain) with the old one's columns, rows, indexes, checks and id sequence.
    Its only unique key is the primary key (true of both tables)."""
    indexes = [definition for _, definition in secondary_indexes(cursor, table)]
    cursor.execute("SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0 "
                   "AND NOT attisdropped AND attgenerated = '' ORDER BY attnum", [table])
    columns = ", ".join(f'"{name}"' for (name,) in cursor.fetchall())
    cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [table])
    sequence = cursor.fetchone()[0]
    cursor.execute(f"SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM {sequence}")
    last_id = cursor.fetchone()[0]

    old = f"{table}_before_repartition"
    cursor.execute("SELECT inhrelid::regclass::text FROM pg_inherits WHERE inhparent = %s::regclass", [table])
    for (partition,) in cursor.fetchall():  # a partitioned table's: their names are the new partitions' too
        cursor.execute(f'ALTER TABLE "{partition}" RENAME TO "{partition}_before_repartition"')
    cursor.execute(f'ALTER TABLE "{table}" RENAME TO "{old}"')
    partition_by = " PARTITION BY HASH (user_id)" if partitions else ""
    cursor.execute(f'CREATE TABLE "{table}" (LIKE "{old}" INCLUDING DEFAULTS INCLUDING GENERATED '
                   f"INCLUDING CONSTRAINTS){partition_by}")
    cursor.execute(f'ALTER TABLE "{table}" ALTER id DROP DEFAULT')  # the old sequence goes with the old table
    for remainder, name in enumerate(partition_names(table, partitions or 0)):
        cursor.execute(f'CREATE TABLE "{name}" PARTITION OF "{table}" '
                       f"FOR VALUES WITH (MODULUS {partitions}, REMAINDER {remainder})")
    cursor.execute(f'INSERT INTO "{table}" ({columns}) SELECT {columns} FROM "{old}"')
    cursor.execute(f'DROP TABLE "{old}"')

    if partitions:  # PostgreSQL 16 has no identity columns on partitioned tables: a sequence of its own
        cursor.execute(f'CREATE SEQUENCE "{table}_id_seq" OWNED BY "{table}".id')
        cursor.execute(f"""ALTER TABLE "{table}" ALTER id SET DEFAULT nextval('"{table}_id_seq"')""")
        cursor.execute(f"""SELECT setval('"{table}_id_seq"', %s, %s)""", [max(last_id, 1), last_id > 0])
        cursor.execute(f'ALTER TABLE "{table}" ADD CONSTRAINT "{table}_pkey" PRIMARY KEY (id, user_id)')
    else:
        cursor.execute(f'ALTER TABLE "{table}" ALTER id ADD GENERATED BY DEFAULT AS IDENTITY '
                       f"(START WITH {last_id + 1})")
        cursor.execute(f'ALTER TABLE "{table}" ADD CONSTRAINT "{table}_pkey" PRIMARY KEY (id)')
    for definition in indexes:
        cursor.execute(definition)
    name_partition_indexes(cursor, table)
    cursor.execute(f'ANALYZE "{table}"')
