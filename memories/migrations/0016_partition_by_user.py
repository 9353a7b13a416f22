"""Memories and their sentences hash-partitioned by user_id, 16 partitions each (memories/partitions.py).

Sixteen keeps a partition's share of a 2M-row table near 125k rows, each with its own HNSW graphs and GIN
posting lists (docs/scaling.md), at 16 × 14 indexes on an empty install. The foreign keys to a memory become
(memory_id, user_id): Django no longer manages them (db_constraint=False), the database still enforces them.
Rows, ids and the id sequence's position are kept; the reverse migration makes plain tables again.
"""
import django.db.models.deletion
from django.db import migrations, models

from memories.partitions import PARTITIONED_TABLES, repartition

PARTITIONS = 16


def partition(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        repartition(cursor, PARTITIONED_TABLES, PARTITIONS)


def unpartition(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        repartition(cursor, PARTITIONED_TABLES, None)


def memory_key(**options):
    return models.ForeignKey(db_constraint=False, to="memories.memory", **options)


class Migration(migrations.Migration):

    dependencies = [
        ("memories", "0015_backfill_updated_by"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(partition, unpartition)],
            state_operations=[
                migrations.AlterField(
                    model_name="memory", name="superseded_by",
                    field=memory_key(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                     related_name="supersedes"),
                ),
                migrations.AlterField(
                    model_name="memoryentity", name="memory",
                    field=memory_key(on_delete=django.db.models.deletion.CASCADE),
                ),
                migrations.AlterField(
                    model_name="memoryhistory", name="memory",
                    field=memory_key(on_delete=django.db.models.deletion.CASCADE, related_name="history"),
                ),
                migrations.AlterField(
                    model_name="memorysentence", name="memory",
                    field=memory_key(on_delete=django.db.models.deletion.CASCADE, related_name="sentences"),
                ),
            ],
        ),
    ]
