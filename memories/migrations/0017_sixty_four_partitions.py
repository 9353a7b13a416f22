"""Memories and their sentences in 64 hash partitions by user_id instead of 16 (memories/partitions.py).

At 2M memories of 10,000 users a partition holds ~30k rows instead of ~125k, so a user's filtered HNSW
scan and full-text bitmap cross a quarter as many other tenants' rows and pages. Measured on that database
from a cold cache, both layouts, same rows and users (docs/benchmarks.md, session 25): hybrid p95 of users
with 1k-10k memories 291 → 171 ms, with a types filter 64 → 40 ms, of users with 10k+ memories 113 → 82 ms;
no size class slower. An empty install has 64 × 15 + 64 × 4 indexes. The tables are rebuilt in one
transaction, rows, ids and keys kept, as 0016 did (9-10 min at 2M memories); the reverse goes back to 16.
"""
from django.db import migrations

from memories.partitions import PARTITIONED_TABLES, repartition

PARTITIONS, BEFORE = 64, 16


def more_partitions(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        repartition(cursor, PARTITIONED_TABLES, PARTITIONS)


def fewer_partitions(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        repartition(cursor, PARTITIONED_TABLES, BEFORE)


class Migration(migrations.Migration):

    dependencies = [
        ("memories", "0016_partition_by_user"),
    ]

    operations = [migrations.RunPython(more_partitions, fewer_partitions)]
