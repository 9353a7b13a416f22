"""What entities tells the apps above it, which keep rows pointing at entities (memories link to them).

`entity_merging` is sent inside the merge transaction, after the entity's own rows moved and before the
loser is deleted: each receiver moves its rows from `loser` to `winner` and returns a dict of counts,
which the merge adds to its audit event. Entities never imports those apps.
"""
from django.dispatch import Signal

entity_merging = Signal()  # sender=Entity, winner=Entity, loser=Entity → dict[str, int]
