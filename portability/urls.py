from django.urls import path

from portability import views

urlpatterns = [
    path("profile/download/", views.download, name="data-download"),
]
