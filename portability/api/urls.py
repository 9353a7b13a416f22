from django.urls import path

from portability.api import views

urlpatterns = [
    path("export", views.export_view, name="api-export"),
    path("import", views.import_view, name="api-import"),
]
