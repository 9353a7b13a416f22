"""The console's "Download my data" (profile page): the API's export, for the acting user id."""
from django.views.decorators.http import require_GET

from access.console import console_view
from portability.responses import export_response


@require_GET
@console_view
def download(request):
    return export_response(request.acting_user_id)
