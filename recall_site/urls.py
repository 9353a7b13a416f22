from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils.functional import lazy
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

urlpatterns = [
    # Browsers ask for /favicon.ico whatever the page links; send them to the SVG.
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("favicon.svg"), permanent=True)),
    path("admin/", admin.site.urls),
    # The API's description is the same for everyone: no rate limit (whose counts are in the database).
    path("api/schema/", SpectacularAPIView.as_view(throttle_classes=[]), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema", throttle_classes=[]), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema", throttle_classes=[]), name="api-redoc"),
    path("api/v1/", include("console.api.urls")),
    path("api/v1/", include("memories.api.urls")),
    path("api/v1/", include("search.api.urls")),
    path("api/v1/", include("ingest.api.urls")),
    path("api/v1/", include("entities.api.urls")),
    path("api/v1/", include("audit.api.urls")),
    path("api/v1/", include("forgetting.api.urls")),
    path("api/v1/", include("metrics.api.urls")),
    path("api/v1/", include("portability.api.urls")),
    path("entities/", include("entities.urls")),
    path("", include("audit.urls")),
    path("", include("forgetting.urls")),
    path("", include("metrics.urls")),
    path("", include("portability.urls")),
    path("", include("console.urls")),
    path("", include("memories.urls")),
    path("", include("search.urls")),
]

handler400 = "recall_site.api_errors.bad_request"
handler404 = "recall_site.api_errors.not_found"
handler500 = "recall_site.api_errors.server_error"
