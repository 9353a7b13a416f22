"""UserIdGrant now belongs to the access app (access 0001); its table stays, only the state moves."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("audit", "0001_initial"),
        ("access", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="UserIdGrant")],
            database_operations=[],
        ),
    ]
