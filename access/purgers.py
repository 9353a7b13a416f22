"""The access app's part of every deletion (recall_site/purging.py): nothing — a grant says which account
may act for a user id; it holds no content, and forgetting what a user said does not revoke access."""
from access.models import UserIdGrant
from recall_site.purging import KeptTables


class AccessTables(KeptTables):
    kept = {UserIdGrant: "which accounts may act for a user id: access control, no content"}
